"""``tricktable stats rebuild`` reads every night's journal again and gives byte-identical
exports to what the live (incremental) path counted; a merge or a rename keeps a player's
history; a night's hand records are one file of hand histories that verify."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from seasoning import VARIANTS, SeasonedClub
from tricktable.cli import main
from tricktable.history import read_text, verify
from tricktable.players import ClubDB, Players
from tricktable.serve.journal import Journal
from tricktable.stats import Stats
from tricktable.stats.export import csv_exports, split_records
from tricktable.stats.follow import StatsFollower


def export(db: Path, out: Path) -> dict[str, bytes]:
    result = CliRunner().invoke(main, ["stats", "--db", str(db), "export", str(out)])
    assert result.exit_code == 0, result.output
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def test_a_rebuild_from_the_journals_gives_byte_identical_exports(
        seasoned: SeasonedClub, tmp_path: Path) -> None:
    db = seasoned.copy_db(tmp_path)
    live = export(db, tmp_path / "live")
    rebuilt = CliRunner().invoke(main, ["stats", "--db", str(db), "rebuild"])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "rebuilt from 3 night(s)" in rebuilt.output
    again = export(db, tmp_path / "rebuilt")
    assert sorted(live) == ["hands.csv", "night_results.csv", "nights.csv", "partnerships.csv",
                            "players.csv", "ratings.csv", "revokes.csv", "seasons.csv",
                            "stats.csv"]
    for name in live:
        assert live[name] == again[name], f"{name} differs after the rebuild"
    assert live["hands.csv"].count(b"\n") > 24 and live["ratings.csv"].count(b"\n") > 8


def test_every_night_is_closed_with_its_results_and_every_player_is_rated(
        seasoned: SeasonedClub) -> None:
    with ClubDB(seasoned.db, readonly=True) as db:
        stats = Stats(db)
        assert [n.name for n in stats.nights()] == list(VARIANTS)
        assert all(n.closed for n in stats.nights())
        players = stats.players.all()
        assert len(players) == 8
        for player in players:
            ratings = stats.ratings(player)
            assert [r["name"] for r in ratings] == list(VARIANTS)
            assert all(r["sigma"] < 25 / 3 for r in ratings), "sigma shrinks as games are rated"


def test_a_merge_and_a_rename_keep_the_history_without_a_recount(
        seasoned: SeasonedClub, tmp_path: Path) -> None:
    with ClubDB(seasoned.copy_db(tmp_path)) as db:
        stats = Stats(db)
        players = Players(db)
        ann, bob = players.find("Ann"), players.find("Bob")
        before = {f: dict(c) for f, c in stats.counts(ann).items()}
        bob_before = stats.counts(bob)
        players.rename("Ann", "Ann Baker")
        assert stats.counts(players.find("Ann Baker")) == before
        merged = players.merge("Ann Baker", "Bob")  # as if Bob had been Ann typed twice
        both = stats.counts(merged)
        for family, counts in before.items():
            assert both[family]["hands"] == counts["hands"] + bob_before[family]["hands"]
        stats.rerate()
        assert csv_exports(stats)["players.csv"].count("Ann Baker") == 1


def test_a_nights_hand_records_are_one_file_of_hand_histories_that_verify(
        seasoned: SeasonedClub, tmp_path: Path) -> None:
    out = tmp_path / "euchre-night.txt"
    result = CliRunner().invoke(main, ["stats", "--db", str(seasoned.db), "hands", "euchre",
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    games = split_records(out.read_text())
    assert len(games) >= 4  # two tables, two games of the night each
    for text in games:
        record = read_text(text, "euchre-night.txt")
        assert record.tags["Event"] == "euchre"
        assert verify(record) == []


def test_bad_input_to_the_stats_commands_is_refused(seasoned: SeasonedClub,
                                                     tmp_path: Path) -> None:
    db = str(seasoned.copy_db(tmp_path))
    run = CliRunner().invoke
    missing = run(main, ["stats", "--db", db, "hands", "no-such-night"])
    assert missing.exit_code == 1 and "no night called 'no-such-night'" in missing.output
    journal, night = seasoned.nights["spades"]
    twice = run(main, ["stats", "--db", db, "add-night", "spades", "--journal", str(journal)])
    assert twice.exit_code == 1 and "already a night called 'spades'" in twice.output
    not_journal = run(main, ["stats", "--db", db, "add-night", "x", "--journal", str(night)])
    assert not_journal.exit_code == 1 and "journal" in not_journal.output
    nobody = run(main, ["stats", "--db", db, "show", "Zed"])
    assert nobody.exit_code == 1 and "no player called 'Zed'" in nobody.output


def test_a_players_statistics_in_the_terminal(seasoned: SeasonedClub) -> None:
    shown = CliRunner().invoke(main, ["stats", "--db", str(seasoned.db), "show", "ann"])
    assert shown.exit_code == 0, shown.output
    for words in ("Bid Euchre family:", "Euchre:", "Spades:", "Hands played", "Euchred",
                  "Bags", "rating mu"):
        assert words in shown.output


def test_an_export_never_hands_a_spreadsheet_a_formula(seasoned: SeasonedClub,
                                                       tmp_path: Path) -> None:
    with ClubDB(seasoned.copy_db(tmp_path)) as db:
        Players(db).add("=HYPERLINK(\"http://x\")")
        text = csv_exports(Stats(db))["players.csv"]
    assert "'=HYPERLINK" in text and ",=HYPERLINK" not in text


def test_a_restarted_host_finds_its_night_and_counts_nothing_twice(
        seasoned: SeasonedClub, tmp_path: Path) -> None:
    """``serve --night --club-db`` names a night after its file and the day; after a restart
    it finds the night by its journal and night file; another night of that name gets a
    number."""
    db = tmp_path / "club.sqlite"
    (euchre, euchre_night), (spades, spades_night) = (seasoned.nights["euchre"],
                                                      seasoned.nights["spades"])

    def follow(journal: Path, night: Path) -> StatsFollower:
        with Journal(journal, readonly=True) as opened:
            follower = StatsFollower(db, "thursday", opened, night)
            follower.stop()  # counts what the journal holds, closes a night that is over
        return follower

    first = follow(euchre, euchre_night)
    assert first.recorded > 0 and first.night.name == "thursday"
    assert follow(spades, spades_night).night.name == "thursday (2)"
    again = follow(euchre, euchre_night)
    assert again.night.id == first.night.id and again.recorded == 0
    with ClubDB(db, readonly=True) as club:
        assert all(n.closed for n in Stats(club).nights())
