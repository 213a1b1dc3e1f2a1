"""What TLS costs a board's heap (docs/operations.md, "Security"); prints numbers, asserts
nothing.

A whole hand (24 plays on 4 pads) from the real firmware under the MicroPython unix port to a
club broker run from the shipped configuration (host/tricktable/mqtt/mosquitto/mosquitto.conf, the CA and
certificate `tricktable broker certs` makes: RSA-2048 since issue 33, ECDSA P-256 before),
the emulated readers outside the
board's heap (tests/firmware/readerhost.py), the board logged in as itself, an acking host:

1. the live heap's high-water mark at -X heapsize=192k (a full collection every 10 ms),
   plain MQTT (loopback listener) and TLS (8883 listener), median of 3 runs each;
2. the smallest heap that completes the hand, each way (bisection by 2 KB);
3. what mbedTLS itself allocates: on the unix port it takes its memory from libc's malloc,
   not from the MicroPython heap (items 1 and 2 do not see it; on a Pico W it comes from the
   MicroPython heap), so one TLS connection (context, handshake, a CONNECT answered) is run
   under valgrind's massif and its malloc peak compared with the same over plain TCP; plus
   the GC heap the context and the connection hold.

The unix port from PyPI is a 64-bit build: Python objects take more room than on a 32-bit
board (issue 22 measured a hand at 48.2 KB on i686 against 76 KB here); mbedTLS's buffers are
bytes and cost the same on both.

Run: .venv/bin/python bench/tls_heap.py
     .venv/bin/python bench/tls_heap.py --quick   # one hand each way: item 1 only
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "firmware"), str(ROOT / "tests")]  # fwkit, clubkit

from clubkit import ClubBroker, start_club_broker  # noqa: E402
from fwkit import MICROPYTHON, HostSide, MicroPython, build_mpy, play_hand  # noqa: E402

PREFIX = "tricktable"
ROOMY = "192k"


def hand_at(mp: MicroPython, club: ClubBroker, tls: bool, heap: str,
            sample_ms: int = 0) -> dict | None:
    """fwkit.play_hand on the club's broker as board north (over TLS or not), acked by a
    HostSide logged in as the host."""
    host = HostSide("127.0.0.1", club.port, PREFIX,
                    auth=("tricktable-host", club.passwords["tricktable-host"]))
    broker = {"host": "127.0.0.1", "port": club.tls_port if tls else club.port,
              "user": "north", "password": club.passwords["north"]}
    if tls:
        broker |= {"tls": True, "ca": str(club.certs.ca_der)}
    try:
        return play_hand(mp, PREFIX, broker, heap, sample_ms=sample_ms)
    finally:
        host.close()


def smallest_heap(mp: MicroPython, club: ClubBroker, tls: bool) -> int:
    """The smallest -X heapsize (KB, to 2 KB) at which the whole hand completes."""
    low, high = 32, 192  # fails, completes
    while high - low > 2:
        mid = (low + high) // 2 // 2 * 2
        if hand_at(mp, club, tls, f"{mid}k"):
            high = mid
        else:
            low = mid
    return high


ONE_CONNECTION = """
import gc, socket, ssl, sys
with open(sys.argv[1], "rb") as f:
    der = f.read()
gc.collect()
before = gc.mem_alloc()
s = socket.socket()
s.connect(socket.getaddrinfo("127.0.0.1", int(sys.argv[2]))[0][-1])
if sys.argv[3] == "tls":
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.load_verify_locations(cadata=der)
    s = ctx.wrap_socket(s, server_hostname="127.0.0.1")
s.write(b"\\x10\\x0c\\x00\\x04MQTT\\x04\\x02\\x00\\x1e\\x00\\x00")
answer = s.read(4)
gc.collect()
print(gc.mem_alloc() - before, answer[0] == 0x20)
"""


def mbedtls_malloc(club: ClubBroker, work: Path) -> None:
    script = work / "one_connection.py"
    script.write_text(ONE_CONNECTION)
    peaks, held = {}, {}
    for mode, port in (("plain", club.port), ("tls", club.tls_port)):
        out = work / f"massif.{mode}"
        proc = subprocess.run(["valgrind", "--tool=massif", f"--massif-out-file={out}",
                               str(MICROPYTHON), "-X", "heapsize=64k", str(script),
                               str(club.certs.ca_der), str(port), mode],
                              capture_output=True, text=True, timeout=300)
        gc_bytes, answered = proc.stdout.split()
        if answered != "True":
            raise SystemExit(f"no CONNACK over {mode}: {proc.stdout} {proc.stderr[-500:]}")
        peaks[mode] = max(int(x) for x in re.findall(r"mem_heap_B=(\d+)", out.read_text()))
        held[mode] = int(gc_bytes)
    print(f"3. one connection (the club's chain), unix port: mbedTLS's malloc peak "
          f"{peaks['tls'] - peaks['plain']} B over plain TCP (valgrind massif); the GC heap "
          f"it holds: TLS {held['tls']} B, plain {held['plain']} B")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="one hand each way; no bisection, no valgrind")
    quick = parser.parse_args().quick
    runs = 1 if quick else 3
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "build").mkdir()
        mp = MicroPython(build_mpy(Path(tmp) / "build"))
        club = start_club_broker(Path(tmp) / "club", PREFIX, boards={"north": "t1"})
        try:
            print(f"1. live heap high-water mark during a whole hand, -X heapsize={ROOMY}, "
                  "64-bit unix port:")
            peaks = {}
            for tls in (False, True):
                hands = [hand_at(mp, club, tls, ROOMY, sample_ms=10) for _ in range(runs)]
                if None in hands:
                    raise SystemExit(f"the hand did not complete ({'TLS' if tls else 'plain'})")
                peaks[tls] = statistics.median(h["heap_peak"] for h in hands)
                print(f"   {'TLS  ' if tls else 'plain'}: median {peaks[tls]:.0f} B ({runs} runs: "
                      f"{', '.join(str(h['heap_peak']) for h in hands)})")
            print(f"   TLS costs {peaks[True] - peaks[False]:.0f} B more")
            if quick:
                return
            least = {tls: smallest_heap(mp, club, tls) for tls in (False, True)}
            print(f"2. smallest heap that completes the hand: plain {least[False]}k, "
                  f"TLS {least[True]}k")
            if shutil.which("valgrind"):
                mbedtls_malloc(club, Path(tmp))
            else:
                print("3. not measured: valgrind is not installed")
        finally:
            club.stop()


if __name__ == "__main__":
    main()
