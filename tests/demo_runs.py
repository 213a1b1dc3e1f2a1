"""A demo played to its end with its web page off, for the tests that read what it left
behind: the night file, the journal, the players database."""

from __future__ import annotations

from tricktable.demo.runner import Demo, DemoConfig


def played_to_end(config: DemoConfig, timeout: float, what: str) -> Demo:
    """Run ``config``'s demo until it finishes (``what``, e.g. "the euchre night", names it in
    the failure) and stop it; the stopped demo, for its paths."""
    demo = Demo(config)
    demo.start()
    try:
        assert demo.wait(timeout=timeout), f"{what} did not finish"
    finally:
        demo.stop()
    return demo
