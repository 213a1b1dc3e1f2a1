"""The MQTT client reaching a broker given by name through a DNS server that answers late,
under MicroPython or CPython: dns_run.py DNS_PORT BROKER_PORT NAME. A ticker task measures
the longest the event loop was held (a blocking lookup holds it, and the watchdog with it).
Prints one JSON line: connected, resolved address, longest gap in ms."""

import json
import sys

from compat import asyncio, sleep_ms, ticks_diff, ticks_ms
from mqtt import MQTTClient


async def main(dns_port, broker_port, name):
    client = MQTTClient(name, broker_port, "dns-probe", keepalive=10, backoff_ms=(50, 200),
                        connect_timeout_ms=8000)
    client.dns = lambda: ("127.0.0.1", dns_port)
    gap = [0]

    async def ticker():
        last = ticks_ms()
        while True:
            await sleep_ms(20)
            now = ticks_ms()
            gap[0] = max(gap[0], ticks_diff(now, last))
            last = now

    tick = asyncio.create_task(ticker())
    runner = asyncio.create_task(client.run())
    start = ticks_ms()
    while not client.connected and ticks_diff(ticks_ms(), start) < 20000:
        await sleep_ms(20)
    connected = client.connected
    await client.stop()
    await sleep_ms(50)
    runner.cancel()
    tick.cancel()
    print(json.dumps({"connected": connected, "addr": client.address, "gap_ms": gap[0]}))


asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]))
