"""MQTT for the host: starting a broker, broker URLs and clients, the shipped mosquitto configuration."""
