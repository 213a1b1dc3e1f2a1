"""`tricktable serve` with no --broker: one command runs a table on an embedded broker."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from hostkit import Board, Observer, token_uid
from tricktable.broker import free_port


def test_serve_runs_a_table_on_its_own_embedded_broker(tmp_path):
    port = free_port()
    command = [sys.executable, "-c", "from tricktable.cli import main; main()", "serve",
               "--port", str(port), "--journal", str(tmp_path / "j.sqlite")]
    env = {**os.environ, "TRICKTABLE_REGISTRY": str(tmp_path / "none.sqlite")}  # not enrolled
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    observer = board = None
    try:
        assert "serving 1 table(s)" in host.stdout.readline()
        observer = Observer(port, "tricktable")
        observer.wait_for(lambda t, p: t == "tricktable/v1/table/t1/state")
        board = Board(port, "tricktable", "t1-north")
        mark = observer.mark()
        board.tap(token_uid("DEAL"))
        _, verdict = observer.verdict("t1", mark)
        # the default table has no deck registry: the tag is refused, and says why
        assert (verdict.kind, verdict.code) == ("refused", "unknown_tag")
        assert "no deck registry" in verdict.reason
    finally:
        for client in (board, observer):
            if client is not None:
                client.close()
        host.send_signal(signal.SIGTERM)
        assert host.wait(15) == 0
        host.stdout.close()
        host.stderr.close()
