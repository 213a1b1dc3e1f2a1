"""What real nights need beyond the article: byes, late arrivals, substitutions, ending early and
undoing a bell. “Bid Euchre”, section “Progressive” plays ten games of full tables and says
nothing of any of these: every rule here is the club's judgement call, documented in
docs/club.md ("Byes", "Late arrivals", "Substitutions", "Ending early", "Undoing a bell")."""

from __future__ import annotations

import random

import pytest
from club_sim import play_game
from tricktable.club import ClubError, ProgressiveOptions, ProgressiveTournament, standings
from tricktable.club.store import night_from_json, night_to_json

NAMES = [f"P{i:02d}" for i in range(16)]


def night_of(count: int, **options) -> ProgressiveTournament:
    return ProgressiveTournament.new(NAMES[:count], options=ProgressiveOptions(
        hands_per_round=2, **options))


def head_plays(night: ProgressiveTournament, *hands: tuple[int, int]) -> None:
    """The head table's hands (to the bell) and one hand (3, 1) at every other table."""
    for hand in hands:
        night.record_hand(1, *hand)
    for number in range(2, night.tables + 1):
        night.record_hand(number, 3, 1)


def seated(night: ProgressiveTournament) -> set[str]:
    return {n for table in night.seating for n in table}


def reloaded(night: ProgressiveTournament) -> ProgressiveTournament:
    again = night_from_json(night_to_json(night))
    assert night_to_json(again) == night_to_json(night)
    assert again.tallies() == night.tallies() and again.seating == night.seating
    return again


# --- byes --------------------------------------------------------------------------------

def test_thirteen_players_seat_three_tables_and_one_sits_out():
    night = night_of(13)
    assert night.tables == 3 and night.bench == ["P12"]


def test_the_bye_rotates_so_nobody_sits_out_twice_before_everyone_has_once():
    night = night_of(13, rounds=13)
    out = []
    while not night.finished:
        out.extend(night.bench)
        head_plays(night, (2, 1), (2, 1))
        night.bell()
    assert sorted(out) == NAMES[:13]   # 13 games: each player sat out exactly once


def test_fourteen_players_two_sit_out_and_every_game_has_full_tables():
    night = night_of(14, rounds=4)
    while not night.finished:
        assert len(seated(night)) == 12 and len(night.bench) == 2
        assert seated(night) | set(night.bench) == set(NAMES[:14])
        head_plays(night, (1, 0), (1, 0))
        night.bell()


def test_a_bye_scores_the_average_team_score_of_its_game_by_default():
    night = night_of(9)     # two tables, P08 sits out
    head_plays(night, (4, 1), (2, 0))    # table 1: A 6, B 1; table 2: A 3, B 1
    night.bell()
    entry = night.tallies()["P08"][0]
    assert (entry.table, entry.seat, entry.score, entry.won, entry.bye) == (0, "bye", 3, False,
                                                                            True)
    # (6 + 1 + 3 + 1) / 4 = 2.75, rounded half up: 3


def test_a_bye_scores_zero_when_the_club_chooses_so():
    night = night_of(9, bye_score="zero")
    head_plays(night, (4, 1), (2, 0))
    night.bell()
    assert night.tallies()["P08"][0].score == 0


def test_a_bye_is_not_a_game_played_in_the_standings():
    night = night_of(9)
    head_plays(night, (4, 1), (2, 0))
    night.bell()
    row = next(r for r in standings(night.tallies()) if r.name == "P08")
    assert (row.total, row.played, row.won) == (3, 0, 0)


def test_the_bye_score_option_is_checked():
    with pytest.raises(ClubError, match="a bye scores average or zero, not 'half'"):
        ProgressiveOptions(bye_score="half")


@pytest.mark.parametrize("players", [5, 9, 13, 15])
def test_whole_nights_with_byes_every_player_has_one_line_a_game(players):
    night = ProgressiveTournament.new(NAMES[:players])
    rng = random.Random(players)
    ledger = dict.fromkeys(night.players, 0)
    while not night.finished:
        play_game(night, rng, ledger)
    for sheet in night.tallies().values():
        assert [e.round for e in sheet] == list(range(1, 11))
    byes = sum(e.bye for sheet in night.tallies().values() for e in sheet)
    assert byes == 10 * (players % 4)
    reloaded(night)


# --- late arrivals -------------------------------------------------------------------------

def test_a_late_arrival_joins_from_the_next_game():
    night = night_of(12)
    assert night.arrive("  Zoe ") == "Zoe"
    assert "Zoe" not in seated(night) and night.arriving == ["Zoe"]
    head_plays(night, (1, 0), (1, 0))
    night.bell()
    assert "Zoe" in seated(night) and len(night.bench) == 1   # 13 now: somebody sits out
    head_plays(night, (1, 0), (1, 0))
    night.bell()
    assert [e.round for e in night.tallies()["Zoe"]] == [2]   # no line for the game missed
    reloaded(night)


def test_four_late_arrivals_fill_the_byes():
    night = night_of(13)
    for name in ("W", "X", "Y"):
        night.arrive(name)
    head_plays(night, (1, 0), (1, 0))
    night.bell()
    assert len(night.bench) == 4 and {"W", "X", "Y", "P12"} & seated(night) == {"P12", "W",
                                                                                 "X", "Y"}


@pytest.mark.parametrize(("name", "message"), [
    ("P03", "'P03' is already at the night"),
    ("p03", "'p03' is already at the night"),
    ("", "a player's name is empty"),
])
def test_an_arrival_already_here_or_nameless_is_refused(name, message):
    night = night_of(12)
    before = night_to_json(night)
    with pytest.raises(ClubError, match=message):
        night.arrive(name)
    assert night_to_json(night) == before


# --- substitutions -------------------------------------------------------------------------

def test_a_substitute_takes_the_seat_and_the_game_goes_on_the_substitutes_tally():
    night = night_of(8)
    night.record_hand(1, 2, 0)
    assert night.substitute("P00", "Sue") == ("P00", "Sue")
    assert night.seating[0][0] == "Sue" and night.left == ["P00"]
    night.record_hand(1, 1, 0)
    night.record_hand(2, 0, 1)
    night.bell()
    sheets = night.tallies()
    assert sheets["P00"] == [] and sheets["Sue"][0].score == 3 and sheets["Sue"][0].seat == "N"
    reloaded(night)


def test_a_player_sitting_out_can_take_a_seat_of_one_who_leaves():
    night = night_of(9)
    night.substitute("P05", "P08")
    assert night.bench == [] and "P08" in seated(night) and night.left == ["P05"]


def test_a_player_who_left_comes_back_as_a_late_arrival():
    night = night_of(8)
    night.substitute("P01", "Sue")
    assert night.arrive("p01") == "P01"
    head_plays(night, (1, 0), (1, 0))
    night.bell()
    assert "P01" in seated(night) and night.left == []
    assert night.players.count("P01") == 1


@pytest.mark.parametrize(("out", "incoming", "message"), [
    ("Nobody", "Sue", "'Nobody' is not at the night"),
    ("P00", "P01", "'P01' is already at the night"),
    ("P08", "Zed", None),   # a bye leaving: the substitute sits out in their place
])
def test_substitutions_are_checked(out, incoming, message):
    night = night_of(9)
    before = night_to_json(night)
    if message is None:
        night.substitute(out, incoming)
        assert night.bench == ["Zed"]
        return
    with pytest.raises(ClubError, match=message):
        night.substitute(out, incoming)
    assert night_to_json(night) == before


# --- ending early ------------------------------------------------------------------------------

def test_ending_after_the_bell_makes_the_last_bell_the_end():
    night = night_of(8)
    for _ in range(3):
        head_plays(night, (1, 0), (1, 0))
        night.bell()
    assert night.end() == 3
    assert night.finished and night.last_round == 3 and night.options.rounds == 10
    with pytest.raises(ClubError, match="the night is over: all 3 games are played"):
        night.record_hand(1, 1, 0)
    assert len(reloaded(night).games) == 3


def test_ending_during_a_game_makes_it_the_last_one():
    night = night_of(8)
    head_plays(night, (1, 0))
    assert night.end() == 1 and not night.finished
    night.record_hand(1, 2, 0)
    before = [list(t) for t in night.seating]
    night.bell()
    assert night.finished and [list(t) for t in night.seating] == before  # nobody moves
    reloaded(night)


def test_a_night_without_a_hand_cannot_end():
    night = night_of(8)
    with pytest.raises(ClubError, match="no hand has been played tonight"):
        night.end()
    assert night.ended is None


# --- undoing a bell ----------------------------------------------------------------------------

def test_undoing_the_bell_takes_back_the_movement_and_the_tallies():
    night = night_of(9)
    night.arrive("Zoe")
    head_plays(night, (1, 0), (1, 0))
    before = night_to_json(night)
    night.bell()
    night.arrive("Yan")
    game = night.unbell()
    assert game.number == 1 and night.round == 1 and night.table_score(1) == (2, 0)
    assert night.arriving == ["Zoe", "Yan"] and all(s == [] for s in night.tallies().values())
    night.changes.pop()         # Yan arrived after the bell: the rest is the night before it
    night.arriving.pop()
    assert night_to_json(night) == before
    night.undo_hand(1)          # a score typed wrong: fixed, and the bell rung again
    night.record_hand(1, 0, 3)
    night.bell()
    assert night.games[0].winners[0] == "B"


def test_a_bell_is_not_undone_once_the_next_game_has_hands():
    night = night_of(8)
    head_plays(night, (1, 0), (1, 0))
    night.bell()
    night.record_hand(2, 1, 0)
    before = night_to_json(night)
    with pytest.raises(ClubError, match="table 2 already recorded hands of game 2"):
        night.unbell()
    assert night_to_json(night) == before


def test_undoing_the_last_bell_of_the_night_reopens_it():
    night = night_of(8, rounds=1)
    head_plays(night, (1, 0), (1, 0))
    night.bell()
    assert night.finished
    night.unbell()
    assert not night.finished and night.hands_left() == 0


def test_no_bell_no_undo():
    with pytest.raises(ClubError, match="no bell has rung tonight"):
        night_of(8).unbell()


# --- the night file --------------------------------------------------------------------------

def test_an_older_night_file_without_the_new_keys_still_loads():
    old = {"format": "tricktable-club-night/1", "options": {"hands_per_round": 2, "rounds": 3},
           "first_seating": [NAMES[:4]], "games": [{"hands": [[[1, 0], [1, 0]]],
                                                    "decided": {}}], "hands": [[]]}
    night = night_from_json(old)
    assert night.round == 2 and night.bench == [] and night.options.bye_score == "average"


def test_a_hand_edited_change_that_breaks_a_rule_is_refused_with_the_game_named():
    night = night_of(8)
    night.substitute("P00", "Sue")
    data = night_to_json(night)
    data["changes"].append(["substitute", "P00", "Tom"])
    with pytest.raises(ClubError, match="the current game: 'P00' is not at the night"):
        night_from_json(data)
    data["changes"][-1] = ["leave", "P02"]
    with pytest.raises(ClubError, match=r"a change is \[\"arrive\", NAME\]"):
        night_from_json(data)


def test_a_night_cannot_end_at_a_bell_after_which_someone_arrived():
    night = night_of(8)
    head_plays(night, (1, 0), (1, 0))
    night.bell()
    night.arrive("Zoe")
    before = night_to_json(night)
    with pytest.raises(ClubError, match="arrived, were substituted or moved after the bell of game 1"):
        night.end()
    assert night_to_json(night) == before


# --- the director's seat and swap -------------------------------------------------------------

def test_the_director_swaps_two_players_and_the_tallies_follow_the_seats_at_the_bell():
    night = night_of(9)
    assert night.swap("P00", "p05") == ("P00", "P05")
    assert night.seating[0][0] == "P05" and night.seating[1][1] == "P00"
    assert night.seat("P08", 1, "E") == ("P08", "P01")    # from the bye to table 1 East
    assert night.bench == ["P01"] and night.seating[0][1] == "P08"
    head_plays(night, (2, 0), (2, 0))
    night.bell()
    sheets = night.tallies()
    assert (sheets["P05"][0].table, sheets["P05"][0].seat) == (1, "N")
    assert sheets["P01"][0].bye and sheets["P08"][0].seat == "E"
    reloaded(night)


@pytest.mark.parametrize(("call", "message"), [
    (lambda n: n.swap("P00", "P00"), "P00 cannot change places with themselves"),
    (lambda n: n.swap("P00", "Nobody"), "'Nobody' is not seated or sitting out"),
    (lambda n: n.seat("P00", 3, "N"), "there is no table 3"),
    (lambda n: n.seat("P00", 1, "X"), "a seat is N, E, S, W, not 'X'"),
])
def test_bad_swaps_are_refused_and_change_nothing(call, message):
    night = night_of(9)
    before = night_to_json(night)
    with pytest.raises(ClubError, match=message):
        call(night)
    assert night_to_json(night) == before


def test_a_bell_is_not_undone_after_a_swap_in_the_next_game():
    night = night_of(8)
    head_plays(night, (1, 0), (1, 0))
    night.bell()
    night.swap("P00", "P01")
    with pytest.raises(ClubError, match="substituted or moved in game 2, after the bell"):
        night.unbell()
