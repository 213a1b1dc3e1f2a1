"""The one error the club package raises for bad input (a clear sentence; nothing changed).

Imports nothing of ours."""


class ClubError(ValueError):
    """Bad input to a club night: the message says what and why; the night is unchanged."""
