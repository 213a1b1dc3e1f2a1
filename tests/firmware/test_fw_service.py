"""A hand of Bid Euchre played on a firmware board under MicroPython (a 96k board heap plus
the emulated pads' share, CASE_HEAP) against the real host service through mosquitto: the
board reads each tap from the emulated pads, the service journals it, acks it, rules on it
(“Bid Euchre”, section “Single Deck Bid Euchre”, "Bidding" and "Leading, taking tricks, and
scoring": the hand is dealt, bid, declared and played out by legal moves) and every verdict
is "accepted".
This is issue 5's "done when": the firmware a board runs plays a whole hand through a real
broker under real MicroPython.
"""

from __future__ import annotations

import json
import random
import sys
import tomllib
from pathlib import Path

import pytest
from fwkit import CASE_HEAP, last_json
from tricktable.clubfile import parse_club
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL, Service

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "host"))
from hostkit import (  # noqa: E402  (the host's test kit: enrolled decks, observer, bot)
    CARD_DECK,
    PLAYERS,
    TOKEN_DECK,
    Observer,
    bot_choice,
    make_registry,
    new_shadow,
    tap_for,
)

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(180)]
BOARD = "t1-table"


def club(prefix: str):
    """One table, one board with four pads: pad i is seat i (the ESP32 build)."""
    text = "\n".join([
        "[club]", 'name = "firmware test"', f'prefix = "{prefix}"',
        "[tables.t1]", 'variant = "bid-euchre"',
        "players = [" + ", ".join(f'"{p}"' for p in PLAYERS) + "]",
        "seed = 1", f"deck = {CARD_DECK}", f"token_decks = [{TOKEN_DECK}]",
        "[tables.t1.pads]", *[f'"{BOARD}:{i}" = {i}' for i in range(4)],
    ])
    return parse_club(tomllib.loads(text + "\n"))


def test_a_hand_played_on_a_micropython_board_through_the_host(micropython, mqtt_broker,
                                                                topic_prefix, tmp_path):
    registry = make_registry(tmp_path / "decks.sqlite")
    journal = Journal(tmp_path / "journal.sqlite")
    service = Service(club(topic_prefix), journal, registry,
                      BrokerURL("127.0.0.1", mqtt_broker.port), client_id=f"host-{topic_prefix}")
    service.start()
    assert service.connected.wait(10)
    observer = Observer(mqtt_broker.port, topic_prefix)
    control = f"{topic_prefix}/test/{BOARD}/hand"
    (tmp_path / "flash").mkdir()
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({
        "config": {"board": BOARD, "prefix": topic_prefix, "table": "t1", "pads": 4,
                   "scan_ms": 10, "broker": {"host": "127.0.0.1", "port": mqtt_broker.port}},
        "storage": str(tmp_path / "flash"), "control": control}))
    proc = micropython.start("board_serve.py", str(spec), heap=CASE_HEAP)
    try:
        status = observer.topics.board_status(BOARD)
        observer.wait_for(lambda t, p: t == status and json.loads(p).get("online") is True,
                          timeout=20)
        shadow, rng = new_shadow(), random.Random(11)
        while shadow.public_state()["hand_number"] < 2:  # the first hand, dealt to scored
            action = bot_choice(shadow, rng)
            assert shadow.apply(action).ok
            mark = observer.mark()
            observer.client.publish(control, json.dumps(
                {"pad": action.seat, "uid": tap_for(action).hex()}), qos=1)
            verdict = observer.verdict("t1", mark)[1]
            assert (verdict.kind, verdict.seat, verdict.action) == (
                "accepted", action.seat, action.to_json()), verdict
            observer.client.publish(control, json.dumps({"pad": action.seat}), qos=1)
        observer.client.publish(control, json.dumps({"stop": True}), qos=1)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, out + err
        summary = last_json(out)
        assert summary["pending"] == 0 and summary["bad_messages"] == 0, summary
        assert summary["seq"] == len(shadow.actions), "one board event per tap"
        [game] = journal.games("t1")
        assert game.actions == [a.to_json() for a in shadow.actions]
    except TimeoutError as e:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"{e}; the board printed:\n{out}\n{err}") from e
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        observer.close()
        service.stop()
        journal.close()
        registry.close()
