"""Cases: a board heals by itself (issue 33): one connect attempt cannot end the board
whatever it raises, every retry is jittered so that boards cut off together do not come
back in lock step, and a board nothing answers for long enough has the watchdog reset it."""

import pn532_emulator as E
from app import App
from casekit import UID4, UID7, LinkBoard, check
from compat import asyncio, sleep_ms, ticks_ms, wait_for_ms
from config import validate
from mqtt import MQTTClient


def retrying_client(raises, tries, network_up=None):
    """An MQTTClient whose every connect attempt raises what ``raises(n)`` gives, and whose
    waits between attempts are recorded (not slept): it stops after ``tries`` attempts."""
    client = MQTTClient("127.0.0.1", 1, "heal", backoff_ms=(250, 8000))
    client.attempts = 0
    client.waits = []

    async def attempt():
        client.attempts += 1
        if client.attempts >= tries:
            client._stop = True
        raise raises(client.attempts)

    async def pause(ms):
        client.waits.append(ms)
        if len(client.waits) >= tries:
            client._stop = True

    client._open = attempt
    client._pause = pause
    client.network_up = network_up
    return client


async def case_one_connect_attempt_cannot_end_the_link_whatever_it_raises(tmp):
    """A cut DNS record once raised IndexError out of the link, and main.py reset the board:
    now any attempt's error ends that attempt only, and the status says what it was."""
    odd = (IndexError("index out of range"), KeyError("ssid"), TypeError("can't convert"),
           AttributeError("no ifconfig"), OSError(113))
    client = retrying_client(lambda n: odd[n % len(odd)], tries=6)
    await wait_for_ms(client.run(), 5000)
    check(client.attempts == 6, f"tried again after each: {client.attempts} attempts")
    check(client.fault.startswith("KeyError"), f"the last odd error is said: {client.fault!r}")


async def case_reconnects_are_jittered_within_the_backoff(tmp):
    """Each wait lies in the upper half of the exponential backoff (250 ms doubling to 8 s),
    and two boards refused at the same moment do not wait alike."""
    a = retrying_client(lambda n: OSError(111), tries=10)
    b = retrying_client(lambda n: OSError(111), tries=10)
    await wait_for_ms(a.run(), 5000)
    await wait_for_ms(b.run(), 5000)
    step = 250
    for i in range(len(a.waits)):
        for waits in (a.waits, b.waits):
            check(step // 2 <= waits[i] <= step, f"wait {i}: {waits[i]} not in {step // 2}..{step}")
        step = min(step * 2, 8000)
    check(a.waits != b.waits, f"two boards in lock step: {a.waits}")


async def case_waiting_for_the_network_is_polled_at_jittered_moments(tmp):
    """With the network down the link asks again about every 250 ms, each board at its own
    moments (120 boards rejoining an access point that rebooted)."""
    client = retrying_client(lambda n: OSError(111), tries=20, network_up=lambda: False)
    await wait_for_ms(client.run(), 5000)
    check(client.attempts == 0, "no connect while the network is down")
    check(all(125 <= w <= 250 for w in client.waits), f"polls: {client.waits}")
    check(len(set(client.waits)) > 1, f"every poll alike: {client.waits}")


async def starved_after(app, board, ms):
    """Run the app's watchdog task ``ms``; True if the watchdog went unfed at the end."""
    task = asyncio.create_task(app.watchdog_loop())
    await sleep_ms(ms - 300)
    fed = board.feeds
    await sleep_ms(300)
    task.cancel()
    return board.feeds == fed


def cut_off_app(tmp, heal_s):
    """A one-pad App whose link has never been answered, every play on flash."""
    board = LinkBoard([E.PN532()])
    cfg = validate({"board": "north", "pads": 1, "watchdog_ms": 400, "heal_s": heal_s,
                    "broker": {"host": "127.0.0.1"}})
    app = App(board, cfg, tmp)
    app.outbox.add(0, UID4, None, 0)  # a play waiting for the host, on flash
    return app, board


async def keep_alive(app):
    """The scan loop's and link task's signs of life, as if both ran."""
    while True:
        app.last_scan = app.link.alive = ticks_ms()
        await sleep_ms(20)


async def case_a_board_nothing_answers_for_heal_s_lets_the_watchdog_reset_it(tmp):
    """A board whose link has had no answer at all (no CONNACK, no refusal) for ``heal_s``,
    with its plays on flash, stops feeding the watchdog: the reset brings back a wedged
    radio or a heap TLS can no longer use. Today's board fed it for ever."""
    app, board = cut_off_app(tmp, heal_s=1)
    alive = asyncio.create_task(keep_alive(app))
    check(not await starved_after(app, board, 700), "fed before heal_s")
    check(await starved_after(app, board, 700), "starved once heal_s passed unanswered")
    alive.cancel()


async def case_a_play_not_yet_on_flash_or_an_answer_keeps_the_board_up(tmp):
    """No reset while a play is held in RAM only, nor while the broker's host answers
    (refuses: the broker is down, a reset would not help), nor with ``heal_s`` 0."""
    for why in ("held", "refused", "never"):
        app, board = cut_off_app(tmp, heal_s=0 if why == "never" else 1)
        if why == "held":
            app.outbox.add(0, UID7, None, 0, hold_at=ticks_ms())
        alive = asyncio.create_task(keep_alive(app))
        if why == "refused":
            link = asyncio.create_task(refused(app))
        check(not await starved_after(app, board, 1800), why + ": the watchdog is fed")
        alive.cancel()
        if why == "refused":
            link.cancel()


async def refused(app):
    """The link's every connect refused by the broker's host (ECONNREFUSED)."""
    async def attempt():
        raise OSError(111)

    async def pause(ms):
        await sleep_ms(50)

    app.link._open = attempt
    app.link._pause = pause
    await app.link.run()


def looks(fb, pad=0):
    """What ``pad`` shows over one 2 s period: (the colours lit, how many times the light
    comes on at least half bright)."""
    colours, count, lit = set(), 0, False
    for t in range(0, 2000, 25):
        colour, bright = fb.level(pad, t)
        if bright:
            colours.add(colour)
        if bright >= 0.5 and not lit:
            count += 1
        lit = bright >= 0.5
    return colours, count


async def case_the_seat_says_what_is_wrong_each_in_its_own_pattern(tmp):
    """firmware/README.md, "What the seat says": no Wi-Fi (red, two short flashes every 2 s),
    no host (red, one slow pulse every 2 s), outbox nearly full (amber, a slow pulse), on a
    seat with nothing else to show; nothing while all is well. A player tells them apart."""
    app, board = cut_off_app(tmp, heal_s=0)
    fb = app.feedback
    app.link.connected, app.link.network = False, False
    wifi = looks(fb)
    app.link.network = True
    host = looks(fb)
    app.link.connected = True
    ok = looks(fb)
    while len(app.outbox.pending) * 4 < app.cfg["outbox_max"] * 3:
        app.outbox.add(0, UID7, None, 0)
    full = looks(fb)
    check(wifi == ({"red"}, 2), f"no Wi-Fi: {wifi}")
    check(host == ({"red"}, 1), f"no host: {host}")
    check(full == ({"amber"}, 1), f"outbox nearly full: {full}")
    check(ok == (set(), 0), f"all well: the seat is dark, not {ok}")
    fb.apply({"pad": 0, "led": "blue", "ms": 0})
    check(fb.level(0, 100) == ("blue", 1), "the host's own light comes first")


async def case_a_board_whose_session_is_taken_backs_off_and_counts_it(tmp):
    """A second board with this one's id (a copied config.json) takes the session: the
    broker ends this board's link at once (MQTT-3.1.4-2). Each time it waits longer before
    taking it back (the back-off starts again only after a link that lasted a keepalive),
    and its status counts it, where both boards took it from each other every 250 ms."""
    client = retrying_client(lambda n: EOFError("MQTT link closed by the broker"), tries=6)

    async def connected_then_taken():
        client.attempts += 1
        if client.attempts >= 6:
            client._stop = True

    async def served():
        raise EOFError("MQTT link closed by the broker")

    client._open = connected_then_taken
    client._serve = served
    await wait_for_ms(client.run(), 5000)
    check(client.taken == 6, f"six sessions taken, counted: {client.taken}")
    waits = client.waits
    check(all(waits[i] >= 125 * 2 ** i for i in range(len(waits))),
          f"each wait in a longer back-off than the last: {waits}")
