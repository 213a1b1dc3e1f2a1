"""tricktable as a club installs it: the release files built as a release builds them (an sdist,
then a wheel from that sdist), checked with twine, the wheel installed into a fresh virtualenv in
a temporary folder (no checkout on its path), and the commands that need the package's own files
run from there: ``--version``, the demo, ``fleet bundle`` (checked by the board's own update
code on the real MicroPython), ``board setup --out`` and ``up``'s broker configuration."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostkit import club_toml, make_registry
from upkit import listen_port
from waiting import eventually

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def run(args: list[str], cwd: Path, timeout: float = 600,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=env)
    assert proc.returncode == 0, f"{' '.join(map(str, args))}\n{proc.stdout}\n{proc.stderr}"
    return proc


def outside_env(home: Path) -> dict[str, str]:
    """An environment with nothing of this checkout or this suite's virtualenv in it."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if Path(p).resolve() != BIN.resolve())
    env["HOME"] = str(home)
    return env


class Installed:
    """The wheel installed into a fresh virtualenv, and a place to run it from."""

    def __init__(self, work: Path, wheel: Path) -> None:
        self.work, self.wheel = work, wheel
        self.venv = work / "venv"
        self.env = outside_env(work / "home")

    def tricktable(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return run([str(self.venv / "bin" / "tricktable"), *args], self.work, timeout, self.env)


@contextlib.contextmanager
def made_once(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[tuple[Path, bool]]:
    """A folder all of this run's pytest workers share: (the folder, whether it is still to be
    made). The first worker to come makes it while holding a lock; the others wait on the lock
    and find it made (a ``done`` file written last), so the slow steps run once a run, not once
    a worker."""
    run_folder = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run_folder = run_folder.parent  # the run's folder, above each worker's own
    shared = run_folder / name
    shared.mkdir(exist_ok=True)
    with (shared.parent / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / "done"
        yield shared, not done.exists()
        done.touch()


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """sdist and wheel, built with PyPA's build (the sdist first, the wheel from it): the ones
    ./scripts/run-tests built and installed for this run (``TRICKTABLE_DIST``), else new ones."""
    given = os.environ.get("TRICKTABLE_DIST")
    if given and list(Path(given).glob("tricktable-*.whl")):
        return Path(given)
    with made_once(tmp_path_factory, "dist") as (out, to_make):
        if to_make:
            run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], ROOT,
                timeout=1100)
    return out


@pytest.fixture(scope="module")
def installed(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    wheel = next(dist.glob("tricktable-*.whl"))
    with made_once(tmp_path_factory, "club-laptop") as (work, to_make):
        inst = Installed(work, wheel)
        if to_make:
            (work / "home").mkdir()
            run([sys.executable, "-m", "venv", str(inst.venv)], work)
            run([str(inst.venv / "bin" / "python"), "-m", "pip", "install", "-q",
                 "--disable-pip-version-check", str(wheel)], work, env=inst.env)
    return inst


def test_the_release_files_check_out_and_carry_what_the_commands_read(dist: Path) -> None:
    sdist = next(dist.glob("tricktable-*.tar.gz"))
    wheel = next(dist.glob("tricktable-*.whl"))
    run([str(BIN / "twine"), "check", "--strict", str(sdist), str(wheel)], dist)
    names = set(zipfile.ZipFile(wheel).namelist())
    for shipped in ("tricktable/firmware/main.py", "tricktable/firmware/app.py",
                    "tricktable/firmware/boards.json", "tricktable/mqtt/mosquitto/mosquitto.conf",
                    "tricktable/mqtt/mosquitto/acl.template", "tricktable/web/static/app.js"):
        assert shipped in names, f"{shipped} is not in {wheel.name}"
    assert not [n for n in names if n.startswith("tricktable/firmware/") and
                n.rsplit("/", 1)[-1] in ("virtual.py", "hostnet.py")], "a host-only fake ships as firmware"


def test_version_names_the_install_and_its_firmware(installed: Installed) -> None:
    from tricktable import __version__

    out = installed.tricktable("--version").stdout
    assert f"tricktable {__version__}" in out, out
    assert f"installed from {installed.wheel.as_uri()}" in out, out
    assert str(installed.venv) in out.split("firmware sources: ")[1], out


def test_the_demo_plays_a_hand_from_the_installed_wheel(installed: Installed,
                                                       tmp_path: Path) -> None:
    proc = installed.tricktable("demo", "--speed", "0", "--games", "1", "--option",
                                "hand_limit=1", "--no-view", "--port", "0", "--workdir",
                                str(tmp_path / "demo"), timeout=300)
    histories = sorted((tmp_path / "demo").rglob("t*-game1.txt"))
    assert len(histories) == 2, proc.stdout + proc.stderr
    for history in histories:
        installed.tricktable("verify", str(history))


def test_a_fleet_bundle_from_the_wheel_passes_a_boards_own_update_check(
        installed: Installed, tmp_path: Path) -> None:
    registry = tmp_path / "decks.sqlite"
    installed.tricktable("deck", "key", "--registry", str(registry))
    public = installed.tricktable("fleet", "keygen", "--registry", str(registry)).stdout.split()[-1]
    installed.tricktable("fleet", "bundle", "--version", "1.2.3", "--out", str(tmp_path / "b"),
                         "--registry", str(registry))
    firmware = next((installed.venv / "lib").glob("python3*/site-packages/tricktable/firmware"))
    check = tmp_path / "check.py"
    check.write_text(f"""
import sys
sys.path[:0] = [{str(firmware)!r}]
import fwupdate, sigcheck
from compat import unhexlify
where = {str(tmp_path / 'b')!r}
manifest = where + '/manifest.json'
assert sigcheck.verify(unhexlify({public!r}), where + '/manifest.sig',
                       lambda h: fwupdate.feed(h, manifest)), 'signature'
version, counter, carried = fwupdate.manifest_head(manifest)
assert carried == {public!r}, 'key'
n = 0
for name, size, digest in fwupdate.manifest_files(manifest):
    assert fwupdate.size_of(where + '/' + name) == size, name
    assert fwupdate.same(fwupdate.sha256_of(where + '/' + name), digest), name
    n += 1
print('accepted', version, n)
""")
    proc = run([str(BIN / "micropython"), "-X", "heapsize=96k", str(check)], tmp_path)
    assert proc.stdout.split()[:2] == ["accepted", "1.2.3"], proc.stdout


def test_board_setup_writes_a_boards_files_to_a_folder(installed: Installed,
                                                       tmp_path: Path) -> None:
    wifi = tmp_path / "wifi.json"
    wifi.write_text(json.dumps([{"ssid": "club", "password": "cards-on-the-table"}]))
    installed.tricktable("board", "setup", "--out", str(tmp_path / "board"), "--board", "t1-n",
                         "--broker", "mqtt://192.168.1.10", "--wifi-file", str(wifi),
                         "--passwd-file", str(tmp_path / "passwd"), "--pads", "4")
    board = tmp_path / "board"
    assert (board / "main.py").is_file() and (board / "app.mpy").is_file()
    config = json.loads((board / "config.json").read_text())
    assert (config["board"], config["broker"]["host"]) == ("t1-n", "192.168.1.10"), config
    assert (board / "config.json").stat().st_mode & 0o077 == 0, "config.json holds a password"
    assert (tmp_path / "passwd").read_text().startswith("t1-n:")


def test_up_writes_its_broker_configuration_from_the_shipped_file(installed: Installed,
                                                                   tmp_path: Path) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("up starts mosquitto; it is not installed here")

    ports = sorted({listen_port() for _ in range(8)})[:4]
    make_registry(tmp_path / "decks.sqlite").close()
    club = club_toml("rel", ("t1",)).replace(
        'prefix = "rel"', 'prefix = "rel"\nregistry = "decks.sqlite"\njournal = "journal.sqlite"', 1)
    (tmp_path / "club.toml").write_text(club + "\n".join([
        "[host]", f'broker = "mqtt://127.0.0.1:{ports[0]}"', f"tls_port = {ports[1]}",
        f'web = "127.0.0.1:{ports[2]}"', f'console = "127.0.0.1:{ports[3]}"']) + "\n")
    out = tmp_path / "up.out"
    with out.open("w") as sink:
        proc = subprocess.Popen([str(installed.venv / "bin" / "tricktable"), "up", "--club",
                                 str(tmp_path / "club.toml"), "--data", str(tmp_path / "data")],
                                cwd=tmp_path, env=installed.env, stdout=sink,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        def parts() -> set[str]:
            try:
                return set(json.loads((tmp_path / "data" / "up.json").read_text())["parts"])
            except (OSError, ValueError):
                return set()

        eventually(lambda: proc.poll() is not None or parts() == {"broker", "serve", "web"},
                   f"up started its broker, the tables' host and the scoreboard ({out})",
                   timeout=120)
        assert proc.poll() is None, out.read_text()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(60)
    conf = (tmp_path / "data" / "broker" / "mosquitto.conf").read_text()
    assert f"listener {ports[1]}" in conf and "use_username_as_clientid true" in conf, conf
