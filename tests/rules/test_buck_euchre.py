"""Buck Euchre / Dirty Clubs: each test names the passage of “Bid Euchre”, "Bid euchre
variations > Buck euchre" (Play, Scoring), that it checks."""

from __future__ import annotations

import pytest
from tricktable.engine import Engine
from tricktable.engine.actions import Bid, DeclareTrump, Pass, SitOut
from variantkit import finish, ok, play_out, random_chooser, random_game, refused, table

# Dealer seat 0. Seat 1 holds five hearts; seat 2 five clubs; AS JD 9H JC are undealt.
HANDS = ["9S 10S JS QS KS", "JH AH KH QH 10H", "9C 10C QC KC AC", "9D 10D QD KD AD"]


@pytest.mark.parametrize("players,size", [(3, 20), (4, 24), (5, 28), (6, 32)])
def test_deck_grows_with_the_players(players: int, size: int) -> None:
    """Buck euchre: 'the 10, J, Q, K, and A of each suit (three players), with lower cards
    (9, 8, 7, etc.) added if necessary for more players'; 'three to six players'."""
    eng = Engine.new("buck-euchre", n_players=players)
    assert eng.state.deck.size == size and eng.state.hand_size == 5
    assert eng.public_state()["partnerships"] is None


def test_dirty_clubs_means_no_bidding() -> None:
    """Play: 'If this face-up card is a club - this is called dirty clubs - there is no
    bidding and clubs are automatic trumps'; 'Play begins with the player to the left of the
    dealer.'"""
    eng = table("buck-euchre", HANDS, up="JC")
    assert eng.phase == "play" and eng.public_state()["trump"] == "C" and eng.to_act == 1
    refused(eng, Pass(1), "wrong_phase")
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [1, 0, 4, 0]
    assert eng.state.scores == [14, 15, 11, 15]


def test_high_bidder_calls_trump_and_dealers_left_leads() -> None:
    """Play: 'The high bidder gets to call trump. Play begins with the player to the left of
    the dealer.' Scoring: 'Each player subtracts the number of tricks taken'."""
    eng = table("buck-euchre", HANDS, up="AS")
    ok(eng, Pass(1), Bid(2, "4"), Pass(3), Pass(0), DeclareTrump(2, "C"))
    assert eng.to_act == 1
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [1, 0, 4, 0]
    assert eng.state.scores == [14, 15, 11, 15]


def test_high_bidder_short_of_the_bid_adds_five() -> None:
    """Scoring: 'If he fails to take this many tricks, instead of subtracting points, he must
    add five to his score.'"""
    eng = table("buck-euchre", HANDS, up="AS")
    ok(eng, Pass(1), Bid(2, "5"), Pass(3), Pass(0), DeclareTrump(2, "C"))
    finish(eng)
    assert eng.state.scores == [14, 15, 20, 15]


def test_one_round_of_bids_by_default_and_an_optional_second() -> None:
    """Play: 'The bid can go around a second time, giving players the chance to raise their
    bid.'"""
    eng = table("buck-euchre", HANDS, up="AS")
    ok(eng, Bid(1, "2"), Pass(2), Pass(3), Pass(0))
    assert eng.phase == "trump"
    eng = table("buck-euchre", HANDS, up="AS", options={"second_round": True})
    ok(eng, Bid(1, "2"), Pass(2), Pass(3), Pass(0))
    assert eng.phase == "bidding"
    ok(eng, Bid(1, "3"), Bid(2, "4"), Pass(3), Pass(0))
    assert eng.phase == "trump" and eng.to_act == 2


def test_nobody_bids() -> None:
    """Scoring: 'Another variation is that if the call goes all the way around without a bid,
    there is no trump, and players do not get a chance to drop out.' Default: the deal
    passes (judgement)."""
    eng = table("buck-euchre", HANDS, up="AS")
    ok(eng, Pass(1), Pass(2), Pass(3), Pass(0))
    assert eng.phase == "deal" and eng.state.dealer == 1
    eng = table("buck-euchre", HANDS, up="AS",
                options={"all_pass": "no_trump", "bump_no_tricks": True})
    ok(eng, Pass(1), Pass(2), Pass(3), Pass(0))
    assert eng.phase == "play" and eng.public_state()["trump"] == "NT"


def test_bump_and_drop_out() -> None:
    """Scoring: 'a player who takes no tricks is bumped (penalized) five points ... the players
    are usually given a chance to drop out after trump is called. A player who drops out
    cannot be penalized, but also cannot take any tricks.'"""
    eng = table("buck-euchre", HANDS, up="AS", options={"bump_no_tricks": True})
    ok(eng, Bid(1, "3"), Pass(2), Pass(3), Pass(0), DeclareTrump(1, "H"))
    assert eng.phase == "sitout" and eng.to_act == 2
    ok(eng, SitOut(2, True), SitOut(3, False), SitOut(0, False))
    assert eng.to_act == 1
    finish(eng)
    assert eng.state.last_hand["tricks_won"] == [0, 5, 0, 0]
    assert eng.state.scores == [20, 10, 15, 20]


def test_first_to_zero_wins() -> None:
    """Scoring: 'The goal is to get to zero.'"""
    eng = table("buck-euchre", HANDS, up="AS", scores=[15, 15, 3, 15])
    ok(eng, Pass(1), Bid(2, "4"), Pass(3), Pass(0), DeclareTrump(2, "C"))
    finish(eng)
    assert eng.state.game_over and eng.state.winner == 2 and eng.state.scores[2] == -1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_complete_game(players: int) -> None:
    """'The game is played by three to six players': whole games end with a player at zero."""
    eng, hands = random_game("buck-euchre", players, players)
    assert eng.state.game_over and min(eng.state.scores) <= 0
    assert eng.state.scores[eng.state.winner] == min(eng.state.scores)
    assert all(sum(h["tricks_won"]) == 5 for h in hands)


def test_hands_with_every_option_score_consistently() -> None:
    """Scoring with the bump, drop-out, second round and no-trump options on."""
    opts = {"bump_no_tricks": True, "second_round": True, "all_pass": "no_trump"}
    eng = Engine.new("buck-euchre", options=opts, seed=3, n_players=5)
    hands = play_out(eng, random_chooser(3), max_hands=30)
    assert hands and all(sum(h["tricks_won"]) == 5 for h in hands)
