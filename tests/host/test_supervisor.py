"""The supervisor under ``tricktable up`` (docs/appliance.md): every line of every part in
one log, a part that dies is started again (1 s, then 2 s while it keeps dying young) and the
log says so (a part's ``prepare`` runs before each start, and its failure is a start that
failed), and stopping ends every part, one that ignores SIGTERM by SIGKILL after the
grace period; and the parts end with a supervisor killed alone (SIGKILL), by Linux's
parent-death signal. The parts after a required one that ended start again together once it is
back, and each is started once, named in the state file (``up.json``) by the process that runs.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tricktable.appliance.supervisor import Log, Part, Supervisor
from waiting import eventually


def python(code: str) -> list[str]:
    return [sys.executable, "-u", "-c", code]


@contextmanager
def supervised(parts: list[Part], log: Log, folder: Path) -> Iterator[Supervisor]:
    """``parts`` run by a supervisor in a thread of its own (its state ``folder/up.json``)
    for the ``with`` block; then it is stopped (every part ends) and ``log`` closed."""
    supervisor = Supervisor(parts, log, folder / "up.json", grace=1.0)
    stop = threading.Event()
    runner = threading.Thread(target=supervisor.run, args=(stop,))
    runner.start()
    try:
        yield supervisor
    finally:
        stop.set()
        runner.join(30)
        log.close()


def test_a_dying_part_is_started_again_and_every_part_stops_with_the_tree(tmp_path):
    log = Log(tmp_path / "up.log")
    prepared: list[int] = []

    def prepare() -> None:  # as up writes the broker's files: the first time, it cannot
        prepared.append(1)
        if len(prepared) == 1:
            raise RuntimeError("no files yet")

    parts = [
        Part("steady", python("import time; print('steady up'); time.sleep(600)"),
             ready_line="steady up"),
        Part("dying", python("print('dying up'); raise SystemExit(3)")),
        Part("stubborn", python("import signal, time; signal.signal(signal.SIGTERM, "
                                "signal.SIG_IGN); print('stubborn up'); time.sleep(600)"),
             ready_line="stubborn up"),
        Part("prepared", python("import time; print('prepared up'); time.sleep(600)"),
             prepare=prepare),
    ]
    text = lambda: (tmp_path / "up.log").read_text()  # noqa: E731
    with supervised(parts, log, tmp_path):
        eventually(lambda: "dying started again (restart 2)" in text()
                   and "prepared: prepared up" in text(), "two restarts, a part prepared")
        state = json.loads((tmp_path / "up.json").read_text())
        assert set(state["parts"]) == {"steady", "dying", "stubborn", "prepared"}
    lines = text()
    assert "steady: steady up" in lines and "dying: dying up" in lines
    for pause in (1, 2):  # a second at a load of 16 is young too: "after 0 s" or "1 s"
        assert re.search(rf"dying exited \(status 3\) after [01] s; starting it again in "
                         rf"{pause} s", lines), lines
    assert "stubborn did not stop within 1 s; killing it" in lines
    assert "cannot start prepared: no files yet" in lines and len(prepared) == 2
    assert lines.rstrip().endswith("up: every part stopped")
    assert not (tmp_path / "up.json").exists()


def test_the_parts_end_when_the_supervisor_alone_is_killed(tmp_path):
    script = (
        "import sys, threading; from pathlib import Path\n"
        "from tricktable.appliance.supervisor import Log, Part, Supervisor\n"
        f"folder = Path({str(tmp_path)!r})\n"
        "part = Part('sleeper', [sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        "Supervisor([part], Log(folder / 'up.log'), folder / 'up.json').run(threading.Event())\n")
    supervisor = subprocess.Popen([sys.executable, "-c", script])
    try:
        pid = eventually(lambda: (tmp_path / "up.json").exists() and json.loads(
            (tmp_path / "up.json").read_text())["parts"].get("sleeper"), "the part started")
        supervisor.send_signal(signal.SIGKILL)
        supervisor.wait(15)
        eventually(lambda: not alive(pid), "the part ending with its supervisor")
    finally:
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait()


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def logged(path: Path) -> str:
    """The log's text, or nothing in the instant it is being rotated."""
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""


def test_a_part_printing_without_end_cannot_fill_the_disk_with_the_log(tmp_path):
    """The log is rotated by size while up runs, not only when it starts: a part that
    prints without pause leaves at most two files of about the limit, the owner's only."""
    limit = 64 * 1024
    log = Log(tmp_path / "up.log", rotate_bytes=limit)
    chatty = Part("chatty", python("import itertools\nfor n in itertools.count():\n"
                                   "    print(f'line {n} ' + 'x' * 90)"))
    def printed() -> int:  # the last line number the log holds (the files keep turning)
        text = logged(tmp_path / "up.log.1") + logged(tmp_path / "up.log")
        return max((int(n) for n in re.findall(r"chatty: line (\d+) ", text)), default=0)

    with supervised([chatty], log, tmp_path):
        eventually(lambda: printed() >= 20000, "20,000 lines (about 2 MB) printed",
                   timeout=120)
    files = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("up.log"))
    assert files == ["up.log", "up.log.1"]
    for name in files:
        path = tmp_path / name
        assert path.stat().st_size <= limit + 200, (name, path.stat().st_size)
        assert oct(path.stat().st_mode & 0o777) == "0o600", name


def test_the_parts_held_behind_a_required_part_start_again_together_once_each(tmp_path):
    """When the broker comes back, every part held behind it passes its gate in the same
    instant and is started at once: each is started once (no start that failed, no second copy
    of a part left running untracked), and the state file names the process each part runs."""
    log = Log(tmp_path / "up.log")
    sleeper = python("import time; time.sleep(600)")
    held = [f"part{n}" for n in range(12)]
    parts = [Part("broker", sleeper, required=True), *(Part(name, sleeper) for name in held)]
    text = lambda: (tmp_path / "up.log").read_text()  # noqa: E731
    with supervised(parts, log, tmp_path) as supervisor:
        eventually(lambda: set(supervisor.pids()) == {"broker", *held}, "every part started")
        for restart in (1, 2, 3):
            os.kill(supervisor.pids()["broker"], signal.SIGKILL)
            again = [f"{name} started again (restart {restart})" for name in held]
            eventually(lambda again=again: all(line in text() for line in again),
                       f"every held part started again ({restart})", timeout=60)
            state = json.loads((tmp_path / "up.json").read_text())["parts"]
            assert state == supervisor.pids(), text()
            assert all(alive(pid) for pid in state.values()), text()
    lines = text()
    assert "cannot start" not in lines, lines
    for name in held:
        assert lines.count(f"up: {name} started") == 4, lines


def test_a_state_file_that_cannot_be_written_leaves_the_part_started_and_watched(tmp_path):
    """A full disk, here a folder where the state file's new copy goes: the log says the
    state was not written, and the part that was started runs on, one copy, still watched."""
    (tmp_path / "up.json.new").mkdir()
    log = Log(tmp_path / "up.log")
    part = Part("steady", python("import time; print('steady up'); time.sleep(600)"),
                ready_line="steady up")
    text = lambda: (tmp_path / "up.log").read_text()  # noqa: E731
    with supervised([part], log, tmp_path) as supervisor:
        first = eventually(lambda: "steady: steady up" in text() and supervisor.pids()["steady"],
                           "the part started")
        os.kill(first, signal.SIGKILL)
        eventually(lambda: "steady started again (restart 1)" in text(), "the part watched")
        assert alive(supervisor.pids()["steady"])
    lines = text()
    assert "up: cannot write up.json: [Errno 21] Is a directory" in lines, lines
    assert "cannot start" not in lines and lines.count("up: steady started") == 2, lines
