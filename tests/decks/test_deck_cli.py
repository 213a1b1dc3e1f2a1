"""``tricktable enroll`` and ``tricktable deck`` run as a separate process against the PN532
emulator on a pseudo-terminal, while a "hand" thread taps the cards."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from contextlib import contextmanager

from deckkit import make_tags
from localuser import needs_nobody, nobody_python
from tricktable.deckkit import decks

CLI = [sys.executable, "-c", "from tricktable.cli import main; main()"]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True, timeout=120,
                          env={"COLUMNS": "100", "PATH": "/usr/bin:/bin",
                               **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"}})


def enrolled_in(registry: str):
    """A person's cue that the card is done: the enroller has stored it (its "ok")."""

    def done(tag) -> bool:
        try:
            with decks.Registry(registry, readonly=True) as reg:
                return reg.lookup(tag.uid) is not None
        except decks.RegistryError:  # not made yet
            return False

    return done


@contextmanager
def tapping(emulator, hand, done=None):
    """A person tapping each card until the block ends: holding it until ``done(tag)`` (an
    enroller's "ok": ``enrolled_in``), or else until the reader has polled it twice (a reader
    that only reads is done with it by then)."""
    stop = threading.Event()

    def tap():
        for tag in hand:
            start = tag.polls
            emulator.place(tag)
            while not (done(tag) if done else tag.polls >= start + 2) and not stop.wait(0.01):
                pass
            if stop.is_set():
                return
        emulator.remove()

    thread = threading.Thread(target=tap, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(5)
        emulator.remove()


def test_enroll_list_and_check_from_the_command_line(emulator, tmp_path):
    path = str(tmp_path / "decks.sqlite")
    hand = make_tags(24)
    with tapping(emulator, hand, enrolled_in(path)):
        done = run("enroll", "--deck", "12", "--kind", "24", "--name", "red backs",
                   "--port", emulator.port, "--registry", path, "--timeout", "5")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deck 12 (24) complete: 24 enrolled this time" in done.stdout
    assert f"ok AS  {hand[5].uid.hex()}" in done.stdout

    listed = run("deck", "list", "--registry", path)
    assert "red backs" in listed.stdout and "24/24" in listed.stdout

    with tapping(emulator, hand[2:]):
        checked = run("deck", "check", "--deck", "12", "--port", emulator.port,
                      "--registry", path, "--idle", "0.5")
    assert checked.returncode == 1
    assert "seen 22/24" in checked.stdout, checked.stdout
    assert "missing: 9S 10S" in checked.stdout
    with decks.Registry(path, readonly=True) as reg:  # kept for `tricktable doctor`
        last = reg.last_check(12)
        assert last is not None and last.ok is False


def test_enroll_stopped_early_says_what_is_left(emulator, tmp_path):
    path = str(tmp_path / "decks.sqlite")
    tokens = [slot.name for slot in decks.deck_slots("tokens")]
    with tapping(emulator, make_tags(len(tokens) - 2), enrolled_in(path)):
        done = run("enroll", "--deck", "3", "--kind", "tokens", "--port", emulator.port,
                   "--registry", path, "--timeout", "0.5")
    assert done.returncode == 1
    assert f"deck 3: 2 not enrolled yet ({', '.join(tokens[-2:])})" in done.stderr
    with decks.Registry(path) as reg:
        assert len(reg.enrolled(3)) == len(tokens) - 2


def test_bad_input_is_a_clear_error(emulator, tmp_path):
    path = str(tmp_path / "decks.sqlite")
    assert "Invalid value for '--kind'" in run("enroll", "--deck", "1", "--kind", "23", "--port",
                                               emulator.port, "--registry", path).stderr
    nothing = run("deck", "check", "--deck", "4", "--port", emulator.port, "--registry", path)
    assert nothing.returncode == 1 and "no deck registry at" in nothing.stderr
    decks.Registry(path).close()
    missing = run("deck", "check", "--deck", "4", "--port", emulator.port, "--registry", path)
    assert missing.returncode == 1 and "deck 4 is not enrolled here" in missing.stderr
    no_port = run("deck", "check", "--deck", "4", "--port", str(tmp_path / "nope"), "--registry", path)
    assert "cannot open" in no_port.stderr


def test_the_club_key_is_shown_and_imported(tmp_path):
    a, b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    key_id, key = run("deck", "key", "--registry", a).stdout.split()
    assert run("deck", "key", "--import", key_id, key, "--registry", b).returncode == 0
    assert run("deck", "key", "--registry", b).stdout.split() == [key_id, key]
    bad = run("deck", "key", "--import", key_id, "00" * 32, "--registry", b)
    assert bad.returncode == 1 and "different value" in bad.stderr


def test_the_club_key_is_imported_from_a_file_or_stdin_and_the_command_line_is_warned(tmp_path):
    a, b, c = (str(tmp_path / f"{n}.sqlite") for n in "abc")
    shown = run("deck", "key", "--registry", a).stdout
    (tmp_path / "key").write_text(shown)
    by_file = run("deck", "key", "--import-file", str(tmp_path / "key"), "--registry", b)
    assert by_file.returncode == 0 and by_file.stderr == "", by_file.stderr
    by_stdin = run("deck", "key", "--import-file", "-", "--registry", c, stdin=shown)
    assert by_stdin.returncode == 0, by_stdin.stderr
    for registry in (b, c):
        assert run("deck", "key", "--registry", registry).stdout == shown
    key_id, key = shown.split()
    loud = run("deck", "key", "--import", key_id, key, "--registry", c)
    assert loud.returncode == 0 and "shows in `ps`" in loud.stderr
    garbled = run("deck", "key", "--import-file", "-", "--registry", c, stdin=key)
    assert garbled.returncode == 1 and "expected one line `ID HEX`" in garbled.stderr


@needs_nobody
def test_another_user_does_not_see_the_imported_key_in_ps(tmp_path):
    shown = run("deck", "key", "--registry", str(tmp_path / "a.sqlite")).stdout
    importing = subprocess.Popen([*CLI, "deck", "key", "--import-file", "-", "--registry",
                                  str(tmp_path / "b.sqlite")], stdin=subprocess.PIPE, text=True)
    try:  # it waits on stdin for the key, its command line on show meanwhile
        seen = nobody_python(f"print(open('/proc/{importing.pid}/cmdline').read())").stdout
        assert "--import-file" in seen  # the control: nobody does read its command line
        assert shown.split()[1] not in seen
    finally:
        importing.communicate(shown, timeout=120)
    assert importing.returncode == 0


def test_out_of_order_card_asks_on_stdin(emulator, tmp_path):
    # deck 5 enrolled on host A; host B shares A's club key but not its registry, so the
    # records on the cards are what tells B which card is which
    a, b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    hand = make_tags(2)
    with tapping(emulator, hand, enrolled_in(a)):
        run("enroll", "--deck", "5", "--kind", "24", "--port", emulator.port, "--registry", a,
            "--timeout", "0.5")
    key_id, key = run("deck", "key", "--registry", a).stdout.split()
    run("deck", "key", "--import", key_id, key, "--registry", b)
    with tapping(emulator, [hand[1], hand[0]]):
        done = run("enroll", "--deck", "5", "--kind", "24", "--port", emulator.port,
                   "--registry", b, "--timeout", "0.5", stdin="r\n")
    assert "out of order: this card is 10S by its record, 9S was asked." in done.stdout
    assert f"ok 9S  {hand[0].uid.hex()}" in done.stdout
    assert done.returncode == 1 and "23 not enrolled yet (10S, JS" in done.stderr
