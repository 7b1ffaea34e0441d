"""Engine speed: classify/s, beats/s and full legal-play generations/s.

Random 27-card hands from two shuffled decks, each forced to hold one or two wildcards
(the heart level cards), at random levels. Prints rates and the median and p99 time per
call. Run: ``.venv/bin/python benchmarks/engine.py [--hands N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

if not __package__:  # run as a file, this folder would shadow the ``engine`` package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.cards import RANKS, full_deck, wildcard  # noqa: E402
from engine.legal import legal_plays  # noqa: E402
from engine.plays import beats, classify  # noqa: E402


def random_hand(rng: random.Random, level: str) -> list[str]:
    deck = full_deck()
    rng.shuffle(deck)
    hand = deck[:27]
    wild = wildcard(level)
    want = rng.choice((1, 2))
    while hand.count(wild) < want:
        hand[next(i for i, c in enumerate(hand) if c != wild)] = wild
    return hand


def timed(fn, items) -> list[float]:
    out = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        out.append(time.perf_counter() - start)
    return out


def report(name: str, times: list[float]) -> None:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    rate = len(times) / sum(times)
    print(f"{name:34} {rate:12,.0f}/s   median {statistics.median(times) * 1e6:9.1f} µs   p99 {p99 * 1e6:9.1f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="random hands (default 400)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = []
    for _ in range(args.hands):
        level = rng.choice(RANKS)
        cases.append((random_hand(rng, level), level))
    print(f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
          f"{args.hands} random 27-card hands with wildcards\n")

    leads = [legal_plays(h, None, lv) for h, lv in cases]
    plays = [(p, lv) for ps, (_, lv) in zip(leads, cases, strict=True) for p in rng.sample(ps, min(20, len(ps)))]
    report("classify", timed(lambda x: classify(x[0].cards, x[1]), plays))
    pairs = [(a, b, lv) for (a, lv), (b, _) in zip(plays, plays[1:] + plays[:1], strict=True)]
    report("beats", timed(lambda x: beats(x[0], x[1], x[2]), pairs))
    report("legal_plays on a lead (full)", timed(lambda c: legal_plays(c[0], None, c[1]), cases))
    follows = [(h, rng.choice(ps), lv) for (h, lv), ps in zip(cases, leads, strict=True)]
    report("legal_plays after a play", timed(lambda c: legal_plays(c[0], c[1], c[2]), follows))
    sizes = sorted(len(p) for p in leads)
    print(f"\nplays per lead: median {statistics.median(sizes):.0f}, max {sizes[-1]}")


if __name__ == "__main__":
    main()
