"""What this install of tricktable is: its version, where it was installed from (a wheel, an
index, a source folder) and the firmware it carries, for ``tricktable --version`` and the
support questions a club's organiser is asked ("which version, which firmware?").
"""

from __future__ import annotations

import hashlib
import json
import sys
from importlib import metadata

from tricktable import __version__
from tricktable.packaged import firmware_dir


def installed_from() -> str:
    """Where pip or pipx took this install from, as PEP 610's direct_url.json records it."""
    try:
        dist = metadata.distribution("tricktable")
    except metadata.PackageNotFoundError:
        return "not installed (run from a source folder on sys.path)"
    raw = dist.read_text("direct_url.json")
    if raw is None:
        return "a package index"
    origin = json.loads(raw)
    url = origin.get("url", "?")
    if origin.get("dir_info", {}).get("editable"):
        return f"an editable source folder, {url}"
    return url


def firmware_digest() -> str:
    """The SHA-256 of the firmware's sources as shipped (file names and contents), short."""
    digest = hashlib.sha256()
    for source in sorted(firmware_dir().iterdir()):
        if source.suffix in (".py", ".json"):
            digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:12]


def describe() -> str:
    """The lines ``tricktable --version`` prints."""
    return "\n".join([
        f"tricktable {__version__} (Python {sys.version.split()[0]})",
        f"installed from {installed_from()}",
        f"firmware sources: {firmware_dir()} (sha256 {firmware_digest()}); "
        "`tricktable fleet bundle` compiles them for the boards",
    ])
