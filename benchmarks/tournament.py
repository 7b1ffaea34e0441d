"""Swiss draw speed: one round for a 4,096-pair field (the Suzhou event's size).

Plays a Swiss tournament of random results and times ``Tournament.draw()`` — the whole
call: points and history from every result so far, the seeded order, the pairing — for
each round. An odd field (4,095 pairs) adds the bye. Prints the time per round and the
worst. Run: ``.venv/bin/python benchmarks/tournament.py [--pairs N] [--rounds R] [--seed S]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

if not __package__:  # run as a file, this folder would shadow the ``engine`` package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.tournament import Pair, Tournament  # noqa: E402
from rulebook import profiles  # noqa: E402

LEVELS = "23456789TJQKA"


def play(pairs: int, rounds: int, seed: int) -> list[float]:
    """Seconds per ``draw()`` for each round of a Swiss event with random results."""
    t = Tournament("bench", "swiss", rounds, profiles.load("linquan"), seed,
                   [Pair(str(i), f"pair {i}") for i in range(1, pairs + 1)])
    rng = random.Random(seed)
    met: dict[str, set[str]] = {p.id: set() for p in t.pairs}
    times = []
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        draw = t.draw()
        times.append(time.perf_counter() - start)
        t.draws[r] = draw
        for tb in draw:
            if tb.is_bye:
                continue
            assert tb.ew not in met[tb.ns], f"round {r}: a rematch"
            met[tb.ns].add(tb.ew)
            met[tb.ew].add(tb.ns)
            a, b = rng.choice(LEVELS + "+"), rng.choice(LEVELS)
            _, outcome = t.score_levels(r, tb.table, tb.ns, tb.ew, "A+" if a == "+" else a, b)
            t.results[(r, tb.table)] = outcome
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{platform.machine()} · {platform.python_implementation()} {platform.python_version()}")
    for pairs in (args.pairs, args.pairs - 1):
        times = play(pairs, args.rounds, args.seed)
        per_round = " ".join(f"{x * 1000:.0f}" for x in times)
        print(f"{pairs:,} pairs, {args.rounds} rounds: draw() ms per round: {per_round}")
        print(f"  worst {max(times) * 1000:.0f} ms   target ≤ 1000 ms   no rematches")


if __name__ == "__main__":
    main()
