"""Kept events that are not yet in turn are held until the plays placed before them arrive
(docs/protocol.md, PadEvent ``kept``; docs/phones.md, "Plays kept while the host was away"):
raw pad events through a real broker, host, journal and engine."""

from __future__ import annotations

import random

from hostkit import Host, bot_choice, new_shadow, play_to, tap_for
from tricktable.protocol import Ack, Control, decode, encode
from waiting import eventually

WAIT = 15.0


def kept_tap(host: Host, seat: int, uid: bytes):
    """A board's kept event (as the scoreboard relays a phone's kept play)."""
    event = host.boards[seat].event(0, uid)
    event.kept = True
    host.boards[seat].send(event)
    return event


def acks(host: Host, start: int) -> list[tuple[str, int]]:
    """(board, seq) of every ack the host sent since observer index ``start``, in order."""
    with host.observer.lock:
        messages = list(host.observer.messages[start:])
    return [(topic.split("/")[-2], decode(Ack, payload).seq) for topic, payload, _ in messages
            if topic.endswith("/ack")]


def bidding(host: Host) -> tuple:
    shadow, rng = new_shadow(), random.Random(11)
    play_to(host, shadow, rng, lambda s: s.phase == "bidding")
    return shadow, rng


def two_bids(host: Host) -> tuple:
    """The next two bids of the auction, chosen (on the shadow engine), not yet sent."""
    shadow, rng = bidding(host)
    first = bot_choice(shadow, rng)
    assert shadow.apply(first).ok
    second = bot_choice(shadow, rng)
    assert shadow.apply(second).ok
    return shadow, rng, first, second


def test_a_kept_event_out_of_turn_waits_for_the_play_before_it(host):
    """The seat after next sends its kept bid first: held, not journaled, not acknowledged;
    the next seat's bid (sent at once) is applied, then the held one, acknowledged in that
    order; an admin's entered action releases a held play the same way."""
    shadow, rng, first, second = two_bids(host)
    entries = host.journal.count("pad")
    mark = host.observer.mark()
    later = kept_tap(host, second.seat, tap_for(second))
    eventually(lambda: host.service.held.count() == 1, "the kept bid held", WAIT)
    assert host.journal.count("pad") == entries and acks(host, mark) == []
    earlier = host.boards[first.seat].tap(tap_for(first))
    index, verdict = host.observer.verdict("t1", mark)
    assert (verdict.kind, verdict.seat) == ("accepted", first.seat), verdict
    verdict = host.observer.verdict("t1", index)[1]
    assert (verdict.kind, verdict.seat) == ("accepted", second.seat), verdict
    assert acks(host, mark) == [(earlier.board, earlier.seq), (later.board, later.seq)]
    assert host.service.held.count() == 0 and host.journal.count("pad") == entries + 2
    # released by an action the admin enters for the seat before it
    third = bot_choice(shadow, rng)
    assert shadow.apply(third).ok
    fourth = bot_choice(shadow, rng)
    assert shadow.apply(fourth).ok
    before = host.service.state("t1")["actions"]
    mark = host.observer.mark()
    kept_tap(host, fourth.seat, tap_for(fourth))
    eventually(lambda: host.service.held.count() == 1, "the kept bid held", WAIT)
    host.service.control("t1", Control(cmd="action", args={"action": third.to_json()}, id="a1"))
    verdict = host.observer.verdict("t1", host.observer.verdict("t1", mark)[0])[1]
    assert (verdict.kind, verdict.seat) == ("accepted", fourth.seat), verdict
    assert host.service.state("t1")["actions"] == before + 2


def test_a_held_event_waits_its_time_then_is_refused_saying_so(host):
    """A kept bid out of turn whose earlier play never comes is refused once it has waited
    (here 0.5 s), with a reason that says it waited; a bid out of turn sent at once is refused
    at once and never held (the control); the right seat's bid is then accepted."""
    host.service.held.hold_s = 0.5
    shadow, rng = bidding(host)
    action = bot_choice(shadow, rng)
    wrong = (action.seat + 1) % 4
    mark = host.observer.mark()
    host.boards[wrong].tap(tap_for(action))
    verdict = host.observer.verdict("t1", mark)[1]
    assert (verdict.kind, verdict.code) == ("refused", "not_your_turn"), verdict
    assert "waited" not in verdict.reason and host.service.held.count() == 0
    mark = host.observer.mark()
    kept_tap(host, wrong, tap_for(action))
    verdict = host.observer.verdict("t1", mark)[1]
    assert (verdict.kind, verdict.code) == ("refused", "not_your_turn"), verdict
    assert "waited 0.5 s for the cards placed before it" in verdict.reason, verdict
    assert host.service.held.count() == 0
    assert shadow.apply(action).ok
    assert host.tap(action.seat, tap_for(action)).kind == "accepted"


def test_a_host_stopped_while_holding_forgets_and_the_copy_sent_again_is_held_again(host):
    """Held is not stored: a restarted host has nothing of the held play; the board, which
    still keeps it, sends it again, and it is applied once its turn comes: nothing lost."""
    shadow, rng, first, second = two_bids(host)
    entries = host.journal.count("pad")
    later = kept_tap(host, second.seat, tap_for(second))
    eventually(lambda: host.service.held.count() == 1, "the kept bid held", WAIT)
    host.restart_service()
    assert host.journal.count("pad") == entries and host.service.held.count() == 0
    host.boards[second.seat].send(encode(later))
    eventually(lambda: host.service.held.count() == 1, "the copy held again", WAIT)
    mark = host.observer.mark()
    host.boards[first.seat].tap(tap_for(first))
    index, verdict = host.observer.verdict("t1", mark)
    assert (verdict.kind, verdict.seat) == ("accepted", first.seat), verdict
    verdict = host.observer.verdict("t1", index)[1]
    assert (verdict.kind, verdict.seat) == ("accepted", second.seat), verdict
    assert host.journal.count("pad") == entries + 2
