"""The demo: simulated tables playing whole games on the real stack, with no hardware.

``Demo(DemoConfig(...))`` starts, in this order: an MQTT broker (embedded: mosquitto where
installed, else amqtt; or the one given by URL), a fresh run directory with a deck registry
(one enrolled card deck and token set per table, ``sim.kit``) and a journal, the host
service (``tricktable.serve.service``) for a club of N tables, the web scoreboard, and one asyncio
thread in which every seat's virtual board runs the real firmware (``sim.boards``) and the
bots of each table play (``sim.table_sim``). Games follow one another until ``games`` are
done (0: until stopped). With ``night``, the demo plays a whole club night instead: a roster
of bots, a progressive night (``night.json`` in the run directory) kept by the tables as
``tricktable serve --night`` keeps it (``club.live``), one display board per table, and the
bots finding their seats on those displays (``sim.room``) game after game; the web scoreboard
shows the night's standings; with ``club_db``, the night's statistics are counted there as
hands score (``stats.follow``) and the scoreboard serves the club's leaderboard and player
pages too. ``stop()`` ends everything it started, in reverse order, and is
safe to call at any point (Ctrl-C). ``summaries`` says how each game went;
``export_histories()`` writes each game from the journal as a hand history that
``tricktable verify`` checks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import ssl
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tricktable import protocol
from tricktable.club.live import LiveNight
from tricktable.club.night_games import night_variants
from tricktable.club.store import save_night
from tricktable.club.tournament import ProgressiveOptions, ProgressiveTournament
from tricktable.clubfile import parse_club
from tricktable.deckkit.decks import Registry
from tricktable.demo.director import DemoDirector
from tricktable.history import write_text
from tricktable.mqtt.broker import BrokerHandle, start_broker
from tricktable.mqtt.client import new_client, start_client, stop_client
from tricktable.rules import get_variant
from tricktable.rules.base import build_options
from tricktable.serve.journal import Journal
from tricktable.serve.service import BrokerURL, Service
from tricktable.sim.boards import Screen, SeatBoard
from tricktable.sim.bots import Bot
from tricktable.sim.kit import Kit
from tricktable.sim.room import SEAT_LETTERS, Room
from tricktable.sim.table_sim import GameSummary, Seat, SimTable, deck_cards
from tricktable.stats.follow import StatsFollower
from tricktable.web.pairings import PairingStore
from tricktable.web.server import Scoreboard

log = logging.getLogger("tricktable.demo.runner")

BASE_PACE_S = 0.6  # seconds between plays at --speed 1
CONNECT_TIMEOUT_S = 15.0
PHONE_TABLE = "t1"  # with --phones, the table read by phones
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou",
         "Max", "Ned", "Olive", "Pat", "Quin", "Ray", "Sue", "Tom", "Una", "Vic", "Wes", "Xan"]
REVOKE_MODES = ("strict", "record")


class DemoError(RuntimeError):
    """The demo cannot start as asked, or a simulated table stopped with an error."""


@dataclass
class DemoConfig:
    """What ``tricktable demo`` was asked for (see its --help)."""

    variant: str = "bid-euchre"
    tables: int = 1
    speed: float = 1.0  # 0: as fast as the stack goes
    revoke_rate: float = 0.01
    revoke_mode: str = "record"
    options: dict[str, Any] = field(default_factory=dict)  # more house rules of the variant
    games: int = 0  # per table; 0: until stopped
    broker: str | None = None  # mqtt:// URL; None: start one
    ca_file: str | None = None  # the CA that signed an mqtts:// broker's certificate (PEM)
    web_host: str = "127.0.0.1"
    web_port: int | None = 8080  # None: no web scoreboard
    seed: int | None = None
    workdir: Path | None = None
    prefix: str = protocol.DEFAULT_PREFIX
    night: bool = False  # play a whole club night (rounds, hands) instead of games
    rounds: int = ProgressiveOptions.rounds  # games of the night
    hands: int = ProgressiveOptions.hands_per_round  # hands of the head table per game
    club_db: Path | None = None  # with night: count the night's statistics in this database
    night_name: str | None = None  # the night's name there (default: the run directory's)
    director: bool = False  # with night: do each of the console's corrections once
    phones: bool = False  # table t1 read by phones: its seat pages, played by hand

    def check(self) -> None:
        """Refuse what cannot work, naming the option."""
        variant = get_variant(self.variant)  # UnknownVariant names the known ones
        build_options(variant.Options, {**self.options, "revoke_mode": self.revoke_mode},
                      variant.name)  # OptionError names the option
        if not 1 <= self.tables <= 64:
            raise DemoError(f"--tables must be 1..64, got {self.tables}")
        if self.speed < 0:
            raise DemoError(f"--speed must be 0 (fastest) or more, got {self.speed}")
        if not 0 <= self.revoke_rate <= 1:
            raise DemoError(f"--revoke-rate must be between 0 and 1, got {self.revoke_rate}")
        if self.revoke_mode not in REVOKE_MODES:
            raise DemoError(f"--revoke-mode must be strict or record, got {self.revoke_mode!r}")
        if self.broker is not None and BrokerURL.parse(self.broker).tls and not self.ca_file:
            raise DemoError("--broker mqtts:// needs --ca-file: the simulated boards, like real "
                            "ones, trust only the club's CA")
        if self.games < 0:
            raise DemoError(f"--games must be 0 (until stopped) or more, got {self.games}")
        if self.night:
            ProgressiveOptions(hands_per_round=self.hands, rounds=self.rounds)  # ClubError
            if variant.name not in night_variants():
                raise DemoError(f"a club night plays four-seat games of two partnerships; "
                                f"{self.variant} is not one")
        if self.phones and (self.night or self.web_port is None):
            raise DemoError("--phones plays table 1 by hand on its seat pages: it needs the "
                            "web scoreboard, and no --night")
        if self.director and (not self.night or self.tables < 2 or self.rounds < 2):
            raise DemoError("--director rehearses a night's corrections: it needs --night, "
                            "two tables or more and two games or more")

    @property
    def pace_s(self) -> float:
        return 0.0 if self.speed == 0 else BASE_PACE_S / self.speed


@dataclass
class _Started:
    """What the demo started, so that stop() ends exactly that."""

    broker: BrokerHandle | None = None
    registry: Registry | None = None
    journal: Journal | None = None
    service: Service | None = None
    scoreboard: Scoreboard | None = None
    world: threading.Thread | None = None
    unlisten: Any = None
    night: LiveNight | None = None
    stats: StatsFollower | None = None
    director: DemoDirector | None = None


@dataclass
class Demo:
    config: DemoConfig
    summaries: list[GameSummary] = field(default_factory=list)
    run_dir: Path | None = None
    error: BaseException | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.config.check()
        self._started = _Started()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._halt: asyncio.Event | None = None
        self._sims: dict[str, SimTable] = {}
        self._room: Room | None = None
        self._ready = threading.Event()
        self._broker: BrokerURL | None = None

    # -- what the demo shows -----------------------------------------------------------------
    @property
    def journal_path(self) -> Path:
        assert self.run_dir is not None
        return self.run_dir / "journal.sqlite"

    @property
    def web_url(self) -> str | None:
        board = self._started.scoreboard
        return board.url if board else None

    @property
    def scoreboard(self) -> Scoreboard | None:
        return self._started.scoreboard

    @property
    def night_path(self) -> Path:
        assert self.run_dir is not None
        return self.run_dir / "night.json"

    @property
    def room(self) -> Room | None:
        """The night's bots and display boards (with ``night``)."""
        return self._room

    @property
    def broker(self) -> BrokerURL | None:
        return self._broker

    # -- start ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Start everything; on any failure, stop what was started and raise."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        cfg, s = self.config, self._started
        if cfg.broker is None:
            s.broker = start_broker()
            broker = self._broker = BrokerURL(s.broker.host, s.broker.port)
        else:
            broker = self._broker = BrokerURL.parse(cfg.broker)
        self.run_dir = _run_dir(cfg.workdir)
        s.registry = Registry(self.run_dir / "decks.sqlite")
        rng = random.Random(cfg.seed)
        club = parse_club(_club_doc(cfg), self.run_dir)
        kits = {table_id: Kit.enroll(s.registry, t, deck_cards(table.setup()),
                                     card_deck=table.deck, token_deck=table.token_decks[0])
                for t, (table_id, table) in enumerate(club.tables.items())}
        s.journal = Journal(self.journal_path)
        s.service = Service(club, s.journal, s.registry, broker,
                            client_id=f"tricktable-demo-{os.getpid()}-{id(self)}",
                            ca_file=cfg.ca_file)
        s.service.start()
        if not s.service.connected.wait(CONNECT_TIMEOUT_S):
            raise DemoError(f"the host service could not reach the broker at "
                            f"{broker.host}:{broker.port}")
        if cfg.night:
            save_night(ProgressiveTournament.new(
                roster(4 * cfg.tables), cfg.tables,
                ProgressiveOptions(hands_per_round=cfg.hands, rounds=cfg.rounds),
                shuffle_seed=rng.randrange(2**32)), self.night_path)
            s.night = LiveNight(self.night_path, club, s.journal)
            s.night.start(s.service)
            s.director = DemoDirector(s.night, cfg.seed, cfg.director)
            if cfg.club_db is not None:
                s.stats = StatsFollower(cfg.club_db, cfg.night_name or self.run_dir.name,
                                        s.journal, self.night_path)
                s.stats.start(s.service)
        if cfg.web_port is not None:
            s.scoreboard = Scoreboard(broker.host, broker.port, host=cfg.web_host,
                                      port=cfg.web_port, prefix=cfg.prefix,
                                      username=broker.username,
                                      password=broker.password, tls=broker.tls,
                                      ca_file=cfg.ca_file, journal=self.journal_path,
                                      night=self.night_path if cfg.night else None,
                                      club_db=cfg.club_db if cfg.night else None,
                                      pairings=self.run_dir / "phones.sqlite" if cfg.phones
                                      else None,
                                      standin=standin_tags(kits[PHONE_TABLE]) if cfg.phones
                                      else None)
            s.scoreboard.start()
        board_broker = self._board_broker(broker)
        for table_id, table in club.tables.items():
            if table.phones:  # played by hand on its seat pages
                continue
            seats = []
            for seat, name in enumerate(table.players):
                board = SeatBoard(f"{table_id}-{name.lower()}", table_id, board_broker,
                                  prefix=cfg.prefix,
                                  storage=self.run_dir / "boards" / f"{table_id}-{seat}")
                bot = Bot(seat, cfg.variant, random.Random(rng.random()), cfg.revoke_rate)
                seats.append(Seat(board, 0, bot))
            self._sims[table_id] = SimTable(table_id, table.setup(), seats, kits[table_id],
                                            random.Random(rng.random()), cfg.pace_s,
                                            self._host_actions(table_id))
        if cfg.night:
            self._room = self._night_room(club.tables, board_broker, rng)
        s.unlisten = s.service.listen(self._heard)
        s.world = threading.Thread(target=self._world, name="demo-boards", daemon=True)
        s.world.start()
        self._ready.wait(CONNECT_TIMEOUT_S * 2)
        if self.error is not None:
            raise DemoError(f"the simulated tables did not start: {self.error}")

    def _board_broker(self, broker: BrokerURL) -> dict[str, Any]:
        """The simulated boards' config.json ``broker``: with TLS, the CA as the DER file a
        board's mbedTLS reads (firmware/README.md, "TLS")."""
        board_broker: dict[str, Any] = {"host": broker.host, "port": broker.port,
                                        "user": broker.username, "password": broker.password}
        if broker.tls:
            assert self.run_dir is not None and self.config.ca_file is not None
            der = self.run_dir / "boards" / "ca.der"
            der.parent.mkdir(parents=True, exist_ok=True)
            try:
                der.write_bytes(ssl.PEM_cert_to_DER_cert(Path(self.config.ca_file).read_text()))
            except (OSError, ValueError) as exc:
                raise DemoError(f"cannot use CA file {self.config.ca_file!r}: {exc}") from None
            board_broker.update(tls=True, ca=str(der))
        return board_broker

    def _host_actions(self, table: str) -> Any:
        """How a simulated table reads the host's game again after a correction."""
        def actions() -> list[dict[str, Any]]:
            journal = self._started.journal
            assert journal is not None
            return journal.games(table)[-1].actions
        return actions

    def _night_room(self, tables: Any, broker: dict[str, Any], rng: random.Random) -> Room:
        """A bot per player of the night, and a display board per table."""
        cfg = self.config
        assert self.run_dir is not None

        def bot(_name: str) -> Bot:
            return Bot(0, cfg.variant, random.Random(rng.random()), cfg.revoke_rate)

        bots = {name: bot(name) for name in roster(4 * cfg.tables)}
        displays = [SeatBoard(f"{t}-display", t, broker, prefix=cfg.prefix,
                              storage=self.run_dir / "boards" / f"{t}-display", pads=0,
                              screen=Screen()) for t in tables]
        journal = self._started.journal
        assert journal is not None

        def game_of(table: str) -> tuple[int, dict[str, Any]]:
            record = journal.games(table)[-1]  # the game the night started there
            return record.game, record.setup

        service = self._started.service

        async def take_back(table: str) -> None:
            assert service is not None
            log.warning("table %s: a play went into the next game; the director undoes it",
                        table)
            await asyncio.to_thread(service.control, table, protocol.Control(cmd="undo"))

        live = self._started.night
        assert live is not None

        def present() -> list[str]:  # the night's players now (arrivals in, leavers out)
            return list(live.night.present())

        def seat_of(name: str) -> tuple[int, int, str] | None:  # the /seat page
            night = live.night
            for number, players in enumerate(night.seating, 1):
                if name in players:
                    return night.round, number, SEAT_LETTERS[players.index(name)]
            return (night.round, 0, "BYE") if name in night.bench else None

        room = Room(bots, list(self._sims.values()), displays, cfg.rounds, cfg.hands, game_of,
                    take_back, present, seat_of, bot)
        room.summaries = self.summaries
        return room

    # -- the boards' world (one asyncio loop) ------------------------------------------------
    def _heard(self, topic: str, payload: bytes) -> None:
        """Every message the host publishes: pass table events to the simulated table (and
        tables' displays to the night's room, as the players see them)."""
        loop = self._loop
        leaf = topic.rsplit("/", 1)[-1]
        if loop is None or leaf not in ("events", "display"):
            return
        try:
            scope, table, _leaf = protocol.Topics(self.config.prefix).parse(topic)
            message = json.loads(payload)
        except (protocol.ProtocolError, ValueError):
            return
        sim = self._sims.get(table) if scope == "table" else None
        if sim is None or loop.is_closed():
            return
        if leaf == "events":
            loop.call_soon_threadsafe(sim.on_event, message)
        elif self._room is not None:
            loop.call_soon_threadsafe(self._room.on_display, table, message)

    def _world(self) -> None:
        try:
            asyncio.run(self._play_all())
        except BaseException as exc:  # reported by wait()/start(), never lost in a thread
            self.error = exc
            log.error("the simulated tables stopped: %s", exc)
        finally:
            self._ready.set()
            self.finished.set()

    async def _play_all(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._halt = asyncio.Event()
        boards = [seat.board for sim in self._sims.values() for seat in sim.seats]
        boards += self._room.displays if self._room is not None else []
        running = [asyncio.create_task(board.run()) for board in boards]
        try:
            await asyncio.gather(*(board.ready(CONNECT_TIMEOUT_S) for board in boards))
            self._ready.set()
            by_hand = [self._halt.wait()] if self.config.phones else []  # until stopped
            games = asyncio.gather(self._room.play(), self._direct(self._room.done)) \
                if self._room is not None else \
                asyncio.gather(*(self._play_table(sim) for sim in self._sims.values()),
                               *by_hand)
            halt = asyncio.create_task(self._halt.wait())
            await asyncio.wait([games, halt], return_when=asyncio.FIRST_COMPLETED)
            halt.cancel()
            if games.done():
                games.result()
            else:
                games.cancel()
                await asyncio.gather(games, return_exceptions=True)
        finally:
            for board in boards:
                try:
                    await asyncio.wait_for(board.stop(), 2)
                except (TimeoutError, OSError):
                    pass
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)

    async def _direct(self, over: asyncio.Event) -> None:
        """The night's director (``demo_director``): ties, and with ``director`` each
        correction once."""
        assert self._started.director is not None
        await self._started.director.run(over)

    def seat_pages(self) -> list[str]:
        """With ``phones``: table 1's seat pages, each paired (a new pairing per call)."""
        assert self.run_dir is not None and self._started.scoreboard is not None
        store = PairingStore(self.run_dir / "phones.sqlite")
        url = self._started.scoreboard.url
        seats = len(_club_doc(self.config)["tables"][PHONE_TABLE]["players"])
        return [f"{url}/pad#pair={store.pair(PHONE_TABLE, seat, 'demo').credential}"
                for seat in range(seats)]

    @property
    def director(self) -> DemoDirector | None:
        """The night's director: what it corrected (``done``) and could not (``missing``)."""
        return self._started.director

    async def _play_table(self, sim: SimTable) -> None:
        service = self._started.service
        assert service is not None
        played = 0
        while not self.config.games or played < self.config.games:
            if played:
                result = await asyncio.to_thread(
                    service.control, sim.table, protocol.Control(cmd="new_game"))
                if result is None or not result.ok:
                    raise DemoError(f"table {sim.table}: the host did not start a new game")
            self.summaries.append(await sim.play_game())
            played += 1

    # -- faults (for soaks) ---------------------------------------------------------------------
    def boards(self) -> list[str]:
        """Every virtual board's id."""
        return [seat.board.id for sim in self._sims.values() for seat in sim.seats]

    def power_cycle(self, board_id: str) -> None:
        """Cut a virtual board's power; it boots again from its flash (thread-safe)."""
        board = next(seat.board for sim in self._sims.values() for seat in sim.seats
                     if seat.board.id == board_id)
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(board.power_cycle)

    def restart_broker(self, down_for: float = 1.0) -> None:
        """Stop the broker the demo started and start it again on its port."""
        if self._started.broker is None:
            raise DemoError("the demo did not start the broker (--broker was given)")
        self._started.broker.restart(down_for=down_for)

    # -- wait, stop ----------------------------------------------------------------------------
    def wait(self, timeout: float | None = None) -> bool:
        """Wait until every table played its games (or failed); True when finished."""
        done = self.finished.wait(timeout)
        if self.error is not None:
            raise DemoError(f"a simulated table stopped: {self.error}") from self.error
        return done

    def export_histories(self) -> list[Path]:
        """Write each finished game as a hand history (``{table}-game{n}.txt``) in the run
        directory, from the journal; ``tricktable verify`` checks them. Call after stop()."""
        written = []
        with Journal(self.journal_path) as journal:
            for summary in self.summaries:
                record = journal.history(summary.table, summary.game)
                path = self.journal_path.parent / f"{summary.table}-game{summary.game}.txt"
                path.write_text(write_text(record))
                written.append(path)
        return written

    def stop(self) -> None:
        """End everything the demo started, newest first. Safe to call twice. On a broker it
        did not start, it then clears every retained message it left there."""
        s = self._started
        cleanup = s.service is not None and s.broker is None
        loop, halt = self._loop, self._halt
        if s.world is not None and loop is not None and halt is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(halt.set)
            except RuntimeError:  # the loop closed in between
                pass
        if s.world is not None:
            s.world.join(15)
            s.world = None
        if s.unlisten is not None:
            s.unlisten()
            s.unlisten = None
        if s.night is not None:
            s.night.stop()
            s.night = None
        if s.stats is not None:  # after the night: it closes a night that is over
            s.stats.stop()
            s.stats = None
        for name in ("scoreboard", "service"):
            part = getattr(s, name)
            if part is not None:
                part.stop()
                setattr(s, name, None)
        for name in ("journal", "registry"):
            part = getattr(s, name)
            if part is not None:
                part.close()
                setattr(s, name, None)
        if cleanup and self._broker is not None:
            _clear_retained(self._broker, self.config.prefix, self._sims, self.config.ca_file)
        if s.broker is not None:
            s.broker.stop()
            s.broker = None


def _clear_retained(broker: BrokerURL, prefix: str, sims: dict[str, SimTable],
                    ca_file: str | None) -> None:
    """Empty every retained topic the demo's host and boards wrote on someone else's broker."""
    topics = protocol.Topics(prefix)
    retained = [topics.host_status()]
    for table, sim in sims.items():
        retained += [topics.state(table), topics.display(table)]
        for seat in sim.seats:
            retained += [topics.config(seat.board.id), topics.board_status(seat.board.id)]
    client = new_client(broker, ca_file=ca_file)
    try:
        start_client(client, broker)
        for info in [client.publish(t, b"", qos=1, retain=True) for t in retained]:
            info.wait_for_publish(5)
    except (OSError, RuntimeError, ValueError) as exc:
        log.warning("could not clear the demo's retained messages on %s:%s: %s", broker.host,
                    broker.port, exc)
    finally:
        stop_client(client)


def _club_doc(cfg: DemoConfig) -> dict[str, Any]:
    """The club file of the demo (as parsed TOML): N tables of four players (or as many as
    the variant needs), one board per seat."""
    counts = get_variant(cfg.variant).seat_counts
    seats = 4 if 4 in counts else counts[0]
    tables = {}
    for t in range(cfg.tables):
        table_id = f"t{t + 1}"
        players = [NAMES[(seats * t + i) % len(NAMES)] for i in range(seats)]
        tables[table_id] = {
            **({"displays": [f"{table_id}-display"]} if cfg.night else {}),
            "variant": cfg.variant,
            "players": players,
            "dealer": t % 4,
            "deck": 1 + t,
            "token_decks": [1001 + t],
            "options": {**cfg.options, "revoke_mode": cfg.revoke_mode},
            **({"phones": list(range(seats))} if cfg.phones and table_id == PHONE_TABLE else
               {"pads": {f"{table_id}-{name.lower()}:0": seat
                         for seat, name in enumerate(players)}}),
        }
    return {"club": {"name": "tricktable demo", "prefix": cfg.prefix}, "tables": tables}


def standin_tags(kit: Kit) -> list[dict[str, str]]:
    """What the seat pages' "place card" stand-in offers: every card and chip of the table's
    kit, by name, with its UID."""
    return [{"name": words, "uid": tag.uid.hex()} for words, tag in
            [*((f"card {name}", tag) for name, tag in kit.cards.items()),
             *((f"chip {name}", tag) for name, tag in kit.tokens.items())]]


def roster(count: int) -> list[str]:
    """``count`` bot names, different in their first seven letters (the displays' width)."""
    return [NAMES[i % len(NAMES)] + (str(i // len(NAMES) + 1) if i >= len(NAMES) else "")
            for i in range(count)]


def _run_dir(workdir: Path | None) -> Path:
    base = workdir or Path(tempfile.gettempdir()) / "tricktable-demo"
    base.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(tempfile.mkdtemp(prefix=f"run-{stamp}-", dir=base))
