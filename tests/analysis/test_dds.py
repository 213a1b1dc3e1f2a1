"""The double-dummy solver agrees with DDS (Bo Haglund's solver, the field's reference, from
PyPI's ``endplay``) on bridge deals: the ``spades`` variant with ``breaking_spades`` off
plays bridge's card play, every strain through the variant's ordering
(``analysis.positions.bridge``). DDS knows bridge only, so this checks the search itself
(the table, the partition search, the sure tricks, the ordering) on the hands it was built
for, as a second oracle beside the plain minimax of test_solver.py, which cannot reach
13-card hands."""

import random

from endplay import _dds
from endplay.dds import calc_dd_table
from endplay.types import Deal, Denom, Player
from tricktable.analysis.positions import STRAINS, bridge, bridge_table, pbn
from tricktable.analysis.solver import Solver


def _dds_tricks(cp) -> int:
    """DDS's tricks for the side to play (SolveBoard: target -1, one solution)."""
    dl = Deal(pbn(cp))
    dl.first, dl.trump = Player(cp.to_play), Denom(STRAINS.index(_strain(cp)))
    fut = _dds.futureTricks()
    _dds.SolveBoard(dl._data, -1, 1, 1, fut, 0)
    return fut.score[0]


def _strain(cp) -> str:
    return "NT" if cp.order.trump is None else "SHDC"[int(cp.order.trump)]


def test_endings_agree_with_dds_in_every_strain():
    """Forty endings of 5 to 9 cards each (the rest of the pack gone), each strain, the
    leader going round: the side on lead takes what DDS says."""
    for seed in range(40):
        cards = random.Random(seed).randint(5, 9)
        for strain in STRAINS:
            cp = bridge(seed, strain, seed % 4, cards=cards)
            ours = Solver(cp).tricks(cp.side_of[cp.to_play])
            assert ours == _dds_tricks(cp), f"deal {seed} ({cards} cards) in {strain}"


def test_full_deals_agree_with_dds_in_every_strain():
    """Whole 13-card deals, each strain, the declarer's left-hand opponent leading (each
    search on its own, no table shared)."""
    for seed in range(10, 13):
        for strain in STRAINS:
            cp = bridge(seed, strain, (seed + 1) % 4)
            ours = Solver(cp).tricks(cp.side_of[cp.to_play])
            assert ours == _dds_tricks(cp), f"deal {seed} in {strain}"


def test_a_full_table_agrees_with_dds():
    """The 5x4 table of two whole deals (20 searches each, the leaders of a strain sharing
    tables) is DDS's CalcDDtable."""
    for seed in range(2):
        assert bridge_table(seed) == calc_dd_table(Deal(pbn(bridge(seed, "NT", 0)))).to_list(), \
            f"deal {seed}"
