"""Cases: a board's link heals by itself (issue 33): one connect attempt cannot end the board
whatever it raises, every retry is jittered so that boards cut off together do not come back
in lock step, and a board whose session is taken (a twin with its id) backs off further each
time. The App's side is cases_heal_app.py."""

from casekit import check
from compat import wait_for_ms
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
