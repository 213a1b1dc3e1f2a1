"""``tricktable service install`` writes a systemd unit for ``tricktable up`` that systemd's
own checker accepts (``systemd-analyze verify``), as a system unit and as a user unit;
``uninstall`` removes it. The system unit runs as a user of its own, sandboxed: ``systemd-analyze
security`` rates it under 4.0 ("OK"). systemd itself does not run in the test container, so the unit is
written with ``--no-enable`` (no systemctl) and checked, not started.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(
    ANALYZE is None, reason="systemd-analyze not installed (scripts/run-tests installs "
                            "Debian's systemd package as root)")


def tricktable(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from tricktable.cli import main; main()",
                           *args], capture_output=True, text=True, timeout=60)


def verify(unit, user: bool, tmp_path) -> subprocess.CompletedProcess:
    runtime = tmp_path / "runtime"  # a user manager's runtime folder, absent in a container
    runtime.mkdir(mode=0o700, exist_ok=True)
    return subprocess.run([ANALYZE, *(["--user"] if user else []), "verify", str(unit)],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)})


def exposure(unit) -> tuple[float, str]:
    """``systemd-analyze security``'s overall exposure of a unit file, offline: (score, word)."""
    done = subprocess.run([ANALYZE, "security", "--offline=true", str(unit)],
                          capture_output=True, text=True, timeout=60)
    found = re.search(r"Overall exposure level for \S+: ([0-9.]+) (\w+)", done.stdout)
    assert found, done.stdout[-2000:] + done.stderr
    return float(found.group(1)), found.group(2)


@needs_analyze
def test_the_system_unit_runs_as_its_own_user_in_a_sandbox_systemd_rates_ok(tmp_path):
    (tmp_path / "club.toml").write_text('[club]\nname = "c"\n[host]\nnight = "night.json"\n')
    done = tricktable("service", "install", "--club", str(tmp_path / "club.toml"),
                      "--data", str(tmp_path / "data"), "--unit-dir", str(tmp_path / "units"),
                      "--no-enable")
    assert done.returncode == 0, done.stdout + done.stderr
    score, word = exposure(tmp_path / "units" / "tricktable.service")
    assert score < 4.0 and word in ("OK", "SAFE"), (score, word)  # "UNSAFE" was 9.6


@needs_analyze
@pytest.mark.parametrize("user", [False, True], ids=["system", "user"])
def test_the_installed_unit_passes_systemd_analyze_verify(tmp_path, user):
    (tmp_path / "club.toml").write_text('[club]\nname = "c"\n[host]\nnight = "night.json"\n')
    units = tmp_path / "units"
    flags = ["--user"] if user else []
    done = tricktable("service", "install", "--club", str(tmp_path / "club.toml"),
                      "--data", str(tmp_path / "my data"), "--unit-dir", str(units),
                      "--no-enable", *flags)
    assert done.returncode == 0, done.stdout + done.stderr
    unit = units / "tricktable.service"
    text = unit.read_text()
    assert "Restart=on-failure" in text and f"'{tmp_path / 'my data'}'" in text
    assert ("WantedBy=default.target" in text) == user and ("User=" in text) != user
    checked = verify(unit, user, tmp_path)
    assert checked.returncode == 0 and not checked.stderr.strip(), \
        checked.stdout + checked.stderr
    if not user:
        assert "User=tricktable\n" in text and "ProtectSystem=strict\n" in text
        assert f"ReadWritePaths={tmp_path} '{tmp_path / 'my data'}'" in text, text
    gone = tricktable("service", "uninstall", "--unit-dir", str(units), "--no-enable", *flags)
    assert gone.returncode == 0 and not unit.exists(), gone.stdout + gone.stderr
