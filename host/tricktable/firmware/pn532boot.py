"""Bringing a PN532 up: the reset pulse, the firmware check, SAM and retry configuration.

Imports compat and pn532. ``PN532.begin`` and ``PN532.recover`` import it for the call and
drop it again, as ``Outbox()`` drops outboxload.py: a reader is set up at boot and again
only when it hangs, so a scanning board holds none of this code in its heap.
"""

from compat import sleep_ms
from pn532 import PN532Error


async def setup(pn, full):
    """``full``: reset (if wired), wake, check the firmware, configure SAM and bounded
    retries. Else (a reader with no reset pin, recovering): wake and configure SAM."""
    if not full:
        pn.t.wakeup()
        await pn.call(0x14, b"\x01\x14\x01")  # SAMConfiguration: normal mode, IRQ used
        return
    if pn.reset_pin is not None:  # pulse RSTPDN low then high and let the chip boot
        pn.resets += 1
        pn.reset_pin(0)
        await sleep_ms(2)
        pn.reset_pin(1)
        await sleep_ms(10)
    pn.t.wakeup()
    data = await pn.call(0x02)  # GetFirmwareVersion
    if len(data) != 4 or data[0] != 0x32:
        raise PN532Error("not a PN532: firmware answer %r" % data)
    pn.firmware = "%d.%d" % (data[1], data[2])
    await pn.call(0x14, b"\x01\x14\x01")
    await pn.call(0x32, bytes([0x05, 0xFF, 0x01, pn.MAX_RETRIES]))  # RFConfiguration: retries
