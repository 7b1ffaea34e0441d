"""Table clock latency: a seat's button press to the next seat's countdown on its display.

Runs the real host side (driver + rules timing + runner, ``Rotation`` turns) on one end of
a socat pseudo-terminal pair and plays the box on the other end: it writes ``BTN`` for the
seat on turn and times until the ``DSP`` for the next seat arrives. That round trip
includes the pty both ways, so it is an upper bound on the host-side latency the target
speaks of (p99 ≤ 20 ms). Run: ``.venv/bin/python benchmarks/clock.py [--presses N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import serial  # noqa: E402

from engine.seats import next_seat  # noqa: E402
from hardware import protocol as p  # noqa: E402
from hardware.driver import ClockDriver  # noqa: E402
from hardware.ptypair import PtyPair  # noqa: E402
from hardware.runner import ClockRunner, Rotation  # noqa: E402
from rulebook import profiles  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000)
    args = parser.parse_args()
    with PtyPair() as pair, ClockDriver(pair.host_end) as driver:
        while not driver.port_open:
            time.sleep(0.01)
        box = serial.serial_for_url(pair.device_end, timeout=1)
        box.write(p.encode(p.Ready(1, "bench", "ESWN")))
        driver.wait_connected(5)
        runner = ClockRunner(driver, profiles.load("linyi"), Rotation("E")).start()
        framer = p.Framer()
        seat, times = "E", []
        for n in range(args.presses):
            want = "DSP,"
            nxt = next_seat(seat)
            start = time.perf_counter()
            box.write(p.encode(p.Button(n % 65536, seat, n)))
            done = False
            while not done:
                for body in framer.feed(box.read(box.in_waiting or 1)):
                    if body.startswith(want) and body.split(",")[2] == nxt and body.split(",")[3].strip():
                        done = True
                    if body.startswith(("DSP", "LED", "BEEP")):
                        box.write(p.encode(p.Ack(int(body.split(",")[1]))))
            times.append(time.perf_counter() - start)
            seat = nxt
            time.sleep(0.002)
        runner.stop()
        box.close()
    times.sort()
    p99 = times[int(len(times) * 0.99) - 1]
    print(f"{len(times)} presses over a socat pty: press → next seat's countdown shown")
    print(f"median {statistics.median(times) * 1000:.2f} ms   p99 {p99 * 1000:.2f} ms   "
          f"max {times[-1] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
