"""``tricktable league bridge``: the mosquitto bridge that carries a club's results to the league.

``bridge_config(club, league_url, ...)`` is a mosquitto 2.x configuration section for the
club's own broker (put it in ``/etc/mosquitto/conf.d/league.conf``). It forwards the club's
``league/v1/{club}/hand``, ``game`` and ``night`` topics, and nothing else, to the league's
broker, and brings back the league's receipts (``league/v1/{club}/receipt``):

- TLS to the league (``mqtts://``, the league's CA in ``bridge_cafile``, the host name
  checked), with the club's own credentials: a user name and password (the league's ACL lets
  user ``{club}`` write only under ``league/v1/{club}/``), and/or a client certificate.
- QoS 1 end to end, a persistent bridge session (``cleansession false``), so what the
  league's broker has not acknowledged is sent again after any break.
- While the league is out of reach the club broker queues the messages for the bridge; with
  the club broker's ``persistence true`` (mqtt/mosquitto/mosquitto.conf) the queue is on
  disk and survives a restart of the club broker. ``max_queued_messages`` (there) bounds it:
  0 (unlimited) is the safe choice for a club whose league link may be down all night.
"""

from __future__ import annotations

from pathlib import Path

from tricktable.league.messages import KINDS, ROOT, check_ids
from tricktable.mqtt.url import BrokerConfigError, BrokerURL
from tricktable.protocol import ProtocolError


def bridge_config(club: str, league: str, ca_file: Path | None = None,
                  certfile: Path | None = None, keyfile: Path | None = None,
                  password: str | None = None, retry_max: int = 60) -> str:
    """The bridge section for club ``club`` to the league broker at ``league`` (a URL;
    credentials in it or in ``password`` with the club's id as the user name); a lost link is
    tried again after 2 s, backing off to ``retry_max`` seconds."""
    try:
        check_ids(club, None)
    except ProtocolError as exc:
        raise BrokerConfigError(str(exc)) from None
    url = BrokerURL.parse(league)
    if not url.tls and (ca_file or certfile):
        raise BrokerConfigError("a CA file or client certificate needs an mqtts:// league URL")
    if (certfile is None) != (keyfile is None):
        raise BrokerConfigError("a client certificate needs both --certfile and --keyfile")
    user = url.username or club
    secret = url.password or password
    lines = [
        f"# the league bridge of club {club} (tricktable league bridge; docs/league.md)",
        f"connection league-{club}",
        f"address {url.host}:{url.port}",
        f"remote_clientid league-bridge-{club}",
        f"local_clientid league-bridge-local-{club}",
        "bridge_protocol_version mqttv311",
        "try_private true",
        "# a persistent session at both ends: nothing dropped over a break",
        "cleansession false",
        "# a lost link: try again after 2 s, backing off to the second figure",
        f"restart_timeout 2 {max(2, retry_max)}",
        "keepalive_interval 30",
        "notifications true",
        "# the bridge's state ($SYS/broker/connection/...) stays on the club's broker",
        "notifications_local_only true",
        *(f"topic {ROOT}/{club}/{kind} out 1" for kind in KINDS),
        "# the league's receipts: what it has stored, so the club stops sending it",
        f"topic {ROOT}/{club}/receipt in 1",
    ]
    if secret is not None or certfile is None:
        lines.append(f"remote_username {user}")
    if secret is not None:
        lines.append(f"remote_password {secret}")
    if url.tls:
        lines.append(f"bridge_cafile {ca_file}" if ca_file else
                     "bridge_capath /etc/ssl/certs")
        lines.append("bridge_insecure false")
        if certfile is not None:
            lines += [f"bridge_certfile {certfile}", f"bridge_keyfile {keyfile}"]
    return "\n".join(lines) + "\n"


def league_acl() -> str:
    """The league broker's ACL: each club (user name = club id) writes and reads only its own
    topics (its results out, its receipts back); the league service reads every club's
    results and writes every club's receipts."""
    return (f"pattern readwrite {ROOT}/%u/#\n"
            "user league-service\n"
            f"topic read {ROOT}/#\n"
            f"topic write {ROOT}/+/receipt\n")
