"""A whole progressive night through the real stack ("Bid Euchre", section "Bid euchre
variations", "Progressive"): mosquitto (or the embedded broker), the host service keeping the
night (``tricktable serve --night``'s ``club.live``), virtual seat and display boards running
the firmware, and bots who find their seats on the tables' displays. No score is typed.

Checked afterwards from the journal: every tally is the hands the tables scored, the
movement is the rules' ("The losing team at the head table moves to the tail table;
otherwise, the winning team at each table advances to the next table, and one member of the
losing team changes seat so that partners in one game are opponents in the next game"), and
the seating the host pushed is what each display board showed and where each player sat.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import httpx
from click.testing import CliRunner
from tricktable.cli import main
from tricktable.club import SEATS, load_night, standings
from tricktable.club.journal_hands import hands_from_game
from tricktable.club.movement import pair
from tricktable.club.signs import parse_move_line
from tricktable.club.tournament import ProgressiveTournament
from tricktable.demo.runner import Demo, DemoConfig
from tricktable.engine.actions import action_from_json
from tricktable.history import load, verify
from tricktable.serve.journal import Journal
from tricktable.web.server import Scoreboard
from waiting import eventually

TABLES, ROUNDS, HANDS = 3, 3, 2


def journal_hands(journal: Journal, table: str, game: int) -> list[tuple[int, int]]:
    record = next(g for g in journal.games(table) if g.game == game)
    return hands_from_game(record.setup, [action_from_json(a) for a in record.actions])


def test_a_whole_night_plays_itself_on_the_live_tables(tmp_path: Path) -> None:
    demo = Demo(DemoConfig(tables=TABLES, night=True, rounds=ROUNDS, hands=HANDS, speed=0,
                           web_port=0, seed=4, workdir=tmp_path))
    demo.start()
    try:
        assert demo.wait(timeout=240), "the night did not finish"
        eventually(lambda: httpx.get(f"{demo.web_url}/api/standings").json()["finished"],
                   "the scoreboard showing the finished night")
        view = httpx.get(f"{demo.web_url}/api/standings").json()
        room = demo.room
        assert room is not None
        screens = {board.id: board.screen for board in room.displays}
    finally:
        demo.stop()
    night = load_night(demo.night_path)
    assert night.finished and len(night.games) == ROUNDS
    # every display board shows the end of the night
    assert all(s is not None and s.lines[:1] == ["NIGHT OVER"] for s in screens.values())

    # every tally is the hands the tables scored, read again from the journal: game 1 at
    # each table was the club file's; game n of the night is the tables' game n + 1
    with Journal(demo.journal_path, readonly=True) as journal:
        scored = [[journal_hands(journal, f"t{t}", g + 1) for t in range(1, TABLES + 1)]
                  for g in range(1, ROUNDS + 1)]
    for game, tables in zip(night.games, scored, strict=True):
        assert len(game.hands[0]) == HANDS  # "The lead table plays eight hands" (here 2)
        for number, (kept, hands) in enumerate(zip(game.hands, tables, strict=True), 1):
            where = f"game {game.number} of the night, table {number}"
            # a hand after the bell does not count; only the hand in play when it rang is scored
            assert list(kept) == hands[:len(kept)], f"{where}: the tally is not the journal's"
            assert len(hands) - len(kept) <= 1, \
                f"{where} played {len(hands)} hands and kept {len(kept)}: it went on after the bell"
    sheets = night.tallies()
    for game, tables in zip(night.games, scored, strict=True):
        for number, (seating, hands) in enumerate(zip(game.seating, tables, strict=True), 1):
            kept = hands[:len(game.hands[number - 1])]
            a, b = sum(h[0] for h in kept), sum(h[1] for h in kept)
            for team, mine, theirs in (("A", a, b), ("B", b, a)):
                for name in pair(seating, team):
                    entry = sheets[name][game.number - 1]
                    assert (entry.table, entry.score, entry.against) == (number, mine, theirs)
    assert [r["name"] for r in view["standings"]] == [s.name for s in standings(sheets)]

    # the movement, replayed by the rules from the same hands and the director's tie calls
    replay = ProgressiveTournament([list(t) for t in night.games[0].seating], night.options)
    for game in night.games:
        assert replay.seating == list(game.seating)
        for number, hands in enumerate(game.hands, 1):
            replay.set_hands(number, hands)
        replay.bell(game.decided)
    for before, after in pairwise(night.games):
        winners = dict(enumerate(before.winners, 1))
        head = before.seating[0]
        losers = set(pair(head, "B" if winners[1] == "A" else "A"))
        assert losers <= set(after.seating[-1])  # the head table's losers go to the tail
        for number in range(2, TABLES + 1):
            moved = set(pair(before.seating[number - 1], winners[number]))
            assert moved <= set(after.seating[number - 2])  # the winners advance one table
        partners = {frozenset(pair(t, team)) for t in before.seating for team in "AB"}
        assert not partners & {frozenset(pair(t, team)) for t in after.seating for team in "AB"}

    # the pushed seating: each player read their seat on a display board and sat there; the
    # first game's from any table's display, later games' from the table they had just left
    assert {(game, name) for game, name, _b, _l in room.seen} == \
        {(g, name) for g in range(1, ROUNDS + 1) for name in night.players}
    for game, name, board, lines in room.seen:
        seating = night.games[game - 1].seating
        moves = [parse_move_line(line) for line in lines]
        assert None not in moves and len(moves) == 4
        number, seat = next((n, SEATS[table.index(name)]) for n, table in
                            enumerate(seating, 1) if name in table)
        assert (name.upper(), number, seat) in moves
        if game > 1:  # the board of the table the player left lists that table's players
            left = next(t for t in night.games[game - 2].seating if name in t)
            assert board == f"t{night.games[game - 2].seating.index(left) + 1}-display"
            assert [m[0] for m in moves if m] == [p.upper() for p in left]

    # the night's hand histories: game n of the night is t{table}-game{n} with [Round "n"]
    # and the night's players; the club file's game each table started with, in which nobody
    # played (the night replaced it), is no game to export
    for extra in ([], ["--night", str(demo.night_path)]):
        out = tmp_path / f"export{len(extra)}"
        result = CliRunner().invoke(main, ["export", str(demo.journal_path), "--out", str(out),
                                           *extra])
        assert result.exit_code == 0, result.output
        assert sorted(p.name for p in out.iterdir()) == sorted(
            f"t{t}-game{g}.txt" for t in range(1, TABLES + 1) for g in range(1, ROUNDS + 1))
        for game in night.games:
            for number, seating in enumerate(game.seating, 1):
                record = load(str(out / f"t{number}-game{game.number}.txt"))
                assert record.tags["Round"] == str(game.number)
                assert record.players == list(seating)
                assert verify(record) == []


def test_demo_night_is_one_flag_with_its_rounds_and_hands() -> None:
    out = CliRunner().invoke(main, ["demo", "--help"])
    assert out.exit_code == 0
    assert "--night" in out.output and "--rounds" in out.output and "--hands" in out.output
    bad = CliRunner().invoke(main, ["demo", "--night", "--hands", "0", "--no-view"])
    assert bad.exit_code == 2 and "--hands" in bad.output


def test_the_demo_night_ends_pointing_at_the_results_and_the_tv(tmp_path: Path,
                                                                 mqtt_broker) -> None:
    """The summary names the pages that show the night again, and the web serves each."""
    out = CliRunner().invoke(main, ["demo", "--night", "--tables", "1", "--rounds", "1",
                                    "--hands", "1", "--speed", "0", "--port", "0", "--seed", "4",
                                    "--no-view", "--workdir", str(tmp_path)])
    assert out.exit_code == 0, out.output
    [night] = re.findall(r"tricktable web --night (\S+), then open", out.output)
    pages = re.findall(r"^  (/\w+) ", out.output, re.MULTILINE)
    assert {"/results", "/tv", "/standings"} <= set(pages), out.output
    board = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, night=Path(night))
    board.start()
    try:
        for page in pages:
            assert httpx.get(board.url + page).status_code == 200, page
    finally:
        board.stop()


def test_the_demo_director_does_each_correction_once_and_the_night_still_ends(
        tmp_path: Path) -> None:
    """``--director``: a score fixed, a hand voided, a card and a bid corrected, a swap, a
    substitute, an arrival, the bell rung, undone and rung again, each through the night's
    own commands while the bots play; the bots follow (a bot for the substitute and the late
    arrival), the night plays to its end, and the summary names each correction."""
    # four games, not the three every correction fits in: at speed 0 on a loaded machine the
    # players can move before the bell rung by hand is undone, and the director rings it again
    # in a later game that is not the last (seen at 8 workers beside two CPU burners)
    out = CliRunner().invoke(main, ["demo", "--night", "--director", "--tables", "3",
                                    "--rounds", "4", "--hands", "3", "--speed", "0",
                                    "--port", "0", "--seed", "3", "--no-view",
                                    "--workdir", str(tmp_path)])
    assert out.exit_code == 0, out.output
    for label in ("a hand's score fixed", "a hand voided", "a card corrected", "a bid corrected",
                  "two players swapped", "a substitute for a player who left", "a late arrival",
                  "the bell rung by hand", "the bell undone", "the bell rung again"):
        assert label in out.output, label
    assert "→ not changed" not in out.output, out.output  # done, not a refusal in the log
    assert "the night ended: 4 of 4 games played" in out.output
    assert re.search(r"broker mqtt://127\.0\.0\.1:\d+", out.output), out.output
    assert "tricktable console --broker mqtt://" in out.output
    [run] = [p for p in tmp_path.iterdir() if p.name.startswith("run-")]
    night = load_night(run / "night.json")
    assert "Yan" in night.players and "Zoe" in night.players  # they played
    assert any("Zoe" in t for g in night.games[1:] for t in g.seating) or \
        any("Zoe" in g.bench for g in night.games[1:])


def test_a_night_too_short_for_every_correction_is_refused_before_it_starts(
        tmp_path: Path) -> None:
    """``--director`` with two games of two hands cannot ring the bell by hand with hands
    left: the demo says so at once, before a night is played, in one line."""
    out = CliRunner().invoke(main, ["demo", "--night", "--director", "--tables", "2",
                                    "--rounds", "2", "--hands", "2", "--speed", "0",
                                    "--port", "0", "--no-view", "--workdir", str(tmp_path)])
    assert out.exit_code != 0
    assert "needs --hands 3 or more and --rounds 3 or more" in out.output, out.output
    assert not any(p.name.startswith("run-") for p in tmp_path.iterdir())  # nothing played
