"""A Euchre club night, played by the demo on the real stack, goes out as EGN and EMN that the
EGN project's schemas accept (tests/egnschema.py), and comes back through ``tricktable
verify`` and ``replay``: EMN is "a meta-specification for representing [...] social club
sessions played by a common pool of players", its games "inline embedding of sub-EGN games",
"PROGRESSIVE: Rotating partner tournament; cumulative individual scoring"
(``docs/emn/match-specification.md``). A night of a game EGN cannot hold is refused in one
line.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from demo_runs import played_to_end
from egnschema import egn_errors, emn_errors
from tricktable.cli import main
from tricktable.club import load_night, standings
from tricktable.demo.runner import Demo, DemoConfig
from tricktable.players import ClubDB, Players


def night(tmp_path: Path, broker, prefix: str, variant: str, tables: int, rounds: int,
          hands: int) -> Demo:
    return played_to_end(DemoConfig(
        variant=variant, tables=tables, night=True, rounds=rounds, hands=hands, speed=0,
        web_port=None, seed=5, broker=f"mqtt://{broker.host}:{broker.port}", prefix=prefix,
        workdir=tmp_path), 240, f"the {variant} night")


def test_a_euchre_night_exports_as_valid_egn_and_emn_that_verify_reads(
        tmp_path: Path, mqtt_broker, topic_prefix: str) -> None:
    demo = night(tmp_path, mqtt_broker, topic_prefix, "euchre", tables=2, rounds=2, hands=2)
    runner = CliRunner()
    out = runner.invoke(main, ["export", str(demo.journal_path), "--format", "egn",
                               "--out", str(tmp_path / "egn")])
    assert out.exit_code == 0, out.output
    files = sorted((tmp_path / "egn").glob("*.egn"))
    assert len(files) >= 4  # the club file's first games, then two games of the night a table
    for path in files:
        assert egn_errors(json.loads(path.read_text())) == [], path.name

    kept = load_night(demo.night_path)
    with ClubDB(tmp_path / "club.sqlite") as db:  # two of the night's players are members
        members = {name: Players(db).add(name).id for name in kept.players[:2]}
    out = runner.invoke(main, ["export", str(demo.journal_path), "--format", "emn", "--night",
                               str(demo.night_path), "--club-db", str(tmp_path / "club.sqlite"),
                               "--out", str(tmp_path)])
    assert out.exit_code == 0, out.output
    path = tmp_path / "night.emn"
    doc = json.loads(path.read_text())
    assert emn_errors(doc) == []
    ids = {p["name"]: p["id"] for p in doc["metadata"]["players"]}
    assert set(ids) == set(kept.players)
    assert {p["name"]: p["playerIds"] for p in doc["metadata"]["players"] if "playerIds" in p} \
        == {name: [{"id": str(n), "source": "tricktable-club"}] for name, n in members.items()}
    assert doc["metadata"]["matchFormat"] == {"type": "PROGRESSIVE", "target": 2}
    assert doc["metadata"]["result"]["status"] == "COMPLETED"
    assert doc["metadata"]["result"]["scores"] == {
        ids[s.name]: s.total for s in standings(kept.tallies())}
    # each table's game of each game of the night, its seats N, E, S, W, its tallied hands
    seats = [[ids[p] for p in t] for g in kept.games for t in g.seating]
    assert [g["players"] for g in doc["games"]] == seats
    for entry, hands in zip(doc["games"], [h for g in kept.games for h in g.hands], strict=True):
        assert entry["gameData"]["metadata"]["ruleset"]["num_deals"] == \
            len(entry["gameData"]["deals"])
        assert sum(1 for d in entry["gameData"]["deals"] if len(d["phases"]) == 2) == len(hands)

    out = runner.invoke(main, ["verify", str(path)])
    assert out.exit_code == 0, out.output
    assert f"{len(doc['games'])} games, 0 difference(s)" in out.output
    out = runner.invoke(main, ["replay", str(path)])
    assert out.exit_code == 0 and out.output.count("\n== game ") == len(doc["games"])


def test_a_night_egn_cannot_hold_is_refused_in_one_line(
        tmp_path: Path, mqtt_broker, topic_prefix: str) -> None:
    demo = night(tmp_path, mqtt_broker, topic_prefix, "bid-euchre", tables=1, rounds=1, hands=1)
    out = CliRunner().invoke(main, ["export", str(demo.journal_path), "--format", "emn",
                                    "--night", str(demo.night_path)])
    assert out.exit_code == 1
    assert out.output == ("Error: EMN holds Euchre nights only; table t1 plays bid-euchre, "
                          "which EGN cannot express\n")
    out = CliRunner().invoke(main, ["export", str(demo.journal_path), "--format", "emn"])
    assert out.exit_code == 2 and "--format emn needs --night" in out.output
