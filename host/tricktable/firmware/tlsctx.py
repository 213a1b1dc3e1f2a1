"""The TLS context of an mqtts link (config.json ``broker.tls``), in a module of its own: app.py
imports it only when TLS is configured, so a board without TLS spends none of its RAM on it.

Imports ssl only.
"""

import ssl


def tls_context(cafile):
    """A TLS client context that trusts only the CA in ``cafile`` (DER: MicroPython's mbedTLS
    builds parse no PEM) and checks the broker's certificate: the same calls on MicroPython and
    CPython."""
    with open(cafile, "rb") as f:
        der = f.read()
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.load_verify_locations(cadata=der)
    return ctx
