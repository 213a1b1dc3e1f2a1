"""A seasoned club: three short club nights played through the real stack (broker, host
service keeping the night, virtual boards running the firmware, bots), one each of Bid
Euchre, Euchre and Spades, with the statistics counted live as hands score
(``stats.follow``, as ``serve --night --club-db`` does). Played once per session: the tests
copy the database before changing it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from demo_runs import played_to_end
from seasoning import HANDS, ROUNDS, TABLES, VARIANTS, SeasonedClub
from tricktable.demo.runner import DemoConfig
from tricktable.mqtt.broker import BrokerHandle


@pytest.fixture(scope="session")
def seasoned(mqtt_broker: BrokerHandle, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[SeasonedClub]:
    where = tmp_path_factory.mktemp("seasoned")
    db = where / "club.sqlite"
    nights = {}
    for number, variant in enumerate(VARIANTS):
        demo = played_to_end(DemoConfig(
            variant=variant, tables=TABLES, night=True, rounds=ROUNDS, hands=HANDS, speed=0,
            web_port=None, seed=11 + number, revoke_rate=0.08, workdir=where / variant,
            broker=f"mqtt://{mqtt_broker.host}:{mqtt_broker.port}",
            prefix=f"tt-seasoned-{variant}", club_db=db, night_name=variant),
            240, f"the {variant} night")
        nights[variant] = (demo.journal_path, demo.night_path)
    yield SeasonedClub(db, nights)
