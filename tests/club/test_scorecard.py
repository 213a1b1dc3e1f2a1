"""The end of the night: each player's scorecard and the results as CSV.

A scorecard is the player's tally (“Bid Euchre”, section “Bid euchre variations”,
"Progressive": "When the bell rings, players at each table finish their current hand and
record their team score on an individual tally") with the partner and the opponents named;
the results are "their tally sheets" totalled "to determine the high score and low score".
"""

from __future__ import annotations

import csv
import io

from tricktable.club import ProgressiveOptions, ProgressiveTournament
from tricktable.club.scorecard import ScorecardLine, results_csv, scorecards, scorecards_csv

PLAYERS = ["Ada", "Bea", "Cal", "Dot", "Eli", "Flo", "Gus", "Hal"]


def two_games() -> ProgressiveTournament:
    """Two tables, two hands a game, two games: the head table's N/S win both times."""
    night = ProgressiveTournament.new(PLAYERS, options=ProgressiveOptions(2, 2))
    night.record_hand(1, 4, -2)
    night.record_hand(1, 3, 1)   # table 1: A 7, B -1
    night.record_hand(2, -4, 6)  # table 2: A -4, B 6
    night.bell()
    night.record_hand(1, 5, 0)
    night.record_hand(1, 1, 2)   # A 6, B 2
    night.record_hand(2, 2, 3)   # A 2, B 3
    night.bell()
    return night


def test_a_scorecard_names_table_partner_opponents_and_score_of_every_game() -> None:
    night = two_games()
    cards = scorecards(night)
    assert list(cards) == PLAYERS
    first, second = cards["Ada"]
    assert first == ScorecardLine(game=1, table=1, seat="N", partner="Cal",
                                  opponents=("Bea", "Dot"), score=7, against=-1, won=True)
    # the head table's winners stay and split: Ada keeps N, Cal goes to E
    table = night.games[1].seating[0]
    assert table[0] == "Ada" and second.table == 1 and second.seat == "N"
    assert second.partner == table[2] and second.opponents == (table[1], table[3])
    assert (second.score, second.against, second.won) == (6, 2, True)
    flo = cards["Flo"][0]
    assert (flo.table, flo.seat, flo.partner, flo.opponents) == (2, "E", "Hal", ("Eli", "Gus"))
    assert (flo.score, flo.against, flo.won) == (6, -4, True)


def test_every_player_meets_the_same_game_from_the_other_side() -> None:
    cards = scorecards(two_games())
    for name, lines in cards.items():
        for line in lines:
            partner = next(p for p in cards[line.partner] if p.game == line.game)
            assert (partner.partner, partner.score, partner.opponents) == (
                name, line.score, line.opponents)
            for opponent in line.opponents:
                theirs = next(p for p in cards[opponent] if p.game == line.game)
                assert name in theirs.opponents and theirs.score == line.against


def read(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_results_csv_is_the_standings_with_a_column_per_game() -> None:
    night = two_games()
    rows = read(results_csv(night))
    assert rows[0] == ["rank", "player", "total", "won", "played", "mark", "game 1", "game 2"]
    assert rows[1] == ["1", "Ada", "13", "2", "2", "high", "7", "6"]
    totals = {r[1]: int(r[2]) for r in rows[1:]}
    assert totals == {name: sum(line.score for line in lines)
                      for name, lines in scorecards(night).items()}
    low = min(totals.values())
    assert {r[1] for r in rows[1:] if r[5] == "low"} == {n for n, t in totals.items() if t == low}


def test_before_the_first_bell_the_results_have_no_marks_and_no_games() -> None:
    rows = read(results_csv(ProgressiveTournament.new(PLAYERS)))
    assert rows[0][-1] == "mark" and len(rows) == 9
    assert all(r[2:] == ["0", "0", "0", ""] for r in rows[1:])


def test_the_scorecards_csv_has_one_row_per_player_and_game() -> None:
    rows = read(scorecards_csv(two_games()))
    assert rows[0] == ["player", "game", "table", "seat", "partner", "opponent", "opponent",
                       "score", "against", "result"]
    assert rows[1] == ["Ada", "1", "1", "N", "Cal", "Bea", "Dot", "7", "-1", "won"]
    assert len(rows) == 1 + len(PLAYERS) * 2


def test_a_name_a_spreadsheet_would_run_as_a_formula_is_written_as_text() -> None:
    night = ProgressiveTournament.new(["=SUM(A1)", "+Bo", "-Cy", "@Di"],
                                      options=ProgressiveOptions(1, 1))
    night.record_hand(1, 1, 0)
    night.bell()
    names = [r[1] for r in read(results_csv(night))[1:]]
    assert sorted(names) == ["'+Bo", "'-Cy", "'=SUM(A1)", "'@Di"]
    assert {r[0] for r in read(scorecards_csv(night))[1:]} == set(names)


def test_a_player_who_sat_out_has_a_bye_line_on_their_scorecard() -> None:
    # nine players at two tables: one sits out each game (a judgement call: the article is
    # silent on byes) and scores the game's average team score
    night = ProgressiveTournament.new([*PLAYERS, "Ivy"], options=ProgressiveOptions(1, 2))
    out = night.bench[0]
    night.record_hand(1, 4, 2)
    night.record_hand(2, 6, 0)
    night.bell()
    line = scorecards(night)[out][0]
    assert (line.table, line.seat, line.partner, line.opponents) == (0, "bye", "", ("", ""))
    assert line.score == 3  # (4 + 2 + 6 + 0) / 4
    rows = list(csv.reader(io.StringIO(scorecards_csv(night))))
    assert [out, "1", "0", "bye", "", "", "", "3"] == rows[[r[0] for r in rows].index(out)][:8]
    assert rows[[r[0] for r in rows].index(out)][-1] == "bye"


def test_a_late_arrivals_score_stands_under_the_game_they_played() -> None:
    night = ProgressiveTournament.new(PLAYERS, options=ProgressiveOptions(1, 2))
    night.arrive("Ivy")  # plays from game 2; nine players: one sits out game 2
    night.record_hand(1, 4, 2)
    night.record_hand(2, 6, 0)
    night.bell()
    night.record_hand(1, 3, 1)
    night.record_hand(2, 2, 5)
    night.bell()
    rows = list(csv.DictReader(io.StringIO(results_csv(night))))
    ivy = next(r for r in rows if r["player"] == "Ivy")
    assert ivy["game 1"] == ""
    assert ivy["game 2"] == str(night.tallies()["Ivy"][0].score)
