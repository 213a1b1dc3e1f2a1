"""The club broker's identities and ACL, generated in one place (board setup, `board acl`,
a club's own broker started by tricktable, the tests).

One MQTT user per program (``SERVICE_USERS``) and per board, each allowed the least it needs
(mqtt/mosquitto/acl.template); the broker binds each client id to its user (the shipped
mosquitto.conf's ``use_username_as_clientid``, on each listener), so a board's password cannot
take another client's session. A board
id may not be a program's user name (``check_board_id``). Each board reads only its own
table's display: ``acl_text(prefix, {board: table})`` adds one block per board below the
template's rules, with the board's own topics (no ``pattern`` lines: they apply to every
user), and for a phone reader the lines that let the scoreboard relay its plays;
``ensure_acl`` writes or updates a club's ACL file for one board, atomically.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from tricktable.packaged import mosquitto_dir
from tricktable.protocol import phone_reader_seat
from tricktable.secretfiles import write_private

ACL_TEMPLATE = mosquitto_dir() / "acl.template"
# The programs' users, and what each is for (mqtt/mosquitto/acl.template says what each may).
SERVICE_USERS = {
    "tricktable-host": "tricktable serve",
    "tricktable-web": "tricktable web (the public scoreboard: reads only)",
    "tricktable-watch": "tricktable watch, tricktable cardtime (reads only)",
    "tricktable-admin": "tricktable web --admin-token",
    "tricktable-director": "tricktable console",
    "tricktable-fleet": "tricktable fleet update",
    "tricktable-league": "tricktable league send (its ACL lines: docs/league.md)",
}
WEB_USER = "tricktable-web"  # relays the phones' plays (web.pad_relay)
RESERVED_PREFIX = "tricktable-"  # kept for the programs, now and later
# A board's block: its user line and topic lines (a program's user starts with the prefix).
BOARD_BLOCK = re.compile(r"^user (?!tricktable-)(\S+)\n(?:topic [^\n]*\n)+", re.M)
DISPLAY = re.compile(r"/v1/table/([^/\s]+)/display$", re.M)
# What a board may do on its own topics (with its table's display, board_block).
BOARD_TOPICS = (("write", "event"), ("readwrite", "status"), ("read", "ack"),
                ("read", "feedback"), ("read", "config"), ("read", "update/#"),
                ("write", "fetch"))


class BrokerFileError(RuntimeError):
    """A password or ACL file that cannot be used; the message names the file and why."""


def check_board_id(board: str) -> None:
    """Refuse a board id that is a program's user name (or could become one)."""
    if board.startswith(RESERVED_PREFIX):
        raise BrokerFileError(
            f"board id {board!r}: names starting with {RESERVED_PREFIX!r} are the programs' "
            f"broker users ({', '.join(SERVICE_USERS)}); give the board another id")


def board_block(prefix: str, board: str, table: str | None) -> str:
    """The ACL lines of ``board``: its own topics, and ``table``'s display (none of other
    tables', nor any other board's). Each board has a block of its own: mosquitto's
    ``pattern`` lines apply to every user, so a program's user could then speak as a board
    of its own name."""
    lines = [f"user {board}"]
    lines += [f"topic {access} {prefix}/v1/board/{board}/{topic}" for access, topic in BOARD_TOPICS]
    if table is not None:
        lines.append(f"topic read {prefix}/v1/table/{table}/display")
    return "\n".join(lines) + "\n"


def phone_block(prefix: str, reader: str) -> str:
    """The ACL lines that let the scoreboard relay a paired phone's plays as ``reader`` (its
    event and its status), and no board's: a phone reader is not a broker user."""
    return (f"user {WEB_USER}\ntopic write {prefix}/v1/board/{reader}/event\n"
            f"topic write {prefix}/v1/board/{reader}/status\n")


def acl_text(prefix: str, boards: Mapping[str, str | None] | None = None,
             template: Path = ACL_TEMPLATE) -> str:
    """The club's ACL for topics under ``prefix``, with a block per board (board -> table)."""
    text = template.read_text().replace("tricktable/v1/", f"{prefix}/v1/")
    for board, table in sorted((boards or {}).items()):
        check_board_id(board)
        phone = phone_reader_seat(board, table) is not None
        text += "\n" + (phone_block(prefix, board) if phone else board_block(prefix, board, table))
    return text


def boards_of(text: str) -> dict[str, str | None]:
    """The board -> table (None: no display) blocks of an ACL text."""
    found: dict[str, str | None] = {}
    for block in BOARD_BLOCK.finditer(text):
        display = DISPLAY.search(block.group(0))
        found[block.group(1)] = display.group(1) if display else None
    return found


def ensure_acl(path: Path, prefix: str, board: str | None = None, table: str | None = None,
               template: Path = ACL_TEMPLATE) -> bool:
    """Write the club's ACL if there is none (True); else check it serves boards under
    ``prefix`` with client ids bound to users. Either way, ``board`` (when given) gets its
    block: its own topics, and ``table``'s display (when given) and no other table's."""
    created = not path.exists()
    text = acl_text(prefix, template=template) if created else path.read_text()
    lines = text.splitlines()
    if not any(f" {prefix}/v1/" in line for line in lines if line.startswith("topic ")):
        raise BrokerFileError(f"ACL {path} has no topic under {prefix}/v1/: it serves another "
                              f"prefix (see {template.name})")
    if "user tricktable-fleet" not in lines or any(line.startswith("pattern ") for line in lines):
        raise BrokerFileError(f"ACL {path} is an older one (no fleet user, or `pattern` lines, "
                              f"which apply to every user): rewrite it with `tricktable board acl`")
    if board is not None:
        boards = boards_of(text)
        boards[board] = table if table is not None else boards.get(board)
        text = BOARD_BLOCK.sub("", text).rstrip("\n") + "\n"
        for name, where in sorted(boards.items()):
            text += "\n" + board_block(prefix, name, where)
    write_private(path, text, keep_mode=True)
    return created
