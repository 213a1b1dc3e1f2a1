"""Files that ship inside the package, found with ``importlib.resources``: the firmware a board
runs (``firmware/``) and the club broker's mosquitto configuration and ACL template
(``mqtt/mosquitto/``). A wheel installed anywhere carries them; nothing is looked up beside a
source checkout.

They are read as files on disk (mpy-cross compiles them, a virtual board imports them, mosquitto
is pointed at them), so the package must be installed as files, as pip and pipx install it.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


class PackagedFileError(RuntimeError):
    """A file that should ship in the package is missing: the install is broken or partial."""


def _directory(*parts: str) -> Path:
    found = files("tricktable").joinpath(*parts)
    if not isinstance(found, Path) or not found.is_dir():
        raise PackagedFileError(f"tricktable/{'/'.join(parts)} is not in this install of "
                                f"tricktable ({found}): install it with pip or pipx from a "
                                "wheel or a source tree, not from a zip")
    return found


def firmware_dir() -> Path:
    """The folder of the firmware's sources (main.py, app.py ..., boards.json)."""
    return _directory("firmware")


def mosquitto_dir() -> Path:
    """The shipped mosquitto configuration: mosquitto.conf, acl.template, conf.d/."""
    return _directory("mqtt", "mosquitto")
