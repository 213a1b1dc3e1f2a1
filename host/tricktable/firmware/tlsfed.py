"""The TLS socket of an mqtts link while its handshake runs, the watchdog fed across each of
its long steps (``Fed``), in a module of its own: mqttconnect.py imports it only for a TLS
connect on MicroPython, so a board without TLS spends none of its RAM on it.

Imports compat only.
"""

from compat import ticks_ms


class Fed:
    """A TLS socket while its handshake runs (MicroPython): mbedTLS does a whole server
    flight's public-key work inside one write or read, with nothing else running on the
    board: seconds on a Pico W's Cortex-M0+ (bench/tls_handshake.py), against a watchdog of
    at most 8.4 s whose feeding task cannot run meanwhile. So the watchdog is fed just before
    and just after each of them, if the board was well just before (``client.watchdog``: the
    App, its ``healthy(now)`` and its board's ``feed()``; the scan loop then runs again at
    once).
    mqttconnect.open_link takes the TLS socket back out (``tls``) once CONNACK is in."""

    def __init__(self, tls, app):
        self.tls = tls
        self.app = app

    def _step(self, call, buf):
        well = self.app.healthy(ticks_ms())
        if well:
            self.app.board.feed()
        try:
            return call(buf)
        finally:
            if well:
                self.app.board.feed()

    def write(self, buf):
        return self._step(self.tls.write, buf)

    def readinto(self, buf):
        return self._step(self.tls.readinto, buf)

    def close(self):
        self.tls.close()
