"""What ``tricktable up`` refuses before it starts anything (docs/appliance.md, "The club
file's [host] section"): a key it does not know, an address that is not HOST:PORT, a night
file that is not there, a TLS switch or port it cannot use; each in one line naming the key or file, exit status 1, and no
process, secret or log left behind.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from tricktable.cli import main

CLUB = '[club]\nname = "c"\n[tables.t1]\nvariant = "bid-euchre"\n[host]\n'


@pytest.mark.parametrize(("host", "message"), [
    ('nigth = "n.json"\n', "host.nigth: unknown key; known: backups, broker"),
    ('web = "8080"\n', "host.web: '8080' is not HOST:PORT (e.g. 0.0.0.0:8080)"),
    ('keep = 0\n', "host.keep: expected a whole number >= 1, got 0"),
    ('broker = "http://x"\n', "host.broker: bad broker URL 'http://x'"),
    ('night = "missing.json"\n', "no night file at"),
    ('tls = "yes"\n', "host.tls: expected true or false, got 'yes'"),
    ('tls_port = 88830\n', "host.tls_port: expected a whole number from 1 to 65535, got 88830"),
    ('tls_port = 1883\n', "host.tls_port: 1883 is host.broker's port too"),
], ids=["unknown key", "address", "keep", "broker", "night", "tls", "tls port", "same port"])
def test_up_refuses_a_host_section_it_cannot_use_before_starting_anything(tmp_path, host,
                                                                          message):
    (tmp_path / "club.toml").write_text(CLUB + host)
    result = CliRunner().invoke(main, ["up", "--club", str(tmp_path / "club.toml"),
                                       "--data", str(tmp_path / "data")])
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert result.exit_code == 1 and len(errors) == 1 and message in errors[0], result.output
    assert not (tmp_path / "data").exists()
