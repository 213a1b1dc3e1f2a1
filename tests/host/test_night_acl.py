"""Under host/tricktable/mqtt/mosquitto/acl.template only the director's user (the console) may correct the
night: a board's message on ``{p}/v1/night/control`` never reaches the host; the director's
does.
"""

from __future__ import annotations

import queue

from test_service_auth import secured  # noqa: F401 (the fixture)
from tricktable.serve.service import BrokerURL
from tricktable.web.console_link import NightLink


def test_only_the_directors_user_reaches_the_night(secured):  # noqa: F811 (the fixture)
    broker, service, journal, observer, boards = secured
    heard: queue.Queue[bytes] = queue.Queue()
    service.handle(observer.topics.night_control(), lambda topic, payload: heard.put(payload))
    north = boards[0]
    north.wait_delivered(north.send(b'{"v": 1, "cmd": "ring", "id": "forged", "by": "t1-n"}',
                                    topic=observer.topics.night_control()))
    link = NightLink(BrokerURL("127.0.0.1", broker.port, username="tricktable-director",
                               password="director-pw"), observer.topics.prefix)
    link.start()
    try:
        try:  # nobody answers here (no night): what matters is what the host heard
            link.send("ring", {}, "Dana", timeout=0.1)
        except TimeoutError:
            pass
        assert b'"by":"Dana"' in heard.get(timeout=30)  # the first thing the host heard
    finally:
        link.stop()
