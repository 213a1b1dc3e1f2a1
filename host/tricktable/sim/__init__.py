"""Simulated tables: virtual boards running the real firmware, the PN532 emulator, bots.

The modules (``boards``, ``pn532_emulator``, ``pn532_field`` (stacked tags, faults),
``pn532_serial``, ``kit``, ``bots``, ``table_sim``) are imported by name; this package file
imports nothing. The package may
import the firmware modules, ``cards``, ``engine``, ``rules``, ``decks`` and ``table``
(only for token meanings), as docs/architecture.md says.
"""
