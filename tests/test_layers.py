"""The host package's layers are a contract the suite runs (pyproject.toml,
``[tool.importlinter]``): a module imports only from its own layer and the layers below, and the
rules core (cards, rules, engine) does no I/O. docs/architecture.md draws the layers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(package_parent: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(package_parent)}
    return subprocess.run([str(LINT_IMPORTS), "--config", str(ROOT / "pyproject.toml"),
                           "--no-cache"], cwd=package_parent, env=env, capture_output=True,
                          text=True, timeout=120)


def copy_of_the_package(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "host" / "tricktable", tmp_path / "tricktable",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__", "static", "firmware"))
    return tmp_path


def test_main_keeps_every_layer_contract(tmp_path: Path) -> None:
    proc = lint_imports(copy_of_the_package(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Contracts: 3 kept, 0 broken." in proc.stdout, proc.stdout


def test_an_import_from_a_lower_layer_up_breaks_the_contract(tmp_path: Path) -> None:
    parent = copy_of_the_package(tmp_path)
    journal = parent / "tricktable" / "serve" / "journal.py"
    journal.write_text(journal.read_text() + "\nimport tricktable.web.app  # planted\n")
    proc = lint_imports(parent)
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "tricktable.serve.journal -> tricktable.web.app" in proc.stdout, proc.stdout


def test_the_rules_core_may_not_open_a_database(tmp_path: Path) -> None:
    parent = copy_of_the_package(tmp_path)
    state = parent / "tricktable" / "engine" / "state.py"
    state.write_text(state.read_text() + "\nimport sqlite3  # planted\n")
    proc = lint_imports(parent)
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "tricktable.engine.state -> sqlite3" in proc.stdout, proc.stdout
