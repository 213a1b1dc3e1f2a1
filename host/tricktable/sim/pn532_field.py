"""A PN532 emulator with several tags in its field (stacked cards) and injected read faults.



Anticollision, as ISO/IEC 14443-3 describes it: every tag in the field that answers the REQA
sends its cascade-level UID bytes (a 7-byte UID: 88 u0 u1 u2 at level 1, u3..u6 at level 2),
least significant bit of each byte first. At the first bit where they differ the reader
sees a collision and, as the standard's worked example and NXP's readers do, carries on
with the tags that sent 1 there. So InListPassiveTarget with MaxTg 1 reports the same one
tag of a stack at every poll (``winner``: the UID that wins that bitwise race); the others
stay silent until it leaves. InitiatorData holding a UID selects that tag only (no
anticollision), whatever lies on it: that is how a reader asks "is this card still there?".

Faults (``inject(kind, arg)``; each applies once, in the order injected):

* "air", bit positions: the next tag answer is corrupted on air in those bits of answer +
  CRC_A. The PN532 checks CRC_A and reports status 02 (CRC error); only a flip pattern
  CRC_A misses comes through as data (status 00).
* "short", n: the next READ answers only its first n bytes (status 00).
* "leave": the tag answering the next exchange leaves the field half way (status 01,
  time-out; it is gone from the field).
* "bus", bit positions: the next answer frame reaches the host with those bits flipped on
  the wire (SPI, I2C or UART); the chip's copy stays good, so a NACK gets it again.
"""

try:  # MicroPython and the firmware tests: the emulator is a top-level module
    from pn532_emulator import ACK, PN532, ST_CRC, ST_OK, ST_TIMEOUT, TIMING_US, build_frame
except ImportError:  # the host package
    from tricktable.sim.pn532_emulator import (
        ACK,
        PN532,
        ST_CRC,
        ST_OK,
        ST_TIMEOUT,
        TIMING_US,
        build_frame,
    )


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A of data (two bytes, low byte first), as a tag appends it."""
    crc = 0x6363
    for b in data:
        b ^= crc & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes([crc & 0xFF, (crc >> 8) & 0xFF])


def flip_bits(data: bytes, bits) -> bytes:
    """data with those bit positions (0 = bit 0 of byte 0) inverted; positions past the end
    are ignored."""
    out = bytearray(data)
    for bit in bits:
        if bit // 8 < len(out):
            out[bit // 8] ^= 1 << (bit % 8)
    return bytes(out)


def cascade_key(uid: bytes) -> bytes:
    """The UID's bits in the order anticollision sends them, as bytes that compare in that
    order (each byte bit-reversed; the cascade tag 88 ahead of a 7-byte UID)."""
    sent = b"\x88" + uid if len(uid) == 7 else uid
    out = bytearray(len(sent))
    for i in range(len(sent)):
        b, r = sent[i], 0
        for _ in range(8):
            r, b = (r << 1) | (b & 1), b >> 1
        out[i] = r
    return bytes(out)


class FieldPN532(PN532):
    """The PN532 with any number of tags in its field; ``tag`` is the one selected last."""

    def __init__(self, clock=None) -> None:
        super().__init__(clock)
        self.field = []
        self.air_faults = []
        self.bus_faults = []

    def place(self, tag) -> None:
        """Put one tag in the field (taking away every other)."""
        self.remove()
        self.stack(tag)

    def stack(self, tag) -> None:
        """One more tag in the field (a card laid on top of another)."""
        if tag not in self.field:
            self.field.append(tag)
            tag.new_session()

    def lift(self, tag) -> None:
        """Take one tag out of the field (it loses power: its session ends)."""
        if tag in self.field:
            self.field.remove(tag)
            tag.new_session()
        if tag is self.tag:
            self.tag = None  # an exchange with it now times out (status 01)

    def remove(self) -> None:
        """Take every tag out of the field."""
        for tag in list(self.field):
            self.lift(tag)
        self.active = False

    def winner(self, among=None):
        """The tag anticollision selects among ``among`` (default: the whole field)."""
        best = None
        for tag in self.field if among is None else among:
            if best is None or cascade_key(tag.uid) > cascade_key(best.uid):
                best = tag
        return best

    def inject(self, kind: str, arg=None) -> None:
        """Queue a fault: "air" (bits), "short" (n), "leave" or "bus" (bits)."""
        if kind not in ("air", "short", "leave", "bus"):
            raise ValueError(f"unknown fault {kind!r}")
        (self.bus_faults if kind == "bus" else self.air_faults).append((kind, arg))

    def pop_frame(self) -> bytes:
        frame = super().pop_frame()
        if self.bus_faults and frame and frame != ACK:
            frame = flip_bits(frame, self.bus_faults.pop(0)[1])
        return frame

    def _list_passive(self, reply, baud, uid):
        answering = [t for t in self.field if t.answers_poll()] if baud == 0x00 else []
        for tag in self.field:
            tag.new_session()  # a new selection (or not selected at all)
        self.tag = self.winner([t for t in answering if t.uid[: len(uid)] == uid])
        if self.tag is None:
            return super()._list_passive(reply, baud, uid)  # "no target" (after its retries)
        self.active = True
        t = self.tag
        target = t.sens_res() + b"\x00" + bytes([len(t.uid)]) + t.uid
        return build_frame(0xD5, bytes([reply, 1, 1]) + target), TIMING_US["activation_ok"]

    def _data_exchange(self, reply, target, cmd):
        tag = self.tag
        if not self.air_faults or target != 1 or not self.active or tag is None or tag.idle:
            return super()._data_exchange(reply, target, cmd)
        kind, arg = self.air_faults.pop(0)
        status, out, busy = tag.command(cmd)
        if kind == "leave":
            self.lift(tag)
            status, out = ST_TIMEOUT, b""
        elif kind == "short" and cmd[0] == 0x30 and status == ST_OK:
            out = out[:arg]
        elif kind == "air" and status == ST_OK:
            sent = flip_bits(out + crc_a(out), arg)
            status, out = (ST_OK, sent[:-2]) if crc_a(sent[:-2]) == sent[-2:] else (ST_CRC, b"")
        return build_frame(0xD5, bytes([reply, status]) + out), busy
