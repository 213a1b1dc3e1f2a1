"""The progressive movement and the bell, rule by rule: “Bid Euchre” (wiki markup), Bid euchre
variations, "Progressive" (the same paragraph is in “Bid Euchre”'s plain text)."""

from __future__ import annotations

import pytest
from tricktable.club import ClubError, ProgressiveOptions, ProgressiveTournament, move
from tricktable.club.store import night_to_json

THREE = [("a1", "b1", "a2", "b2"), ("c1", "d1", "c2", "d2"), ("e1", "f1", "e2", "f2")]


def where(seating, name):
    """(table number, seat index) of ``name``."""
    for t, table in enumerate(seating, 1):
        if name in table:
            return t, table.index(name)
    raise AssertionError(name)


def partner(seating, name):
    t, seat = where(seating, name)
    return seating[t - 1][(seat + 2) % 4]


def test_losing_team_at_head_table_moves_to_tail_table():
    # “Bid Euchre”, section “Progressive”: "The losing team at the head table moves to the tail table"
    after = move(THREE, ["A", "A", "A"])
    assert where(after, "b1")[0] == 3 and where(after, "b2")[0] == 3


def test_winning_team_at_each_other_table_advances_to_the_next_table():
    # “Bid Euchre”, section “Progressive”: "otherwise, the winning team at each table advances to the next table"
    after = move(THREE, ["B", "A", "B"])
    assert {where(after, n)[0] for n in ("c1", "c2")} == {1}
    assert {where(after, n)[0] for n in ("f1", "f2")} == {2}


def test_head_table_winners_stay_and_other_losers_stay():
    # “Bid Euchre”, section “Progressive”: only the head losers and the other tables' winners move
    after = move(THREE, ["A", "B", "A"])
    assert {where(after, n)[0] for n in ("a1", "a2")} == {1}
    assert {where(after, n)[0] for n in ("c1", "c2")} == {2}
    assert {where(after, n)[0] for n in ("f1", "f2")} == {3}


def test_losing_team_changes_seat_so_partners_become_opponents():
    # “Bid Euchre”, section “Progressive”: "one member of the losing team changes seat so that partners in
    # one game are opponents in the next game"; the fixed rule (docs/club.md): of a N/S pair
    # N keeps the seat and S moves to E; of an E/W pair E keeps the seat and W moves to S
    after = move(THREE, ["A", "B", "A"])
    assert after[1][:2] == ("c1", "c2")                          # table 2 lost as N/S
    assert after[2][1:3] == ("f1", "f2")                         # table 3 lost as E/W
    assert partner(after, "c1") != "c2" and partner(after, "f1") != "f2"


def test_seat_rule_in_full_for_both_pairs():
    # docs/club.md: the arrivals take the two free seats, the one who sat N or E first
    after = move(THREE, ["A", "B", "A"])
    assert after[0] == ("a1", "a2", "d1", "d2")   # head winners split; table 2's winners arrive
    assert after[1] == ("c1", "c2", "e1", "e2")   # table 2's losers split; table 3's winners
    assert after[2] == ("b2", "f1", "f2", "b1")   # tail's losers split; head losers take W, N


def test_everyone_changes_partner_at_every_table():
    # “Bid Euchre”, section “Progressive”: "partners in one game are opponents in the next game"
    for winners in (["A", "A", "A"], ["B", "B", "B"], ["A", "B", "A"], ["B", "A", "B"]):
        after = move(THREE, winners)
        for table in THREE:
            for seat, name in enumerate(table):
                assert partner(after, name) != table[(seat + 2) % 4]


def test_one_table_splits_both_pairs():
    # “Bid Euchre”, section “Progressive”, with a single table: the head table is also the tail
    assert move([("n", "e", "s", "w")], ["A"]) == [("n", "s", "e", "w")]


def night_with(players: int = 12, **options) -> ProgressiveTournament:
    return ProgressiveTournament.new([f"P{i}" for i in range(players)],
                                     options=ProgressiveOptions(**options))


def test_bell_rings_after_the_head_table_has_played_eight_hands():
    # “Bid Euchre”, section “Progressive”: "The lead table plays eight hands [...] then rings the bell"
    night = night_with()
    assert night.options.hands_per_round == 8
    for _ in range(7):
        night.record_hand(1, 1, 0)
    with pytest.raises(ClubError, match="7 of its 8 hands"):
        night.bell()
    night.record_hand(1, 1, 0)
    with pytest.raises(ClubError, match="hand 9 belongs to the next game"):
        night.record_hand(1, 1, 0)
    night.record_hand(2, 1, 0)
    night.record_hand(3, 0, 2)
    assert night.bell().winners == ("A", "A", "B")


def test_other_tables_finish_their_current_hand_whatever_their_count():
    # “Bid Euchre”, section “Progressive”: "players at each table finish their current hand"
    night = night_with(8)
    for _ in range(8):
        night.record_hand(1, 1, 0)
    for _ in range(11):
        night.record_hand(2, 0, 1)
    assert night.bell().hands[1] == ((0, 1),) * 11


def test_team_score_goes_on_each_players_individual_tally():
    # “Bid Euchre”, section “Progressive”: "record their team score on an individual tally"
    night = night_with(8)
    for _ in range(8):
        night.record_hand(1, 2, -5)
    night.record_hand(2, 3, 4)
    night.bell()
    tallies = night.tallies()
    assert [(e.score, e.against, e.won, e.partner, e.seat) for e in tallies["P0"]] == \
        [(16, -40, True, "P2", "N")]
    assert [(e.score, e.won) for e in tallies["P3"]] == [(-40, False)]
    assert [(e.score, e.against, e.won, e.table) for e in tallies["P5"]] == [(4, 3, True, 2)]


def test_night_ends_after_ten_games():
    # “Bid Euchre”, section “Progressive”: "After 10 games, players total their tally sheets"
    night = night_with(8, hands_per_round=1)
    assert night.options.rounds == 10
    for _ in range(10):
        night.record_hand(1, 1, 0)
        night.record_hand(2, 1, 0)
        night.bell()
    assert night.finished and night.round == 11
    with pytest.raises(ClubError, match="night is over"):
        night.record_hand(1, 1, 0)
    with pytest.raises(ClubError, match="night is over"):
        night.bell()


def test_a_tied_table_needs_its_winner_named_and_a_refused_bell_changes_nothing():
    # the seed is silent on ties: the organiser names the winner (docs/club.md)
    night = night_with(8, hands_per_round=1)
    night.record_hand(1, 1, 1)
    night.record_hand(2, 2, 0)
    before = night_to_json(night)
    with pytest.raises(ClubError, match="table 1 is tied 1-1"):
        night.bell()
    with pytest.raises(ClubError, match="table 2 is not tied"):
        night.bell({1: "B", 2: "A"})
    with pytest.raises(ClubError, match="team A or B, not 'C'"):
        night.bell({1: "C"})
    with pytest.raises(ClubError, match="no table 5"):
        night.bell({5: "A"})
    assert night_to_json(night) == before
    assert night.bell({1: "B"}).winners == ("B", "A")


@pytest.mark.parametrize(("call", "message"), [
    (lambda n: n.record_hand(0, 1, 1), "no table 0"),
    (lambda n: n.record_hand(4, 1, 1), "no table 4"),
    (lambda n: n.record_hand(1, 1.5, 1), "two whole numbers"),
    (lambda n: n.record_hand(1, True, 1), "two whole numbers"),
    (lambda n: n.set_hands(2, [(1, 2, 3)]), "two whole numbers"),
    (lambda n: n.undo_hand(1), "table 1 has no hand recorded"),
])
def test_bad_scores_are_refused_and_change_nothing(call, message):
    night = night_with()
    night.record_hand(2, 3, 1)
    before = night_to_json(night)
    with pytest.raises(ClubError, match=message):
        call(night)
    assert night_to_json(night) == before


@pytest.mark.parametrize(("players", "tables", "message"), [
    (3, None, "3 players cannot fill a table of four"),
    (0, None, "0 players"),
    (12, 2, "12 players fill 3 tables, not 2"),
    (10, 3, "10 players fill 2 tables with 2 sitting out each game, not 3"),
])
def test_a_night_needs_a_full_table(players, tables, message):
    with pytest.raises(ClubError, match=message):
        ProgressiveTournament.new([f"P{i}" for i in range(players)], tables)


def test_options_are_checked():
    with pytest.raises(ClubError, match="hands_per_round must be a whole number"):
        ProgressiveOptions(hands_per_round=0)
    with pytest.raises(ClubError, match="rounds must be"):
        ProgressiveOptions(rounds="10")  # type: ignore[arg-type]
