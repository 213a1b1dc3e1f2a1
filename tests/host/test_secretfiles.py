"""Secret files (secretfiles.py; docs/operations.md, "Security"): written through a temporary
file of a random name created with O_EXCL|O_NOFOLLOW, only into a folder no one else can write.
The attacks are another user's (nobody) on a folder they may write: a link in the temporary
file's place that would make root overwrite any file, and a file of theirs there that root
would write the secret into. Each is refused and changes nothing; the same write into the
owner's own folder (the positive control) makes the file, 0600.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from localuser import NOBODY, as_nobody, needs_nobody
from tricktable.secretfiles import SecretFileError, keep_private, write_private

pytestmark = needs_nobody


@pytest.fixture
def shared():
    """A folder every user may write, as /tmp or a careless club folder is."""
    folder = Path(tempfile.mkdtemp(prefix="shared-"))
    os.chmod(folder, 0o1777)
    yield folder
    shutil.rmtree(folder)


def test_a_link_left_by_another_user_does_not_make_root_overwrite_a_file(tmp_path, shared):
    victim = tmp_path / "victim"
    victim.write_text("root's own file\n")
    made = as_nobody(["ln", "-s", str(victim), str(shared / "password.new")])
    assert made.returncode == 0, made.stderr
    with pytest.raises(SecretFileError, match="may be written by others"):
        write_private(shared / "password", "s3cret\n")
    assert victim.read_text() == "root's own file\n"
    assert not (shared / "password").exists()


def test_a_file_another_user_made_never_receives_the_secret(shared):
    made = as_nobody(["sh", "-c", f"umask 0; : > {shared}/password.new"])
    assert made.returncode == 0, made.stderr
    with pytest.raises(SecretFileError, match="may be written by others"):
        write_private(shared / "password", "s3cret\n")
    read = as_nobody(["cat", str(shared / "password.new"), *(
        [str(shared / "password")] if (shared / "password").exists() else [])])
    assert "s3cret" not in read.stdout


def test_the_owners_own_folder_is_written_owner_only_and_a_missing_one_made_0700(tmp_path):
    folder = tmp_path / "secrets" / "deeper"
    os.umask(old := os.umask(0o022))
    try:
        write_private(folder / "password", "s3cret\n")
    finally:
        os.umask(old)
    assert (folder / "password").read_text() == "s3cret\n"
    assert oct((folder / "password").stat().st_mode & 0o777) == "0o600"
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    assert [p.name for p in folder.iterdir()] == ["password"]  # no temporary file left
    read = as_nobody(["cat", str(folder / "password")])
    assert read.returncode != 0 and "s3cret" not in read.stdout


def test_a_registry_replaced_by_a_link_is_refused(tmp_path):
    target = tmp_path / "elsewhere.sqlite"
    target.write_bytes(b"")
    (tmp_path / "decks.sqlite").symlink_to(target)
    with pytest.raises(SecretFileError, match="is a link"):
        keep_private(tmp_path / "decks.sqlite")
    keep_private(tmp_path / "fresh.sqlite")  # the control: a new one is made 0600
    assert oct((tmp_path / "fresh.sqlite").stat().st_mode & 0o777) == "0o600"
    assert NOBODY.pw_uid != os.getuid()
