"""``tricktable doctor``: before a night, one line per check, each passed or failed with the fix
in words, and whether a failure would stop the night.

``examine(settings, creds)`` checks, against the running ``up`` (or the club's own broker): the
broker, vouched for as ``up`` vouches for it (no password goes to a listener another user
holds), answers to the read-only ``tricktable-watch`` user (never a running part's user: the
broker binds client ids to users) and refuses a user with a made-up password (a broker that
checks no password, a distribution's mosquitto left running, lets anyone speak for the
boards); the TLS listener ``up``'s broker gives the boards answers
with a certificate of the club's CA for the boards' address; every board of the club file has a
retained status that says it is online, runs the club's firmware (``host.firmware``), has no
update refused or rolled back (a bundle whose signature or hash it refused), shares its id with
no other board (``fleet.health``: its session taken again and again), its Wi-Fi signal,
and its readers (down, or weak by the /fleet page's rules, ``fleet.health``); every seat has a
reader (a board's pad or a phone); a phone seat has a phone paired and reading, with battery
(warnings: phones are paired as players sit down); every table's
card deck and token decks are enrolled whole in the deck registry and were checked whole at the
reader within ``host.deck_check_days`` (else a warning); the journal's disk has
``host.min_free_mb`` free; the TV, phone and console pages are served. Each :class:`Check` says
whether it ``stops`` the night (the exit status) or only warns.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
import shutil
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt

from tricktable.appliance.credentials import WATCH_USER, Credentials
from tricktable.appliance.settings import Settings
from tricktable.appliance.up import WILDCARD, UpError, addresses, boards_entry, existing_broker
from tricktable.clubfile import TableConfig
from tricktable.deckkit.decks import DeckCheck, Registry, RegistryError
from tricktable.fleet.health import flags
from tricktable.mqtt.client import new_client, start_client, stop_client
from tricktable.mqtt.url import BrokerConfigError, BrokerURL
from tricktable.protocol import (
    MAX_STATUS_MESSAGE,
    BoardStatus,
    ProtocolError,
    Topics,
    decode,
    phone_reader_seat,
)
from tricktable.rules import get_variant
from tricktable.web.pairings import seat_words, table_words

WEAK_RSSI_DBM = -80  # below this a board's Wi-Fi drops plays now and then
WAIT_S = 5.0
STRANGER = "tricktable-doctor-stranger"  # no broker of the club's has this user


@dataclass(frozen=True)
class Check:
    """One line of the doctor: what was checked, passed or not, the fix, and whether it stops
    the night (False: a warning)."""

    ok: bool
    what: str
    fix: str = ""
    stops: bool = True

    def line(self) -> str:
        if self.ok:
            return f"✓ {self.what}"
        return f"{'✗' if self.stops else '!'} {self.what}: {self.fix}"


def _statuses(settings: Settings, creds: Credentials) -> tuple[Check, dict[str, bytes]]:
    """Connect as the read-only watch user (never as a running part: the broker binds client
    ids to users); the broker's check and every board's retained status."""
    url = settings.broker
    where = f"{'mqtts' if url.tls else 'mqtt'}://{url.host}:{url.port}"
    try:
        password = creds.read(WATCH_USER)
    except OSError:
        return Check(False, f"broker {where}", f"no {WATCH_USER} password in {creds.folder}: run "
                     "`tricktable up` once with this --data"), {}
    try:  # the same proof up asks for before it sends a password
        existing_broker(settings)
    except UpError as exc:
        return Check(False, f"broker {where}", f"not vouched for, no password sent: {exc}"), {}
    answer: list[int] = []
    subscribed = threading.Event()
    statuses: dict[str, bytes] = {}
    topics = Topics(settings.club.prefix)
    wildcard = topics.board_status("+")

    def connected(c: mqtt.Client, _u: object, _f: object, reason: mqtt.ReasonCode,
                  _p: object = None) -> None:
        answer.append(reason.value)
        if not reason.is_failure:
            c.subscribe(wildcard, qos=1)

    def message(_c: mqtt.Client, _u: object, msg: mqtt.MQTTMessage) -> None:
        statuses[msg.topic.split("/")[-2]] = bytes(msg.payload)

    try:
        client = new_client(dataclasses.replace(url, username=WATCH_USER, password=password),
                            client_id=WATCH_USER)
        client.on_connect = connected
        client.on_subscribe = lambda *a: subscribed.set()
        client.on_message = message
        start_client(client, url, keepalive=10)
    except (OSError, BrokerConfigError) as exc:
        return Check(False, f"broker {where}", f"it does not answer ({exc}): start "
                     "`tricktable up` (it starts one) or the club's mosquitto"), {}
    try:
        if not subscribed.wait(WAIT_S):
            if answer and answer[0] != 0:
                return Check(False, f"broker {where}", f"it refuses {WATCH_USER}'s password "
                             f"(reason {answer[0]}): add the user with the password in "
                             f"{creds.file(WATCH_USER)} (`tricktable up` does it for its own "
                             "broker)"), {}
            return Check(False, f"broker {where}", "it accepted the connection but did "
                         "not answer in time: check the broker's log"), {}
        threading.Event().wait(0.5)  # the retained statuses follow the subscription at once
    finally:
        stop_client(client)
    if _lets_in(url, STRANGER, secrets.token_hex(16)):  # the watch user is the positive control
        return Check(False, f"broker {where} lets in a password nobody was given", "it checks "
                     "no password, so anyone who reaches it can speak for the boards and "
                     "the host: stop that broker (a distribution's mosquitto: `systemctl "
                     "disable --now mosquitto`) and let `tricktable up` start the club's "
                     "own"), dict(statuses)
    return Check(True, f"broker {where} answers to {WATCH_USER} and refuses a wrong "
                 "password"), dict(statuses)


def _lets_in(url: BrokerURL, username: str, password: str) -> bool:
    """Whether the broker at ``url`` accepts ``username`` with ``password`` (no answer in
    time counts as refused)."""
    answered = threading.Event()
    accepted: list[bool] = []

    def connected(_c: mqtt.Client, _u: object, _f: object, reason: mqtt.ReasonCode,
                  _p: object = None) -> None:
        accepted.append(not reason.is_failure)
        answered.set()

    client = new_client(dataclasses.replace(url, username=username, password=password),
                        client_id=f"{username}-{secrets.token_hex(4)}")
    client.on_connect = connected
    try:
        start_client(client, url, keepalive=10)
    except OSError:
        return False
    try:
        answered.wait(WAIT_S)
    finally:
        stop_client(client)
    return accepted == [True]


def _seats(table: TableConfig) -> list[Check]:
    """A seat that nothing reads (no board pad, no phone) cannot play a card."""
    seats = len(table.players) or max(get_variant(table.variant).seat_counts)
    read = set(table.pads.values())
    return [Check(False, f"{table_words(table.id)}: {seat_words(seat)} has no reader",
                  f"give it a board's pad (tables.{table.id}.pads) or a phone "
                  f"(tables.{table.id}.phones) in the club file")
            for seat in range(seats) if seat not in read]


def _phone(table: TableConfig, seat: int, payload: bytes | None) -> list[Check]:
    """A seat read by a phone: paired and reading (a warning only: phones are paired as the
    players sit down, on the console's phones page)."""
    where = f"{seat_words(seat)} at {table_words(table.id)}"
    status = None
    if payload:
        try:
            status = decode(BoardStatus, payload, MAX_STATUS_MESSAGE)
        except ProtocolError:
            status = None
    if status is None:
        return [Check(False, f"{where} (a phone seat) has no phone yet", "pair one with its "
                      "QR code on the console's phones page (/phones)", stops=False)]
    if not status.online:
        return [Check(False, f"the phone at {where} is offline", "open the seat page on it "
                      "again (or pair another phone)", stops=False)]
    battery = f", battery {status.battery} %" if status.battery is not None else ""
    low = [f for f in flags(status, 0) if f.startswith("battery")]
    if low:
        return [Check(False, f"the phone at {where}: {low[0]}", "charge it before the night",
                      stops=False)]
    return [Check(True, f"the phone at {where} reads{battery}")]


def _board(settings: Settings, board: str, payload: bytes | None) -> list[Check]:
    if payload is None:
        return [Check(False, f"board {board}", "has never reported on this broker: power it "
                      "and check it was set up for this club (`tricktable board setup`)")]
    try:
        status = decode(BoardStatus, payload, MAX_STATUS_MESSAGE)
    except ProtocolError as exc:
        return [Check(False, f"board {board}", f"its status cannot be read ({exc}): update "
                      "its firmware (`tricktable fleet update`)")]
    if not status.online:
        return [Check(False, f"board {board} offline", "power it on and check its Wi-Fi "
                      "(its display shows the Wi-Fi and broker state while it connects)")]
    out = []
    wanted = settings.firmware
    if wanted is not None and status.fw != wanted:
        out.append(Check(False, f"board {board} runs firmware {status.fw or 'unknown'}",
                         f"the club's is {wanted}: `tricktable fleet update`"))
    update = status.update
    if update is not None and update.state in ("refused", "rolled_back"):
        out.append(Check(False, f"board {board}: update {update.version} "
                         f"{update.state.replace('_', ' ')}",
                         f"{update.reason or 'the bundle was not accepted'}: build the "
                         "bundle again with the club's key (`tricktable fleet`)"))
    if status.rssi is not None and status.rssi < WEAK_RSSI_DBM:
        out.append(Check(False, f"board {board} Wi-Fi {status.rssi} dBm",
                         "weak: move the access point closer or the board away from metal",
                         stops=False))
    for flag in flags(status, 0):
        if "reader down" in flag:
            out.append(Check(False, f"board {board} {flag}", "reseat the reader's cable; "
                             "the seat cannot play until it reads"))
        elif flag.startswith("two boards answer"):
            out.append(Check(False, f"board {board}: {flag.split(': ')[0]}", "acks and "
                             "verdicts reach the wrong board: give each board its own id "
                             "(`tricktable board setup`)"))
        elif "weak reader" in flag:
            out.append(Check(False, f"board {board} {flag}", "clean the pad, check its "
                             "antenna cable; players will need a second tap", stops=False))
    if not out:
        signal = f", Wi-Fi {status.rssi} dBm" if status.rssi is not None else ""
        out.append(Check(True, f"board {board} online, firmware {status.fw or '?'}{signal}, "
                         "readers fine"))
    return out


def _checked(settings: Settings, at: str, deck: int, last: DeckCheck | None,
             now: float) -> Check:
    """An enrolled deck, by its last check at the reader (a warning when it is old or found
    something: a card may have gone missing since)."""
    again = f"check it before the night: `tricktable deck check --deck {deck} ...`"
    if last is None:
        return Check(False, f"{at} enrolled, never checked at the reader", again, stops=False)
    days = (now - last.at) / 86400
    when = f"checked {days:.0f} day{'s' if round(days) != 1 else ''} ago"
    if not last.ok:
        return Check(False, f"{at} enrolled, {when} with cards missing or foreign", again,
                     stops=False)
    if days > settings.deck_check_days:
        return Check(False, f"{at} enrolled, {when}", f"more than host.deck_check_days "
                     f"({settings.deck_check_days}): {again}", stops=False)
    return Check(True, f"{at} enrolled, {when}, whole")


def _decks(settings: Settings) -> list[Check]:
    path = settings.club.registry
    if path is None:
        return [Check(False, "deck registry", "the club file names none (club.registry): "
                      "make one with `tricktable club init` or enroll the decks "
                      "(`tricktable enroll`), and name the file in the club file")]
    if not path.exists():
        return [Check(False, "deck registry", f"there is none at {path}: make one with "
                      "`tricktable club init` or enroll the decks (`tricktable enroll`)")]
    wanted: dict[int, list[str]] = {}
    for table in settings.club.tables.values():
        for deck in ([table.deck] if table.deck is not None else []) + list(table.token_decks):
            wanted.setdefault(deck, []).append(table.id)
    out = []
    now = time.time()
    try:
        with Registry(path, readonly=True) as registry:
            for deck, tables in sorted(wanted.items()):
                at = f"deck {deck} ({', '.join(tables)})"
                if registry.deck(deck) is None:
                    out.append(Check(False, f"{at} not enrolled",
                                     f"`tricktable enroll --deck {deck} ...` at the USB reader"))
                    continue
                have, size = len(registry.enrolled(deck)), len(registry.slots(deck))
                if have < size:
                    out.append(Check(False, f"{at} has {have}/{size} tags enrolled",
                                     f"finish it: `tricktable enroll --deck {deck} ...`"))
                    continue
                out.append(_checked(settings, at, deck, registry.last_check(deck), now))
    except RegistryError as exc:
        return [Check(False, "deck registry", f"{exc}")]
    return out


def _disk(settings: Settings) -> Check:
    folder = settings.journal.parent
    while not folder.exists():
        folder = folder.parent
    free_mb = shutil.disk_usage(folder).free // (1024 * 1024)
    what = f"disk of {settings.journal.parent}: {free_mb} MB free"
    if free_mb < settings.min_free_mb:
        return Check(False, what, f"a night needs {settings.min_free_mb} MB "
                     "(host.min_free_mb): free some space")
    return Check(True, what)


def _pages(settings: Settings) -> list[Check]:
    out = []
    https = settings.web_https
    checked = ssl.create_default_context(cafile=https[2]) if https and https[2] else None
    for place in addresses(settings):
        try:
            with urllib.request.urlopen(place.url, timeout=WAIT_S, context=checked
                                        if place.url.startswith("https:") else None) as response:
                ok = response.status == 200
        except OSError:
            ok = False
        out.append(Check(True, f"{place.what} page {place.url} served") if ok else
                   Check(False, f"{place.what} page {place.url} not served",
                         "start `tricktable up` (or `systemctl start tricktable`); "
                         "`tricktable log` says why a part stopped"))
    return out


def _backups(settings: Settings) -> Check:
    folder = settings.backups
    probe: Path = folder
    while not probe.exists():
        probe = probe.parent
    if not os.access(probe, os.W_OK):
        return Check(False, f"backups to {folder}", "cannot write there: plug in the USB "
                     "stick or fix host.backups", stops=False)
    return Check(True, f"backups to {folder}")


def _boards_tls(settings: Settings) -> list[Check]:
    """The TLS listener ``up``'s broker gives the boards: it answers with a certificate the
    club's CA signed, for the address the boards are told (none to check without up's CA)."""
    entry = boards_entry(settings)
    if entry.ca is None or not entry.ca.exists():
        return []
    host = urllib.parse.urlsplit(entry.url).hostname or ""
    what = f"TLS for the boards at {entry.url}"
    near = "127.0.0.1" if settings.listen in WILDCARD else settings.listen
    try:
        context = ssl.create_default_context(cafile=str(entry.ca))
        with socket.create_connection((near, settings.tls_port), timeout=WAIT_S) as raw, \
                context.wrap_socket(raw, server_hostname=host):
            pass
    except ssl.SSLCertVerificationError as exc:
        return [Check(False, what, f"its certificate does not verify with {entry.ca} "
                      f"({exc.verify_message}): restart `tricktable up` (it makes the "
                      "certificate again for this machine's names and addresses)")]
    except (OSError, ssl.SSLError) as exc:
        return [Check(False, what, f"no TLS answer ({exc}): is `tricktable up` running?")]
    return [Check(True, f"{what} answers with the club's certificate ({entry.ca})")]


def examine(settings: Settings, creds: Credentials) -> list[Check]:
    """Every check, in the order they are printed."""
    broker, statuses = _statuses(settings, creds)
    checks = [broker, *_boards_tls(settings)]
    if broker.ok:
        for table in settings.club.tables.values():
            checks += _seats(table)
            for board in table.boards:
                seat = phone_reader_seat(board, table.id)
                checks += (_board(settings, board, statuses.get(board)) if seat is None
                           else _phone(table, seat, statuses.get(board)))
    checks += _decks(settings)
    checks.append(_disk(settings))
    checks.append(_backups(settings))
    checks += _pages(settings)
    return checks
