"""``tricktable doctor`` before a night (docs/appliance.md): against a club run by
``tricktable up``, every check passes (the boards' TLS listener with the club's certificate
among them); then each failure that would stop a night is named on
its own line with its fix and the exit status is 1: the broker down, a board offline, a board
on an old firmware, a deck not enrolled, a disk too full (its threshold raised past the free
space, ``host.min_free_mb``, rather than filling a real disk). A deck not checked at the
reader for longer than ``host.deck_check_days`` is a warning (``!``): the night can run.
"""

from __future__ import annotations

import time

import pytest
from tricktable.deckkit.decks import Registry
from tricktable.protocol import BoardStatus, encode
from upkit import TABLES, Up

pytestmark = pytest.mark.slow
SEATS = ("n", "e", "s", "w")


def report(up: Up, club: str = "club.toml") -> tuple[int, str]:
    done = up.command("doctor", "--club", str(up.tmp / club), "--data", str(up.data))
    return done.returncode, done.stdout + done.stderr


def failures(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("✗")]


def test_the_doctor_passes_a_ready_club_and_names_each_failure(tmp_path, topic_prefix):
    up = Up(tmp_path, topic_prefix, host_extra='firmware = "1.4"')
    try:
        def status(board: str, **changed) -> None:
            table, seat = board.split("-")
            fields = dict(online=True, fw="1.4", rssi=-55, readers=1, reads=[40], misses=[1])
            payload = encode(BoardStatus(**{**fields, **changed}))
            client = up.boards[table][SEATS.index(seat)].client
            client.publish(up.observer.topics.board_status(board), payload, qos=1,
                           retain=True).wait_for_publish(10)

        for table in TABLES:
            for seat in SEATS:
                status(f"{table}-{seat}")
        with Registry(tmp_path / "decks.sqlite") as registry:  # as `tricktable deck check`
            registry.record_check(1, ok=True)
            registry.record_check(100, ok=True, at=time.time() - 40 * 86400)
        code, text = report(up)
        assert (code, failures(text)) == (0, []), text
        assert "ready for the night" in text
        assert text.count("✓ board") == 8 and "✓ TV page" in text
        assert f"✓ TLS for the boards at mqtts://127.0.0.1:{up.tls_port} answers with the club's " \
               "certificate" in text
        assert "✓ deck 1 (t1, t2) enrolled, checked 0 days ago, whole" in text
        assert "! deck 100 (t1, t2) enrolled, checked 40 days ago: more than " \
               "host.deck_check_days (30): check it before the night: `tricktable deck " \
               "check --deck 100 ...`" in text  # a warning: the night can run

        status("t1-n", online=False)
        code, text = report(up)
        assert code == 1 and failures(text) == [
            "✗ board t1-n offline: power it on and check its Wi-Fi (its display shows the "
            "Wi-Fi and broker state while it connects)"], text
        status("t1-n")

        status("t2-e", fw="1.3")
        code, text = report(up)
        assert code == 1 and failures(text) == [
            "✗ board t2-e runs firmware 1.3: the club's is 1.4: `tricktable fleet update`"], text
        status("t2-e")

        club = (tmp_path / "club.toml").read_text()
        (tmp_path / "other-deck.toml").write_text(club.replace("deck = 1\n", "deck = 7\n"))
        code, text = report(up, "other-deck.toml")
        assert code == 1 and failures(text) == [
            "✗ deck 7 (t1, t2) not enrolled: `tricktable enroll --deck 7 ...` at the USB "
            "reader"], text

        (tmp_path / "full.toml").write_text(club + "min_free_mb = 1000000000\n")
        code, text = report(up, "full.toml")
        [full] = failures(text)
        assert code == 1 and "MB free: a night needs 1000000000 MB (host.min_free_mb): " \
            "free some space" in full, text

        assert up.stop() == 0
        code, text = report(up)
        assert code == 1, text
        assert failures(text)[0].startswith(f"✗ broker mqtt://127.0.0.1:{up.port}: it does "
                                            "not answer"), text
        assert f"✗ TLS for the boards at mqtts://127.0.0.1:{up.tls_port}: no TLS answer" in text
        assert "✗ TV page" in text and "✗ phones page" in text and "✗ console page" in text
    finally:
        up.close()
