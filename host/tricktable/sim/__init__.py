"""Simulated tables: virtual boards running the real firmware, the PN532 emulator, bots."""
