"""Seat feedback: a colour and a pattern per pad on NeoPixels or plain LEDs, and a buzzer.

Imports compat only; the pixel strip, LED pins and buzzer PWM come from the hardware layer
(any objects with NeoPixel's ``n``/``__setitem__``/``write``, Pin's ``__call__(level)`` and
PWM's ``freq``/``duty_u16``). ``apply(msg)`` takes a host feedback message
``{pad, led, pattern, ms, buzz}``; a bad message raises ValueError and changes nothing.
``run()`` animates blink/pulse, times out lights after ``ms`` (0 = stay) and plays tones.

``trouble`` (a callable: (what is wrong or None, the pads that show it)) is asked at every
frame; such a pad with nothing else to show shows it in its own pattern: no Wi-Fi
(red, two short flashes every 2 s), no host (red, pulsing slowly: Wi-Fi is up, the broker
out of reach), outbox nearly full (amber, pulsing slowly: the host has not acknowledged most
of what the board may keep, or its flash is full). The plays wait on the board and go when
the host is back.

``signal(pad, name)`` shows what the pad says by itself, with no host involved (SIGNALS:
"read_again" when a card could not be read surely; "stacked" at each scan that finds a card
lying on the played one, so the light goes out 400 ms after the stack is gone). The app
sets ``placed`` = (pad, ticks_ms) when it queues a placement; the first verdict (green, red
or amber) for that pad then records card-to-verdict milliseconds in ``verdict_ms`` (at most
_VERDICTS_KEPT, until the next status takes them).
"""

from compat import const, sleep_ms, ticks_add, ticks_diff, ticks_ms

COLOURS = {
    "off": (0, 0, 0),
    "green": (0, 80, 0),
    "red": (80, 0, 0),
    "amber": (80, 40, 0),
    "blue": (0, 0, 80),
    "white": (60, 60, 60),
}
# Plain LEDs: the red LED for a colour with red in it, the green one for green or blue.
_PATTERNS = const(("solid", "blink", "pulse"))
# (frequency Hz or 0 for silence, milliseconds)
TUNES = {
    "none": (),
    "ok": ((2000, 60),),
    "error": ((400, 150), (0, 80), (400, 150)),
    "revoke": ((1500, 100), (0, 60), (1000, 100), (0, 60), (500, 300)),
}
_FRAME_MS = const(50)
# What a pad shows by itself (docs/cardpath.md, "What the seat sees").
SIGNALS = {"read_again": ("white", "blink", 2000, "error"), "stacked": ("white", "pulse", 400, "none")}
_VERDICTS_KEPT = const(16)
# what is wrong, on a seat with nothing else to show, every 2 s (firmware/README.md, "What
# the seat says"): "wifi" two red 150 ms flashes, "host" a red pulse, "full" an amber pulse
_TROUBLE_MS = const(2000)


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
        self.placed = (None, 0)  # (pad, ticks_ms) of the last placement not yet given a verdict
        self.verdict_ms = []  # card-to-verdict ms since the last status (app.py clears it)
        self.trouble = None  # callable -> (TROUBLE name or None, pads that show it)

    def apply(self, msg):
        """Validate a host feedback message, then show it."""
        pad = msg.get("pad")
        led = msg.get("led", "off")
        pattern = msg.get("pattern", "solid")
        ms = msg.get("ms", 1500)
        buzz = msg.get("buzz", "none")
        if not isinstance(pad, int) or not 0 <= pad < self.pads:
            raise ValueError("feedback for pad %r: pads are 0..%d" % (pad, self.pads - 1))
        if not isinstance(ms, int) or ms < 0:
            raise ValueError("ms must be a non-negative integer, got %r" % ms)
        for value, known, what in ((led, COLOURS, "led colour"),
                                   (pattern, _PATTERNS, "led pattern"), (buzz, TUNES, "buzz")):
            if value not in known:
                raise ValueError("unknown %s %r" % (what, value))
        now = ticks_ms()
        until = ticks_add(now, ms) if ms else None
        self.state[pad] = (led, pattern, until)
        self.tune = list(TUNES[buzz])
        self.render(now)
        if self.placed[0] == pad and led in ("green", "red", "amber"):
            if len(self.verdict_ms) < _VERDICTS_KEPT:
                self.verdict_ms.append(ticks_diff(ticks_ms(), self.placed[1]))
            self.placed = (None, 0)

    def signal(self, pad, name):
        """Show the pad's own signal ``name`` (SIGNALS)."""
        led, pattern, ms, buzz = SIGNALS[name]
        self.apply({"pad": pad, "led": led, "pattern": pattern, "ms": ms, "buzz": buzz})

    def level(self, pad, now):
        """The colour name and brightness (0..1) pad shows at ``now``."""
        led, pattern, until = self.state[pad]
        if until is not None and ticks_diff(now, until) >= 0:
            self.state[pad] = ("off", "solid", None)
            led = "off"
        if led == "off":
            wrong, pads = self.trouble() if self.trouble is not None else (None, ())
            if wrong is None or pad not in pads:
                return "off", 0
            phase = now % _TROUBLE_MS
            if wrong == "wifi":
                return "red", 1 if phase < 450 and phase % 300 < 150 else 0
            half = _TROUBLE_MS // 2
            return "amber" if wrong == "full" else "red", (phase if phase < half else _TROUBLE_MS - phase) / half
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
            r, g, b = COLOURS[led]
            if self.pixels is not None:
                self.pixels[pad] = (int(r * bright), int(g * bright), int(b * bright))
            if self.leds is not None:
                on = bright >= 0.5
                self.leds[pad][0](1 if on and r else 0)
                self.leds[pad][1](1 if on and (g or b) else 0)
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
            await sleep_ms(_FRAME_MS)
