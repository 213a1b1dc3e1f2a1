"""A board's bad messages cannot fill the disk through the scoreboard's or the console's log
(both read the broker through ``web.feed.Feed``; docs/operations.md, "Security"): every bad
message is counted, but each topic (one board's, by the ACL) gets at most
``ratelog.PER_MINUTE`` lines a minute, then one line saying the rest are counted, and a line
with how many were left out once its minute is over. Another board's lines are its own.
"""

from __future__ import annotations

import logging

from tricktable.mqtt.ratelog import PER_MINUTE, RateLog
from tricktable.web.feed import Feed
from waiting import eventually
from web_fixtures import Publisher


def test_a_board_flooding_bad_messages_gets_a_few_lines_and_another_board_its_own(
        mqtt_broker, topic_prefix, caplog):
    feed = Feed(mqtt_broker.host, mqtt_broker.port, topic_prefix)
    feed.start()
    sender = Publisher(mqtt_broker, topic_prefix)
    try:
        with caplog.at_level(logging.WARNING, logger="tricktable.web.feed"):
            for _ in range(300):
                sender.client.publish(f"{topic_prefix}/v1/board/t1-north/status", b"not json", qos=1)
            sender.client.publish(f"{topic_prefix}/v1/board/t1-east/status", b"{]", qos=1)
            eventually(lambda: feed.bad_messages == 301, "every bad message counted")
    finally:
        sender.close()
        feed.stop()
    north = [r.getMessage() for r in caplog.records if "t1-north" in r.getMessage()]
    east = [r.getMessage() for r in caplog.records if "t1-east" in r.getMessage()]
    assert len(north) == PER_MINUTE + 1, north
    assert north[0].startswith("ignored: ")  # the control: a bad message is logged, and why
    assert "the rest of this minute are counted, not logged" in north[-1]
    assert len(east) == 1 and east[0].startswith("ignored: ")


def test_after_its_minute_a_source_logs_again_and_says_how_many_were_left_out(caplog):
    now = [0.0]
    lines = RateLog(logging.getLogger("ratelog-test"), per_minute=2, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="ratelog-test"):
        for _ in range(5):
            lines.warning("t1-north", "ignored: bad")
        now[0] = 61.0
        lines.warning("t1-north", "ignored: bad again")
    assert [r.getMessage() for r in caplog.records] == [
        "ignored: bad", "ignored: bad",
        "t1-north: more than 2 lines a minute; the rest of this minute are counted, not logged",
        "t1-north: 3 more line(s) like these were left out of the log in the last minute",
        "ignored: bad again"]
