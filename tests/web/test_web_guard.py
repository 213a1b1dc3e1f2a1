"""What a stranger on the club's network gets from the scoreboard (docs/operations.md,
"Security"; docs/web.md): security headers on every answer, the admin token only as
``Authorization: Bearer``, an upload refused as soon as it passes its limit (not after it was
read whole into memory), and a hidden player's scorecard answering exactly as a name that is
not on the roster.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from club_night import club_night, write_night
from tricktable.mqtt.broker import BrokerHandle
from tricktable.players import ClubDB, Players
from tricktable.web.app import create_app
from tricktable.web.feed import Feed
from tricktable.web.journal_hands import MAX_UPLOAD
from tricktable.web.server import Scoreboard
from web_fixtures import ADMIN_TOKEN

HEADERS = ("content-security-policy", "x-frame-options", "x-content-type-options",
           "referrer-policy")


@pytest.fixture
def night_board(mqtt_broker: BrokerHandle, topic_prefix: str, tmp_path: Path
                ) -> Iterator[tuple[Scoreboard, str]]:
    """A scoreboard of a finished night, with a club database where one player is hidden;
    yields it and that player's name."""
    night = club_night(tables=2, games=1, rounds=1)
    write_night(night, tmp_path / "night.json", bell=False)
    hidden = night.players[3]
    with ClubDB(tmp_path / "club.sqlite") as db:
        players = Players(db)
        for name in night.players:
            players.add(name)
        players.set_flags(hidden, hidden=True)
    board = Scoreboard(mqtt_broker.host, mqtt_broker.port, port=0, prefix=topic_prefix,
                       admin_token=ADMIN_TOKEN, night=tmp_path / "night.json",
                       club_db=tmp_path / "club.sqlite")
    board.start()
    yield board, hidden
    board.stop()


def test_a_hidden_players_scorecard_answers_as_an_unknown_name_does(night_board):
    board, hidden = night_board
    unknown = httpx.get(f"{board.url}/api/scorecard/Nobody")
    for name in (hidden, hidden.upper()):
        got = httpx.get(f"{board.url}/api/scorecard/{name}")
        assert (got.status_code, got.content) == (unknown.status_code, unknown.content)
    assert unknown.status_code == 404


@pytest.mark.parametrize("path", ["/", "/table/t1", "/results", "/tv", "/fleet",
                                  "/static/app.js", "/api/club", "/api/results",
                                  "/api/scorecard/Nobody", "/no/such/page"])
def test_every_answer_carries_the_security_headers(night_board, path):
    board, _ = night_board
    got = httpx.get(f"{board.url}{path}")
    missing = [h for h in HEADERS if h not in got.headers]
    assert not missing, f"{path} ({got.status_code}) lacks {missing}"
    assert "frame-ancestors 'none'" in got.headers["content-security-policy"]
    assert "script-src 'self';" in got.headers["content-security-policy"]
    assert got.headers["x-frame-options"] == "DENY"


def test_the_admin_token_counts_only_as_a_bearer_token(night_board):
    board, _ = night_board
    url = f"{board.url}/api/fleet"
    assert httpx.get(url, headers={"Authorization": ADMIN_TOKEN}).status_code == 403
    assert httpx.get(url, headers={"Authorization": f"Basic {ADMIN_TOKEN}"}).status_code == 403
    assert httpx.get(url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}).status_code == 200


def test_an_upload_declared_too_large_is_refused_before_its_body(night_board):
    """A client that declares 300 MB gets its 413 without sending a byte of it."""
    board, _ = night_board
    host, port = board.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(b"POST /api/replay/file?name=big HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: text/plain\r\nContent-Length: 300000000\r\n\r\n")
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer


def test_an_upload_streamed_past_the_limit_is_refused_at_the_limit():
    """Chunked (no declared length): the app stops reading at the first chunk past the
    limit, whatever follows."""
    app = create_app(Feed("127.0.0.1", 1))
    chunk = b"x" * 65536
    pulled = 0
    sent: list[dict] = []

    async def receive() -> dict:
        nonlocal pulled
        pulled += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": pulled < 300_000_000}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/replay/file",
             "raw_path": b"/api/replay/file", "query_string": b"name=big", "root_path": "",
             "headers": [(b"content-type", b"text/plain"), (b"transfer-encoding", b"chunked")],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 413
    assert pulled <= MAX_UPLOAD + len(chunk), f"read {pulled} bytes of the body"


@pytest.mark.parametrize("body", [
    '{"format": ' + "[" * 100_000 + "]" * 100_000 + "}",  # the JSON form
    '{"fileType": "Euchre Game Notation", "deals": ' + "[" * 100_000 + "]" * 100_000 + "}",  # EGN
    '{"format": 1' + "0" * 5000 + "}",  # a number too long to convert
])
def test_an_upload_too_deep_or_too_long_to_read_is_a_400_of_one_line(night_board, body, caplog):
    board, _ = night_board
    got = httpx.post(f"{board.url}/api/replay/file?name=deep.json", content=body.encode())
    assert got.status_code == 400, got.text[:300]
    assert "\n" not in got.json()["error"] and len(got.text) < 300, got.text
    assert "Traceback" not in caplog.text


def answer_to(board: Scoreboard, sent: bytes) -> bytes:
    """What the scoreboard answers to ``sent`` (then silence) before it closes, within 60 s."""
    with socket.create_connection(("127.0.0.1", board.port), timeout=60) as sock:
        sock.sendall(sent)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except TimeoutError:
            return b"(still open after 60 s) " + answer
    return answer


@pytest.mark.parametrize("sent", [
    b"GET /api/club HTTP/1.1\r\nHost: x\r\n",  # the head never ends
    b"POST /api/replay/file?name=x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123",
])
def test_a_half_sent_request_is_cut_off(night_board, sent):
    board, _ = night_board
    assert answer_to(board, sent) == b""  # closed by the request deadline, nothing answered
    whole = answer_to(board, b"GET /api/club HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert whole.startswith(b"HTTP/1.1 200")  # the control: a whole request is answered
