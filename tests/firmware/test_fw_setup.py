"""``tricktable board setup PORT`` against a MicroPython board on a serial port: the real
unix port running its raw REPL on a pseudo-terminal, a directory as its flash (usbboard.py).

Issue 14, "Provisioning": the compiled firmware, the board's id, Wi-Fi networks (in order),
broker and per-board credentials, pads and pin map go on the board, verified by SHA-256 read
back; the board's user goes into the mosquitto password file; a bad config is refused before
anything is written; a board cut off mid-copy keeps its old files whole.
"""

from __future__ import annotations

import json

import paho.mqtt.client as mqtt
import pytest
from click.testing import CliRunner
from tricktable.cli import main
from tricktable.mqtt.broker import BrokerAuth, free_port, mosquitto_available, start_broker
from tricktable.provision.acl import board_block
from tricktable.provision.boardfile import BoardSpec, board_config
from tricktable.provision.bundle import FIRMWARE_DIR, build_bundle
from tricktable.provision.certs import make_club_certs
from tricktable.provision.rawrepl import BoardError, RawREPL
from tricktable.provision.setup import BoardInfo, check_board, setup_board
from usbboard import USBBoard, snapshot
from waiting import eventually

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(120)]

NETWORKS = [{"ssid": "cardroom", "password": "club-secret-1"},
            {"ssid": "bar", "password": "bar-secret-22"}]


@pytest.fixture(scope="module")
def bundle():
    return build_bundle()


@pytest.fixture
def flash(tmp_path):
    (tmp_path / "flash").mkdir()
    return tmp_path / "flash"


@pytest.fixture
def usb_board(flash):
    board = USBBoard(flash)
    yield board
    board.close()


def setup_command(board: USBBoard, tmp_path, *extra: str, board_id: str = "t1-north",
                  networks: list | None = None):
    wifi = tmp_path / "wifi.json"
    wifi.write_text(json.dumps(NETWORKS if networks is None else networks))
    args = ["board", "setup", board.port, "--board", board_id,
            "--broker", "mqtt://192.168.1.10:1883", "--wifi-file", str(wifi),
            "--passwd-file", str(tmp_path / "passwd"), "--acl-file", str(tmp_path / "acl"),
            "--pads", "2", "--display", "max7219", *extra]
    return CliRunner().invoke(main, args)


def test_setup_installs_firmware_and_config_and_reads_them_back(usb_board, flash, tmp_path,
                                                                bundle):
    (flash / "app.py").write_text("# an old by-hand deploy: would shadow app.mpy\n")
    update_pub = "ab" * 60  # as `tricktable fleet key` prints it: a public key, not a secret
    result = setup_command(usb_board, tmp_path, "--update-pub", update_pub)
    assert result.exit_code == 0, result.output
    files = snapshot(flash)
    assert sorted(files) == sorted([*bundle.files, "config.json"]), "no *.new, no app.py left"
    assert all(files[name] == data for name, data in bundle.files.items()), "as compiled"
    assert all(name.endswith(".mpy") for name in files
               if name not in ("main.py", "boot.py", "boards.json", "config.json")), "compiled, not sources"
    config = json.loads(files["config.json"])
    assert config["board"] == "t1-north" and config["wifi"] == NETWORKS, "networks in order"
    assert (config["pads"], config["display"], config["pins"]) == (2, "max7219", "pico_w")
    assert config["update_pub"] == update_pub, "the board takes signed updates"
    assert "update_key" not in config, "and holds nothing that signs them"
    broker = config["broker"]
    assert (broker["host"], broker["port"], broker["user"]) == ("192.168.1.10", 1883, "t1-north")
    assert len(broker["password"]) >= 20 and broker["password"] not in result.output
    users = [line.split(":")[0] for line in (tmp_path / "passwd").read_text().splitlines()]
    assert users == ["t1-north"]
    assert "topic write tricktable/v1/board/t1-north/event" in (tmp_path / "acl").read_text()
    assert f"verified {len(bundle.files) + 1} files" in result.output


def test_a_board_set_up_for_tls_gets_the_clubs_ca_and_only_its_own_tables_display(
        usb_board, flash, tmp_path):
    """docs/operations.md, "Security": `board setup --broker mqtts://... --ca-file ca.crt`
    (the CA `tricktable broker certs` made) puts the CA on the board in DER and turns TLS on;
    the ACL lets the board read its own table's display and no other's."""
    certs = make_club_certs(tmp_path / "certs", ["192.168.1.10"])
    refused = setup_command(usb_board, tmp_path, "--broker", "mqtts://192.168.1.10")
    assert refused.exit_code != 0 and "mqtts:// needs --ca-file" in refused.output
    result = setup_command(usb_board, tmp_path, "--broker", "mqtts://192.168.1.10",
                           "--ca-file", str(certs.ca), "--table", "t7")
    assert result.exit_code == 0, result.output
    assert (flash / "ca.der").read_bytes() == certs.ca_der.read_bytes()
    broker = json.loads((flash / "config.json").read_text())["broker"]
    assert (broker["port"], broker["tls"], broker["ca"]) == (8883, True, "ca.der")
    acl = (tmp_path / "acl").read_text()
    assert board_block("tricktable", "t1-north", "t7") in acl
    assert "/v1/table/+/display" not in acl


@pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto")
def test_the_board_password_opens_the_broker_and_a_wrong_one_does_not(usb_board, flash,
                                                                     tmp_path):
    assert setup_command(usb_board, tmp_path).exit_code == 0
    password = json.loads((flash / "config.json").read_text())["broker"]["password"]
    auth = BrokerAuth(password_file=tmp_path / "passwd", acl=(tmp_path / "acl").read_text())
    with start_broker(kind="mosquitto", auth=auth) as broker:
        for secret, refused in ((password, False), ("not-it", True)):
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t1-north")
            client.username_pw_set("t1-north", secret)
            outcome = {}
            client.on_connect = lambda c, u, f, reason, p, o=outcome: o.setdefault("rc", reason)
            client.connect(broker.host, broker.port)
            while "rc" not in outcome:
                client.loop(timeout=0.1)
            client.disconnect()
            assert outcome["rc"].is_failure == refused, f"password {secret!r}: {outcome['rc']}"


BAD = [
    (["--pins", "pico"], {}, "no such map in boards.json"),
    (["--pads", "5"], {}, "'pads' must be 0..4"),
    (["--pads", "3", "--reader-bus", "i2c"], {}, "wires only 2 i2c readers"),
    ([], {"board_id": "t1/north"}, "board id 't1/north'"),
    ([], {"networks": [{"ssid": "cardroom", "password": "short"}]}, "WPA2 needs 8-63"),
    ([], {"networks": []}, "at least one network"),
    ([], {"networks": [{"password": "no-ssid-here"}]}, "'wifi' networks need an 'ssid'"),
    (["--broker", "mqtts://192.168.1.10"], {}, "mqtts:// needs --ca-file"),
    (["--update-pub", "not-a-key"], {}, "'update_pub' must be null or 120"),
]


def test_a_bad_config_is_refused_and_nothing_is_written(usb_board, flash, tmp_path):
    (flash / "config.json").write_text('{"board": "old"}')
    before = snapshot(flash)
    for extra, kw, says in BAD:
        result = setup_command(usb_board, tmp_path, *extra, **kw)
        assert result.exit_code != 0 and says in result.output, (extra, kw, result.output)
        assert snapshot(flash) == before, f"{extra} {kw}: the board's flash changed"
        assert not (tmp_path / "passwd").exists(), "no broker user for a refused board"


def test_a_board_cut_off_mid_copy_keeps_its_old_files_whole(usb_board, flash, tmp_path,
                                                            bundle):
    assert setup_command(usb_board, tmp_path).exit_code == 0
    before = snapshot(flash)
    spec = BoardSpec(board="t1-north", broker_host="192.168.1.10", broker_port=1883,
                     password="another-password", wifi=NETWORKS, table="t2")
    config = board_config(spec, FIRMWARE_DIR)
    replugged = USBBoard(flash)
    try:
        written = []

        def cut_after_five(step: str) -> None:
            written.append(step)
            if len([s for s in written if s.startswith("wrote")]) == 5:
                replugged.pull_cable()

        with pytest.raises(BoardError):
            with RawREPL(replugged.port, timeout=1) as repl:
                setup_board(repl, bundle, config, progress=cut_after_five)
    finally:
        replugged.close()
    after = snapshot(flash)
    assert {n: after[n] for n in before} == before, "every old file exactly as it was"
    assert all(n.endswith(".new") for n in set(after) - set(before)), sorted(after)
    again = USBBoard(flash)
    try:
        result = setup_command(again, tmp_path, "--table", "t2")
    finally:
        again.close()
    assert result.exit_code == 0, result.output
    assert not [n for n in snapshot(flash) if n.endswith(".new")], "leftovers removed"
    assert json.loads((flash / "config.json").read_text())["table"] == "t2"


def test_a_board_too_old_or_with_another_bytecode_version_is_refused(bundle):
    info = BoardInfo("micropython", (1, 29, 0), bundle.mpy_version, 1 << 20, "rp2", [])
    check_board(info, bundle, 60000)
    old = BoardInfo("micropython", (1, 21, 0), bundle.mpy_version, 1 << 20, "rp2", [])
    with pytest.raises(BoardError, match="1.22.0 or newer"):
        check_board(old, bundle, 60000)
    other = BoardInfo("micropython", (1, 29, 0), bundle.mpy_version - 1, 1 << 20, "rp2", [])
    with pytest.raises(BoardError, match="use the mpy-cross of the board's"):
        check_board(other, bundle, 60000)
    with pytest.raises(BoardError, match="flash has 1000 bytes free"):
        check_board(BoardInfo("micropython", (1, 29, 0), bundle.mpy_version, 1000, "rp2", []),
                    bundle, 60000)


@pytest.mark.skipif(not mosquitto_available(), reason="needs mosquitto")
def test_a_board_in_setup_mode_is_set_up_and_comes_online_with_its_own_password(
        usb_board, flash, tmp_path, micropython):
    """firmware/README.md, "Setup mode" and "Setting up a board": a board whose config.json
    does not validate says so and waits; setup stops it over USB, and at the next power-up
    it joins the broker as itself."""
    port = free_port()
    assert setup_command(usb_board, tmp_path, "--broker", f"mqtt://127.0.0.1:{port}").exit_code == 0
    usb_board.close()
    (flash / "config.json").write_text('{"board": "t1/north"}')
    waiting = USBBoard(flash, booting=micropython)
    try:
        eventually(lambda: b"tricktable: setup mode (config 'board'" in waiting.output,
                   "the board says it is in setup mode, and why")
        result = setup_command(waiting, tmp_path, "--broker", f"mqtt://127.0.0.1:{port}")
        assert result.exit_code == 0, result.output + waiting.output.decode(errors="replace")
    finally:
        waiting.close()
    auth = BrokerAuth(users={"tricktable-host": "host-secret"}, password_file=tmp_path / "passwd",
                      acl=(tmp_path / "acl").read_text())
    with start_broker(kind="mosquitto", port=port, auth=auth) as broker:
        statuses: dict[str, dict] = {}
        watcher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        watcher.username_pw_set("tricktable-host", "host-secret")
        watcher.on_message = lambda c, u, m: statuses.__setitem__(m.topic, json.loads(m.payload))
        watcher.connect(broker.host, broker.port)
        watcher.subscribe("tricktable/v1/board/+/status", qos=1)
        watcher.loop_start()
        board = USBBoard(flash, booting=micropython)
        try:
            eventually(lambda: statuses.get("tricktable/v1/board/t1-north/status", {}).get("online"),
                       f"t1-north online; it printed {bytes(board.output)!r}")
        finally:
            board.close()
            watcher.loop_stop()
            watcher.disconnect()


def test_a_port_that_is_not_a_micropython_board_is_named_and_left_alone(tmp_path):
    """A serial device that does not answer the raw REPL (a GPS, a modem) is refused."""
    import os
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        with pytest.raises(BoardError, match="does not answer as a MicroPython board"):
            with RawREPL(os.ttyname(slave), timeout=0.5):
                pass
    finally:
        os.close(master)
        os.close(slave)
