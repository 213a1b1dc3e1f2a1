"""PN532 over I2C (address 0x24): every read starts with the ready byte.

Imports nothing. One reader per bus (the address is fixed). A frame is read whole in one
transaction, with room for the extra preamble zeros chips send on I2C (pn532.py): answers are
read with room to spare already (``max_len``), an ACK (6 bytes as drawn) with 6 more.
"""

SHORTEST_READ = 12  # an ACK behind up to 7 preamble zeros

class I2CTransport:
    """PN532 I2C (address 0x24): every read starts with the ready byte."""

    def __init__(self, i2c, address=0x24):
        self.i2c = i2c
        self.address = address

    def wakeup(self):
        pass  # the first I2C start condition wakes the chip

    def write(self, frame):
        self.i2c.writeto(self.address, frame)

    def ready(self):
        try:
            return self.i2c.readfrom(self.address, 1)[0] & 1 == 1
        except OSError:
            return False  # a chip in reset or hung does not ACK its address

    def read_frame(self, max_len):
        data = self.i2c.readfrom(self.address, max(max_len, SHORTEST_READ) + 1)
        return bytes(data[1:])
