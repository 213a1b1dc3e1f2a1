"""The table service (``tricktable serve``): MQTT in, journal, table sessions, MQTT out."""
