"""The club broker's identities and ACL, generated in one place (board setup, `board acl`,
a club's own broker started by tricktable, the tests).

One MQTT user per program (``SERVICE_USERS``) and per board, each allowed the least it needs
(mqtt/mosquitto/acl.template); the broker binds each client id to its user (the shipped
mosquitto.conf's ``use_username_as_clientid``, on each listener), so a board's password cannot
take another client's session. A board
id may not be a program's user name (``check_board_id``). Each board reads only its own
table's display: ``acl_text(prefix, {board: table})`` adds one block per board below the
template's rules (for a phone reader, the lines that let the scoreboard relay its plays); ``ensure_acl`` writes or updates a club's ACL file for one board, atomically.
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
BOARD_BLOCK = re.compile(r"^user (\S+)\ntopic read \S+/v1/table/[^/\s]+/display\n", re.M)


class BrokerFileError(RuntimeError):
    """A password or ACL file that cannot be used; the message names the file and why."""


def check_board_id(board: str) -> None:
    """Refuse a board id that is a program's user name (or could become one)."""
    if board.startswith(RESERVED_PREFIX):
        raise BrokerFileError(
            f"board id {board!r}: names starting with {RESERVED_PREFIX!r} are the programs' "
            f"broker users ({', '.join(SERVICE_USERS)}); give the board another id")


def board_block(prefix: str, board: str, table: str) -> str:
    """The ACL lines that let ``board`` read ``table``'s display, and nothing of other tables."""
    return f"user {board}\ntopic read {prefix}/v1/table/{table}/display\n"


def phone_block(prefix: str, reader: str) -> str:
    """The ACL lines that let the scoreboard relay a paired phone's plays as ``reader`` (its
    event and its status), and no board's: a phone reader is not a broker user."""
    return (f"user {WEB_USER}\ntopic write {prefix}/v1/board/{reader}/event\n"
            f"topic write {prefix}/v1/board/{reader}/status\n")


def acl_text(prefix: str, boards: Mapping[str, str] | None = None,
             template: Path = ACL_TEMPLATE) -> str:
    """The club's ACL for topics under ``prefix``, with a block per board (board -> table)."""
    text = template.read_text().replace("tricktable/v1/", f"{prefix}/v1/")
    for board, table in sorted((boards or {}).items()):
        check_board_id(board)
        phone = phone_reader_seat(board, table) is not None
        text += "\n" + (phone_block(prefix, board) if phone else board_block(prefix, board, table))
    return text


def boards_of(text: str) -> dict[str, str]:
    """The board -> table blocks of an ACL text."""
    return {m.group(1): m.group(0).split("/v1/table/")[1].split("/")[0]
            for m in BOARD_BLOCK.finditer(text)}


def ensure_acl(path: Path, prefix: str, board: str | None = None, table: str | None = None,
               template: Path = ACL_TEMPLATE) -> bool:
    """Write the club's ACL if there is none (True); else check it serves boards under
    ``prefix`` with client ids bound to users. Either way, ``board`` (when given) reads
    ``table``'s display and no other table's."""
    needed = f"pattern write {prefix}/v1/board/%u/event"
    created = not path.exists()
    text = acl_text(prefix, template=template) if created else path.read_text()
    if needed not in text.splitlines():
        raise BrokerFileError(f"ACL {path} has no line '{needed}': boards of prefix {prefix!r} "
                              f"could not publish (see {template.name})")
    lines = text.splitlines()
    if "user tricktable-fleet" not in lines or f"pattern read {prefix}/v1/table/+/display" in lines:
        raise BrokerFileError(f"ACL {path} is an older one (no fleet user, or every board reads "
                              f"every table): rewrite it with `tricktable board acl`")
    if board is not None and table is not None:
        boards = boards_of(text)
        boards[board] = table
        text = BOARD_BLOCK.sub("", text).rstrip("\n") + "\n"
        for name, where in sorted(boards.items()):
            text += "\n" + board_block(prefix, name, where)
    write_private(path, text, keep_mode=True)
    return created
