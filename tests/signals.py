"""Child processes that Ctrl-C can stop, whatever the test runner inherited.

A shell that starts a command in the background without job control (``cmd &`` in a script,
as CI runners and ``nohup`` loops do) leaves SIGINT ignored for it and everything it starts,
and Python then installs no KeyboardInterrupt handler: a test that sends SIGINT to a child
would wait for ever. ``ctrl_c_default`` as a child's ``preexec_fn`` gives it the default
disposition back, as a terminal would.
"""

from __future__ import annotations

import signal


def ctrl_c_default() -> None:
    """In the child, before it starts: SIGINT does what Ctrl-C does at a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
