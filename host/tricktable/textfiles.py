"""Reading a text file a person gave us: UTF-8 (a byte-order mark is fine), or one clear line.

Every command that reads a players list, a night, a club file, a hand history or a password
reads it through :func:`read_text`, so a binary file, a Latin-1 file or a missing one is
refused the same way: ``{path} is not a {what}: not UTF-8 text (byte 3)``, never a
traceback, and the first line never starts with an invisible ``\\ufeff``.
"""

from __future__ import annotations

from pathlib import Path


class TextFileError(ValueError):
    """The file cannot be read as text; the message (one line) names it and says why."""


def read_text(path: str | Path, what: str) -> str:
    """The file's text; ``what`` names what it should be ("players file", "hand history")."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise TextFileError(f"no {what} at {path}") from None
    except IsADirectoryError:
        raise TextFileError(f"{path} is a directory, not a {what}") from None
    except OSError as exc:
        raise TextFileError(f"cannot read the {what} {path}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TextFileError(f"{path} is not a {what}: not UTF-8 text (byte {exc.start})") from None
    if "\x00" in text:
        raise TextFileError(f"{path} is not a {what}: it holds binary data") from None
    return text
