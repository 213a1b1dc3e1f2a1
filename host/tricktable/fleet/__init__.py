"""The board fleet: firmware bundles and their signatures (``bundle``), updating boards table by
table over MQTT (``updater``), and what the boards' statuses say about their health
(``health``). docs/fleet.md is the operator's guide; docs/protocol.md has the topics.
"""
