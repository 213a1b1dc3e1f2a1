"""Firmware updates over the network (docs/fleet.md): the real firmware under MicroPython with
a board's 96k heap (its reader outside it), booted the way main.py boots it, takes a bundle
the host's ``Updater`` offers through mosquitto. A corrupted file or a bad signature is
refused and the board keeps running what it ran; a bundle that never comes online is rolled
back; a good one is fetched in chunks, checked, swapped in and reported.
"""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from click.testing import CliRunner
from fwkit import FIRMWARE, HEAP, MicroPython, PoweredBoard, mpy_cross
from tricktable.cli import main
from tricktable.deckkit.decks import Registry
from tricktable.fleet import bundle, signing
from tricktable.fleet.updater import Updater
from tricktable.mqtt.url import BrokerURL
from waiting import eventually

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(120)]

# The board's heap, as the link tests' (fwkit.HEAP): the readers outside it (readerhost.py),
# the manifest fetched in chunks like the files (docs/fleet.md, "Memory").
UPDATE_HEAP = HEAP

CLUB_KEY = bytes(range(32))
FACTORY = "0.1.0"  # app.FW_VERSION: what the board runs before any update


@pytest.fixture(scope="module")
def registry(tmp_path_factory) -> Path:
    """The host's deck registry (the club key), with the firmware signing key (HSS/LMS) beside
    it, where `tricktable fleet` finds it: only the host holds either."""
    path = tmp_path_factory.mktemp("host") / "decks.sqlite"
    with Registry(path) as reg:
        reg.add_key(1, CLUB_KEY)
    signing.generate(path.parent / "fleet-signing.key")
    return path


@pytest.fixture(scope="module")
def signing_key(registry) -> Path:
    return registry.parent / "fleet-signing.key"


@pytest.fixture(scope="module")
def pub(signing_key) -> str:
    return signing.public_key(signing_key)


@pytest.fixture(scope="module")
def good_bundle(tmp_path_factory, signing_key) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "0.2.0"
    bundle.build(out, "0.2.0", signing_key)
    return out


@pytest.fixture
def board(mpy_build, mqtt_broker, topic_prefix, reader_host, tmp_path, pub):
    """Start a board ("north", one pad, its reader outside its heap) set up with the host's
    public key (``keys``: the config's update keys instead; ``build``: other compiled
    firmware); yields a starter. A new bundle has a minute to come online (``trial_s``), so a
    loaded machine is not taken for a bundle that never does; the rollback test gives it 3 s."""
    boards: list[PoweredBoard] = []

    def start(trial_s: int = 60, lying: list | None = None, counter: int | None = None,
              keys: dict | None = None, build: Path | None = None) -> PoweredBoard:
        (tmp_path / "flash").mkdir(exist_ok=True)
        if counter is not None:  # it runs the factory firmware as a bundle of this counter
            (tmp_path / "flash" / "fw").mkdir(exist_ok=True)
            (tmp_path / "flash" / "fw" / "boot.json").write_text(json.dumps(
                {"active": "", "version": FACTORY, "counter": counter}))
        spec = tmp_path / "spec.json"
        spec.write_text(json.dumps({
            "storage": str(tmp_path / "flash"), "trial_s": trial_s, "lying": lying or [],
            "readers_port": reader_host.port,
            "config": {"board": "north", "prefix": topic_prefix, "pads": 1, "scan_ms": 20,
                       "backoff_ms": [100, 500], **(keys or {"update_pub": pub}),
                       "broker": {"host": "127.0.0.1", "port": mqtt_broker.port,
                                  "keepalive": 5}}}))
        boards.append(PoweredBoard(MicroPython(build or mpy_build, heap=UPDATE_HEAP), spec))
        return boards[-1]

    yield start
    for b in boards:
        b.stop()


@pytest.fixture
def updater_for(mqtt_broker, topic_prefix):
    made: list[Updater] = []

    def make(b: bundle.Bundle) -> Updater:
        made.append(Updater(b, BrokerURL(mqtt_broker.host, mqtt_broker.port), topic_prefix))
        made[-1].start()
        return made[-1]

    yield make
    for u in made:
        u.stop()


@pytest.fixture
def listen(mqtt_broker):
    """Subscribe a host-side client to a topic: ``listen(topic)`` returns the client and the
    list the payloads it receives are appended to."""
    clients: list[mqtt.Client] = []

    def subscribe(topic: str) -> tuple[mqtt.Client, list[bytes]]:
        got: list[bytes] = []
        subscribed = threading.Event()
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        client.on_message = lambda c, u, m: got.append(m.payload)
        client.on_subscribe = lambda *a: subscribed.set()
        client.connect(mqtt_broker.host, mqtt_broker.port)
        client.loop_start()
        clients.append(client)
        client.subscribe(topic, qos=1)
        assert subscribed.wait(10), f"never subscribed to {topic}"
        return client, got

    yield subscribe
    for client in clients:
        client.loop_stop()
        client.disconnect()


def online_with(updater: Updater, version: str) -> None:
    eventually(lambda: (s := updater.statuses.get("north")) is not None and s.online
               and s.fw == version, f"north online with {version}", timeout=30)


def test_a_good_bundle_is_fetched_checked_swapped_in_and_reported(board, updater_for,
                                                                 good_bundle, pub):
    powered = board()
    updater = updater_for(bundle.load(good_bundle, pub))
    try:
        online_with(updater, FACTORY)
        (result,) = updater.update_boards(["north"], timeout=60)
        assert result.ok, result.why
        online_with(updater, "0.2.0")
        eventually(lambda: updater.statuses["north"].update is not None
                   and updater.statuses["north"].update.state == "confirmed",
                   "the new bundle confirmed", timeout=30)
        assert powered.boots == 2  # one restart: into the new bundle
        assert updater.statuses["north"].reboot == "update"
        assert updater.chunks_served >= len(updater.bundle.files)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None


def test_a_board_still_booting_is_offered_the_bundle_once_it_is_online(board, updater_for,
                                                                      good_bundle, pub):
    """An offer to a board not yet subscribed would be lost: the updater waits for its
    online status (docs/fleet.md, "Updating 30 tables", step 2)."""
    updater = updater_for(bundle.load(good_bundle, pub))
    results: list = []
    worker = threading.Thread(target=lambda: results.extend(
        updater.update_boards(["north"], timeout=60)))
    worker.start()
    powered = board()
    try:
        worker.join(90)
        assert results and results[0].ok, results
        online_with(updater, "0.2.0")
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None


def test_a_corrupted_file_is_refused_and_the_board_keeps_running(board, updater_for,
                                                                 good_bundle, pub):
    powered = board()
    corrupted = bundle.load(good_bundle, pub)
    data = bytearray(corrupted.files["app.mpy"])
    data[len(data) // 2] ^= 0xFF  # one bit flipped in transit; the manifest is genuine
    corrupted.files["app.mpy"] = bytes(data)
    updater = updater_for(corrupted)
    try:
        online_with(updater, FACTORY)
        (result,) = updater.update_boards(["north"], timeout=60)
        assert not result.ok and "app.mpy: SHA-256 differs from the manifest" in result.why
        status = updater.statuses["north"]
        assert status.online and status.fw == FACTORY and powered.boots == 1
        assert status.reboot == "power"
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None


def test_a_bundle_signed_with_another_key_is_refused_before_its_files(board, updater_for,
                                                                      good_bundle, pub,
                                                                      tmp_path):
    powered = board()
    genuine = bundle.load(good_bundle, pub)
    (tmp_path / "forged").mkdir()
    signing.generate(tmp_path / "another.key")
    forged = bundle.write(tmp_path / "forged", "0.2.0", tmp_path / "another.key", genuine.files)
    updater = updater_for(forged)
    try:
        online_with(updater, FACTORY)
        (result,) = updater.update_boards(["north"], timeout=60)
        assert not result.ok and "bad signature" in result.why
        assert updater.files_served == {"manifest.json", "manifest.sig"}, \
            "no file fetched, only the manifest and its signature"
        assert powered.boots == 1
        assert updater.statuses["north"].fw == FACTORY
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None


def thief_bundle(tmp_path: Path, files: dict[str, bytes]) -> bundle.Bundle:
    """What a thief makes with all that one board held: signed the old way under the update
    key (every board of the old scheme held it), with a key pair of the thief's own, version
    6.6.6 and a counter of 2^40 that would block every later genuine bundle."""
    signing.generate(tmp_path / "thief.key")
    (tmp_path / "thief").mkdir()
    return bundle.write(tmp_path / "thief", "6.6.6", tmp_path / "thief.key", files,
                        counter=2 ** 40, migrate_from=CLUB_KEY)


def test_a_bundle_signed_with_what_a_board_holds_is_refused_and_blocks_nothing(
        board, updater_for, good_bundle, pub, tmp_path):
    """Issue 34: with one board's update_key a thief signed a bundle every board accepted, and
    its counter then blocked every genuine one. A board now holds only the public key, which
    signs nothing: the thief's bundle is refused, its counter never taken, and the genuine
    bundle that follows is."""
    genuine = bundle.load(good_bundle, pub)
    powered = board(keys={"update_pub": pub, "update_key": bundle.update_key(CLUB_KEY)})
    thief = updater_for(thief_bundle(tmp_path, genuine.files))
    try:
        online_with(thief, FACTORY)
        (result,) = thief.update_boards(["north"], timeout=60)
        assert not result.ok and "bad signature" in result.why, result.why
        assert thief.statuses["north"].fwc == 0, "the forged counter was never taken"
        thief.stop()
        updater = updater_for(genuine)
        (result,) = updater.update_boards(["north"], timeout=60)
        assert result.ok, result.why
        online_with(updater, "0.2.0")
        assert updater.statuses["north"].fwc == genuine.counter
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None


@pytest.fixture
def legacy_build(mpy_build, tmp_path) -> Path:
    """The firmware as boards of the old scheme run it: tests/firmware/legacy/fwupdate.py
    (HMAC under update_key) in place of today's."""
    build = tmp_path / "legacy"
    shutil.copytree(mpy_build, build)
    proc = mpy_cross(Path(__file__).parent / "legacy" / "fwupdate.py", build / "fwupdate.mpy")
    assert proc.returncode == 0, proc.stderr
    return build


def test_a_board_of_the_old_scheme_moves_to_public_keys_by_one_migration_bundle(
        board, updater_for, signing_key, pub, legacy_build, listen, topic_prefix, tmp_path):
    """docs/fleet.md, "Moving boards to public-key signatures": a board with only the old
    update_key takes the migration bundle (signed the old way too, carrying the public key)
    once; from then on it refuses what the old key signs (as a migration bundle of a thief's
    own, or as an offer in the old form) and takes what the host's key does."""
    (tmp_path / "m").mkdir()
    migration = bundle.build(tmp_path / "m" / "0.2.0", "0.2.0", signing_key,
                             migrate_from=CLUB_KEY)
    powered = board(keys={"update_key": bundle.update_key(CLUB_KEY)}, build=legacy_build)
    updater = updater_for(migration)
    try:
        online_with(updater, FACTORY)
        (result,) = updater.update_boards(["north"], timeout=60)
        assert result.ok, result.why
        online_with(updater, "0.2.0")
        eventually(lambda: (u := updater.statuses["north"].update) is not None
                   and u.state == "confirmed", "the migration bundle confirmed", timeout=30)
        updater.stop()
        forged = thief_bundle(tmp_path, migration.files)
        thief = updater_for(forged)
        (result,) = thief.update_boards(["north"], timeout=60)
        assert not result.ok and "bad signature" in result.why, result.why
        host, statuses = listen(f"{topic_prefix}/v1/board/north/status")
        old_way = {"v": 1, "version": "6.6.6", "size": len(forged.manifest), "sig": forged.hmac}
        host.publish(f"{topic_prefix}/v1/board/north/update", json.dumps(old_way), qos=1)
        eventually(lambda: [p for p in statuses if b"not signed with the club's firmware "
                            b"signing key" in p], "an offer in the old form refused")
        thief.stop()
        (tmp_path / "n").mkdir()
        later = updater_for(bundle.write(tmp_path / "n", "0.3.0", signing_key, migration.files))
        (result,) = later.update_boards(["north"], timeout=60)
        assert result.ok, result.why
        online_with(later, "0.3.0")
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None


def test_a_bundle_that_never_comes_online_is_rolled_back(board, updater_for, good_bundle,
                                                         pub, signing_key, tmp_path):
    """The new bundle's MQTT client never reaches the broker: the trial guard restarts the
    board, and the next boot goes back to the bundle before."""
    source = (FIRMWARE / "mqtt.py").read_text().replace(
        "    async def _open(self):\n",
        "    async def _open(self):\n        raise OSError('this bundle never reaches the broker')\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "mqtt.py").write_text(source)
    proc = mpy_cross(tmp_path / "src" / "mqtt.py", tmp_path / "src" / "mqtt.mpy")
    assert proc.returncode == 0, proc.stderr
    files = dict(bundle.load(good_bundle, pub).files)
    files["mqtt.mpy"] = (tmp_path / "src" / "mqtt.mpy").read_bytes()
    (tmp_path / "broken").mkdir()
    broken = bundle.write(tmp_path / "broken", "0.3.0-broken", signing_key, files)
    powered = board(trial_s=3)
    updater = updater_for(broken)
    try:
        online_with(updater, FACTORY)
        (result,) = updater.update_boards(["north"], timeout=60)
        assert not result.ok and result.why.startswith(f"rolled back to {FACTORY}"), result.why
        assert powered.boots == 3  # into the new bundle, then back
        assert updater.statuses["north"].online
        assert updater.statuses["north"].reboot == "rollback"
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None


def test_an_older_bundle_is_refused_and_only_the_directors_rollback_takes_a_board_back(
        board, updater_for, good_bundle, pub, signing_key, registry, tmp_path):
    """docs/fleet.md, "Downgrades": a bundle correctly signed but older than the one a board
    runs (a lower counter in its manifest) is not offered by the host, and refused by the
    board when someone offers it anyway; `tricktable fleet rollback` signs it again, audited,
    and the board takes that."""
    genuine = bundle.load(good_bundle, pub)
    (tmp_path / "old").mkdir()
    old = bundle.write(tmp_path / "old", "0.0.1", signing_key, genuine.files, counter=5)
    powered = board(counter=10)
    updater = updater_for(old)
    try:
        online_with(updater, FACTORY)
        assert updater.statuses["north"].fwc == 10
        (result,) = updater.update_boards(["north"], timeout=60)
        assert not result.ok and result.why.startswith("not offered: 0.0.1 is older"), result.why
        def refused() -> bool:
            return (u := updater.statuses["north"].update) is not None and u.state == "refused"

        for _ in range(6):  # an attacker's offer, past the host's check; again if read past
            updater.offer("north")
            if updater.wait_for(refused, 10):
                break
        assert refused(), "the board never refused the old bundle"
        assert "older than the bundle this board runs" in updater.statuses["north"].update.reason
        assert updater.files_served == {"manifest.json", "manifest.sig"} and powered.boots == 1
        updater.stop()  # the rollback is 0.0.1 too: one updater answers its fetches
        run = CliRunner().invoke(main, [
            "fleet", "rollback", str(tmp_path / "old"), "--replaces", FACTORY, "--reason",
            "0.1.0 loses taps", "--out", str(tmp_path / "back"), "--registry", str(registry)])
        assert run.exit_code == 0, run.output
        audit = json.loads((registry.parent / "fleet-audit.jsonl").read_text())
        assert (audit["action"], audit["version"], audit["replaces"], audit["reason"]) == (
            "rollback", "0.0.1", FACTORY, "0.1.0 loses taps")
        back = updater_for(bundle.load(tmp_path / "back", pub))
        (result,) = back.update_boards(["north"], timeout=60)
        assert result.ok, result.why
        online_with(back, "0.0.1")
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None


def test_a_board_with_a_card_on_a_pad_refuses_mid_hand(board, updater_for, good_bundle, pub, listen,
                                                       topic_prefix):
    """The offer comes once the board has reported the card: before its first scan of the
    pad, the board does not yet know a card lies there."""
    _, events = listen(f"{topic_prefix}/v1/board/north/event")
    powered = board(lying=[[0, "04a1b2c3d4e5f6"]])
    updater = updater_for(bundle.load(good_bundle, pub))
    try:
        online_with(updater, FACTORY)
        eventually(lambda: events, "the board reported the card lying on its pad")
        (result,) = updater.update_boards(["north"], timeout=30, busy_timeout=0)
        assert not result.ok and "busy: a card lies on a pad" in result.why, result.why
        assert powered.boots == 1 and updater.chunks_served == 0
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None


def test_fleet_update_takes_a_table_between_hands_and_reports_each_board(
        board, good_bundle, registry, mqtt_broker, topic_prefix, listen, tmp_path):
    """``tricktable fleet update``: the table is mid-hand, so nothing is offered until its
    state shows the hand over; then its board takes the bundle."""
    (tmp_path / "club.toml").write_text(
        f'[club]\nprefix = "{topic_prefix}"\n[tables.t1]\nvariant = "bid-euchre"\n'
        '[tables.t1.pads]\n"north:0" = 0\n')
    offers_mid_hand: list[int] = []  # offers seen when the hand ended: there must be none
    host, offers = listen(f"{topic_prefix}/v1/board/north/update")

    def publish_state(state: dict) -> None:
        if state["phase"] == "deal":
            offers_mid_hand.append(len(offers))
        host.publish(f"{topic_prefix}/v1/table/t1/state", json.dumps(state), qos=1,
                     retain=True).wait_for_publish(5)

    powered = board()
    mid_hand = {"table": "t1", "phase": "play", "bids": [{"seat": 0, "bid": "3"}],
                "trick": {"cards": [{"seat": 0, "card": "AS"}]}, "tricks": []}
    publish_state(mid_hand)
    timer = threading.Timer(3.0, publish_state, [{**mid_hand, "phase": "deal", "bids": [],
                                                  "trick": {"cards": []}}])
    timer.start()
    try:
        run = CliRunner().invoke(main, [
            "fleet", "update", str(good_bundle), "--club", str(tmp_path / "club.toml"),
            "--registry", str(registry), "--broker", f"mqtt://127.0.0.1:{mqtt_broker.port}",
            "--prefix", topic_prefix, "--timeout", "60"])
        assert run.exit_code == 0, run.output
        assert "t1 north: runs 0.2.0" in run.output
        assert "every board of 1 table(s) runs 0.2.0" in run.output
        assert offers_mid_hand == [0] and offers, "offered only once the hand was over"
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n{powered.stop()}") from None
    finally:
        timer.cancel()
