"""The people of the club in the club database: add, rename, merge, hide, tag.

A player is one row of ``players``; every name they have been known by is a row of
``names`` (keyed by the name casefolded), so a journal that says "bob" years later still
means them. **Rename** gives a new name and keeps the old one as a former name; **merge**
(one person typed twice) moves the second record's names and tags to the first and marks it
merged: statistics are kept by the names the journals carry and gathered per player when
read, so both keep their whole history and nothing needs recounting. **Hide** shows the player
as "Guest" on public pages while the club keeps the results. A name met in a journal that
nobody has entered is a new player (``player_for``). Member tags enrolled in the deck
registry are taken with ``import_member_tags``.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from tricktable.deckkit.decks import Registry
from tricktable.players.db import ClubDB, PlayersError

__all__ = ["Player", "Players", "GUEST", "name_key"]

GUEST = "Guest"
"""How a hidden player is shown on public pages."""


def name_key(name: str) -> str:
    """The key a name is kept under: stripped and casefolded."""
    return name.strip().casefold()


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    nickname: str
    active: bool
    hidden: bool
    names: tuple[str, ...]
    """Every name key this player is known by (the current one first)."""
    tags: tuple[str, ...]

    @property
    def public_name(self) -> str:
        """The name public pages show: ``Guest`` when hidden."""
        return GUEST if self.hidden else self.name


def _uid(text: str) -> str:
    uid = text.replace(":", "").replace(" ", "").upper()
    try:
        raw = bytes.fromhex(uid)
    except ValueError:
        raise PlayersError(f"a tag UID is hex bytes like 04A1B2C3D4E5F6, not {text!r}") from None
    if not 4 <= len(raw) <= 10:
        raise PlayersError(f"a tag UID has 4, 7 or 10 bytes, not {len(raw)} ({text!r})")
    return uid


class Players:
    """The players of one club database."""

    def __init__(self, db: ClubDB) -> None:
        self.db = db

    # --- reading -------------------------------------------------------------------------

    def all(self, *, merged: bool = False) -> list[Player]:
        """Every player by name (merged records only when asked)."""
        rows = self.db.query("SELECT id FROM players" + ("" if merged else
                             " WHERE merged_into IS NULL") + " ORDER BY name COLLATE NOCASE, id")
        return [self.get(pid) for (pid,) in rows]

    def get(self, pid: int) -> Player:
        row = self.db.query("SELECT id, name, nickname, active, hidden FROM players "
                            "WHERE id = ?", (pid,))
        if not row:
            raise PlayersError(f"no player number {pid}")
        pid, name, nickname, active, hidden = row[0]
        keys = [k for (k,) in self.db.query("SELECT key FROM names WHERE player = ? ORDER BY key",
                                            (pid,))]
        keys.sort(key=lambda k: k != name_key(name))
        tags = tuple(u for (u,) in self.db.query("SELECT uid FROM tags WHERE player = ? "
                                                "ORDER BY uid", (pid,)))
        return Player(pid, name, nickname, bool(active), bool(hidden), tuple(keys), tags)

    def find(self, who: str) -> Player:
        """The player called ``who`` now or before (any case), or numbered ``#N``/``N``;
        ``PlayersError`` when there is none."""
        text = who.strip().removeprefix("#")
        if text.isdigit():
            row = self.db.query("SELECT id FROM players WHERE id = ? AND merged_into IS NULL",
                                (int(text),))
            if row:
                return self.get(row[0][0])
        row = self.db.query("SELECT player FROM names WHERE key = ?", (name_key(who),))
        if not row:
            raise PlayersError(f"no player called {who.strip()!r} "
                               "(tricktable players list shows them)")
        return self.get(row[0][0])

    def by_tag(self, uid: str) -> Player | None:
        row = self.db.query("SELECT player FROM tags WHERE uid = ?", (_uid(uid),))
        return self.get(row[0][0]) if row else None

    def key_owners(self) -> dict[str, int]:
        """Every name key -> the player it belongs to."""
        return dict(self.db.query("SELECT key, player FROM names"))

    # --- changing ------------------------------------------------------------------------

    def add(self, name: str, nickname: str = "", tags: tuple[str, ...] = ()) -> Player:
        """A new player; refused when the name is anyone's, now or before."""
        clean = name.strip()
        if not clean:
            raise PlayersError("a player's name is empty")
        uids = [_uid(t) for t in tags]
        with self.db.transaction() as db:
            self._free(db, clean)
            pid = db.execute("INSERT INTO players (name, nickname) VALUES (?, ?)",
                             (clean, nickname.strip())).lastrowid
            db.execute("INSERT INTO names VALUES (?, ?, ?)", (name_key(clean), clean, pid))
            for uid in uids:
                self._tag(db, uid, int(pid))  # type: ignore[arg-type]
        return self.get(int(pid))  # type: ignore[arg-type]

    def player_for(self, name: str) -> int:
        """The id of the player a journal's name means, adding them when new."""
        row = self.db.query("SELECT player FROM names WHERE key = ?", (name_key(name),))
        return int(row[0][0]) if row else self.add(name).id

    def rename(self, who: str, new: str) -> Player:
        """``who`` is called ``new`` from now on; the old name stays theirs."""
        player = self.find(who)
        clean = new.strip()
        if not clean:
            raise PlayersError("a player's name is empty")
        with self.db.transaction() as db:
            owner = db.execute("SELECT player FROM names WHERE key = ?",
                               (name_key(clean),)).fetchone()
            if owner and owner[0] != player.id:
                raise PlayersError(f"{clean!r} is another player's name (merge them instead)")
            if not owner:
                db.execute("INSERT INTO names VALUES (?, ?, ?)",
                           (name_key(clean), clean, player.id))
            db.execute("UPDATE players SET name = ? WHERE id = ?", (clean, player.id))
        return self.get(player.id)

    def merge(self, keep: str, gone: str) -> Player:
        """``gone`` was ``keep`` typed twice: ``keep`` takes its names and tags."""
        kept, merged = self.find(keep), self.find(gone)
        if kept.id == merged.id:
            raise PlayersError(f"{keep!r} and {gone!r} are already the same player")
        with self.db.transaction() as db:
            db.execute("UPDATE names SET player = ? WHERE player = ?", (kept.id, merged.id))
            db.execute("UPDATE tags SET player = ? WHERE player = ?", (kept.id, merged.id))
            db.execute("UPDATE players SET merged_into = ?, active = 0 WHERE id = ?",
                       (kept.id, merged.id))
            db.execute("UPDATE players SET merged_into = ? WHERE merged_into = ?",
                       (kept.id, merged.id))
        return self.get(kept.id)

    def set_flags(self, who: str, *, active: bool | None = None, hidden: bool | None = None,
                  nickname: str | None = None) -> Player:
        player = self.find(who)
        with self.db.transaction() as db:
            if active is not None:
                db.execute("UPDATE players SET active = ? WHERE id = ?", (int(active), player.id))
            if hidden is not None:
                db.execute("UPDATE players SET hidden = ? WHERE id = ?", (int(hidden), player.id))
            if nickname is not None:
                db.execute("UPDATE players SET nickname = ? WHERE id = ?",
                           (nickname.strip(), player.id))
        return self.get(player.id)

    def tag(self, who: str, uid: str) -> Player:
        """Give ``who`` the member tag ``uid`` (refused when another player has it)."""
        player, clean = self.find(who), _uid(uid)
        with self.db.transaction() as db:
            self._tag(db, clean, player.id)
        return self.get(player.id)

    def untag(self, uid: str) -> Player:
        clean = _uid(uid)
        owner = self.by_tag(clean)
        if owner is None:
            raise PlayersError(f"no player has the tag {clean}")
        with self.db.transaction() as db:
            db.execute("DELETE FROM tags WHERE uid = ?", (clean,))
        return self.get(owner.id)

    @staticmethod
    def _free(db: sqlite3.Connection, name: str) -> None:
        row = db.execute("SELECT name, player FROM names WHERE key = ?",
                         (name_key(name),)).fetchone()
        if row:
            raise PlayersError(f"{name!r} is already a player's name (as {row[0]!r}, "
                               f"player {row[1]})")

    @staticmethod
    def _tag(db: sqlite3.Connection, uid: str, pid: int) -> None:
        row = db.execute("SELECT player FROM tags WHERE uid = ?",
                         (uid,)).fetchone()
        if row and row[0] != pid:
            raise PlayersError(f"the tag {uid} is player {row[0]}'s")
        if not row:
            db.execute("INSERT INTO tags VALUES (?, ?)", (uid, pid))

    def import_member_tags(self, registry: Registry) -> list[tuple[str, str]]:
        """Every member tag enrolled in the deck registry (``enroll --kind members``) given
        to its member here (added when new); returns the (name, UID) pairs that were new."""
        found: list[tuple[str, str]] = []
        for deck in registry.decks():
            if deck.kind != "members":
                continue
            names = registry.members(deck.deck_id)
            for uid, slot in sorted(registry.enrolled(deck.deck_id).items()):
                name = names.get(slot.copy)
                if name is None:
                    continue
                hexuid = uid.hex().upper()
                owner = self.by_tag(hexuid)
                if owner is None:
                    self.tag(str(self.player_for(name)), hexuid)
                    found.append((name, hexuid))
        return found
