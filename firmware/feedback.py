"""Seat feedback: a colour and a pattern per pad on NeoPixels or plain LEDs, and a buzzer.

Imports compat only; the pixel strip, LED pins and buzzer PWM come from the hardware layer
(any objects with NeoPixel's ``n``/``__setitem__``/``write``, Pin's ``__call__(level)`` and
PWM's ``freq``/``duty_u16``). ``apply(msg)`` takes a host feedback message
``{pad, led, pattern, ms, buzz}``; a bad message raises ValueError and changes nothing.
``run()`` animates blink/pulse, times out lights after ``ms`` (0 = stay) and plays tones.
"""

from compat import sleep_ms, ticks_add, ticks_diff, ticks_ms

COLOURS = {
    "off": (0, 0, 0),
    "green": (0, 80, 0),
    "red": (80, 0, 0),
    "amber": (80, 40, 0),
    "blue": (0, 0, 80),
    "white": (60, 60, 60),
}
# Plain LEDs: (red LED on, green LED on) per colour.
PLAIN = {"off": (0, 0), "green": (0, 1), "red": (1, 0), "amber": (1, 1), "blue": (0, 1),
         "white": (1, 1)}
PATTERNS = ("solid", "blink", "pulse")
# (frequency Hz or 0 for silence, milliseconds)
TUNES = {
    "none": (),
    "ok": ((2000, 60),),
    "error": ((400, 150), (0, 80), (400, 150)),
    "revoke": ((1500, 100), (0, 60), (1000, 100), (0, 60), (500, 300)),
}
FRAME_MS = 50


class SeatFeedback:
    """Lights and sound for the pads of one board."""

    def __init__(self, pads, pixels=None, leds=None, buzzer=None):
        self.pads = pads
        self.pixels = pixels
        self.leds = leds  # list per pad of (red_pin, green_pin)
        self.buzzer = buzzer
        self.state = [("off", "solid", None) for _ in range(pads)]
        self.tune = []
        self.shown = [None] * pads

    def apply(self, msg):
        """Validate a host feedback message, then show it."""
        pad = msg.get("pad")
        led = msg.get("led", "off")
        pattern = msg.get("pattern", "solid")
        ms = msg.get("ms", 1500)
        buzz = msg.get("buzz", "none")
        if not isinstance(pad, int) or not 0 <= pad < self.pads:
            raise ValueError("feedback for pad %r: pads are 0..%d" % (pad, self.pads - 1))
        if led not in COLOURS:
            raise ValueError("unknown led colour %r" % led)
        if pattern not in PATTERNS:
            raise ValueError("unknown led pattern %r" % pattern)
        if not isinstance(ms, int) or ms < 0:
            raise ValueError("ms must be a non-negative integer, got %r" % ms)
        if buzz not in TUNES:
            raise ValueError("unknown buzz %r" % buzz)
        until = ticks_add(ticks_ms(), ms) if ms else None
        self.state[pad] = (led, pattern, until)
        self.tune = list(TUNES[buzz])
        self.render(ticks_ms())

    def level(self, pad, now):
        """The colour name and brightness (0..1) pad shows at ``now``."""
        led, pattern, until = self.state[pad]
        if until is not None and ticks_diff(now, until) >= 0:
            self.state[pad] = ("off", "solid", None)
            return "off", 0
        if pattern == "blink":
            return led, 1 if (now // 250) % 2 == 0 else 0
        if pattern == "pulse":
            phase = now % 1000
            return led, (phase if phase < 500 else 1000 - phase) / 500
        return led, 1

    def render(self, now):
        changed = False
        for pad in range(self.pads):
            led, bright = self.level(pad, now)
            look = (led, bright)
            if look == self.shown[pad]:
                continue
            self.shown[pad] = look
            changed = True
            if self.pixels is not None:
                r, g, b = COLOURS[led]
                self.pixels[pad] = (int(r * bright), int(g * bright), int(b * bright))
            if self.leds is not None:
                red, green = PLAIN[led]
                on = 1 if bright >= 0.5 else 0
                self.leds[pad][0](red & on)
                self.leds[pad][1](green & on)
        if changed and self.pixels is not None:
            self.pixels.write()

    async def run(self):
        """Animate lights and play queued tones, forever."""
        while True:
            if self.tune and self.buzzer is not None:
                freq, ms = self.tune.pop(0)
                if freq:
                    self.buzzer.freq(freq)
                    self.buzzer.duty_u16(32768)
                else:
                    self.buzzer.duty_u16(0)
                await sleep_ms(ms)
                if not self.tune:
                    self.buzzer.duty_u16(0)
                continue
            self.tune = []  # no buzzer fitted: a tune asked for is dropped
            self.render(ticks_ms())
            await sleep_ms(FRAME_MS)
