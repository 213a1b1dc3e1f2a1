"""Helpers for the deck tests: blank tags, genuine NXP signatures, and a scripted person at
the reader (``ScriptedUI``)."""

from __future__ import annotations

from tricktable.deckkit import decks
from tricktable.deckkit.enroll import TapDetector
from tricktable.sim.pn532_emulator import Tag
from tricktable.sim.pn532_serial import SerialPN532

# Two genuine NTAG21x tags' UIDs and READ_SIG answers, as published with NXP's key (AN11350).
GENUINE = [
    ("04E10CDA993C80", "8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3"),
    ("04DB0BDA993C80", "6048EFD9417CD10F6B7F1818D471A7FE5B46868D2EABDC6307A1E0AAE139D8D0"),
]


def make_tags(count: int, first: int = 0, kind: str = "ntag213") -> list[Tag]:
    """Blank tags with distinct 7-byte UIDs (NXP manufacturer byte 04)."""
    return [
        Tag(bytes([0x04, 0x10, 0x20, (first + i) >> 8 & 0xFF, (first + i) & 0xFF, 0x5A, 0x81]), kind=kind)
        for i in range(count)
    ]


class ScriptedUI:
    """The person at the reader, scripted: puts the next tag on the reader when asked for a
    card, and answers questions from a list. Everything said is kept in ``log``.

    To tap the same card twice the person lifts it for a moment: with ``taps`` (the session's
    TapDetector) given, the card is removed and the reader polled empty for 0.3 s first. Told
    to tap again because the reader did not answer (a slow link, not a bad card), the person
    taps the same card again rather than the next; after any other problem, the next card.
    """

    def __init__(
        self,
        emulator: SerialPN532,
        hand: list[Tag],
        answers: list[str] = (),
        taps: TapDetector | None = None,
    ) -> None:
        self.emulator = emulator
        self.hand = list(hand)
        self.answers = list(answers)
        self.taps = taps
        self.log: list[str] = []
        self.again = False  # the reader did not answer: tap the card in hand again

    def next_card(self, slot: decks.Slot | None, done: int, total: int) -> None:
        self.log.append(f"tap {slot.name if slot else 'any'} ({done}/{total})")
        if self.again:
            self.again = False
            return  # the card still lies there, and the session reads it as a new tap
        if not self.hand:
            self.emulator.remove()
            return
        tag = self.hand.pop(0)
        if self.taps is not None and self.emulator.chip.tag is tag:
            self.emulator.remove()
            assert self.taps.next_tap(0.3) is None
        self.emulator.place(tag)

    def done_card(self, slot: decks.Slot, uid: bytes) -> None:
        self.log.append(f"ok {slot.name} {uid.hex()}")

    def problem(self, message: str) -> None:
        self.log.append(f"problem: {message}")
        self.again = "did not answer" in message

    def choose(self, question: str, choices: dict[str, str]) -> str:
        self.log.append(f"ask: {question}")
        return self.answers.pop(0)
