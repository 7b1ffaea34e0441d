"""A tournament round through the store, at a hall's size (4,096 pairs, 2,048 tables).

On a fresh SQLite file: the tournament desk (``store.tournament_desk``, what the commands,
the web API and the hall use) draws round 1, a referee's typed result is entered for every
table one by one (each entry checks the whole tournament and commits with an fsync), the
tournament page's data is built (``web.tournament_view``: standings, the draw with each
table's state, each pair's history) and the public page itself is fetched twice through
the web app (Flask's test client: made once, then shared), and round 2 is drawn. Prints
each step's time and the entries' median and p99.
Run: ``.venv/bin/python benchmarks/tournament_desk.py [--pairs 4096] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

if not __package__:  # run as a file, this folder would shadow the ``engine`` package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.tournament import Pair, Tournament  # noqa: E402
from rulebook import profiles  # noqa: E402
from store import tournament_desk as desk  # noqa: E402
from store.event_store import Store  # noqa: E402
from store.tournament_store import TournamentStore  # noqa: E402
from web import create_app  # noqa: E402
from web import tournament_view as view  # noqa: E402


def timed(what: str, call):
    start = time.perf_counter()
    out = call()
    print(f"{what}: {time.perf_counter() - start:.3f} s")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4096)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "hall.db"
        Store(db).close()  # the hall's store, beside the tournament, as guandan serve has it
        with TournamentStore.open(db, create=True) as s:
            run(s, args, rng)
        client = create_app(str(db), start_hub=False).test_client()
        for what in ("the public page, made", "the public page, shared"):
            page = timed(what, lambda: client.get("/tournament/1"))
        print(f"the page: {len(page.data) / 1e6:.1f} MB")


def run(s: TournamentStore, args: argparse.Namespace, rng: random.Random) -> None:
    """Round 1 drawn, every table's result typed one by one, the page's data, round 2 drawn."""
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, args.pairs + 1)]
    s.save_tournament(Tournament("bench", "swiss", 3, profiles.load("linquan"), args.seed, pairs), "linquan")
    _, tables, _ = timed("draw round 1", lambda: desk.draw_next(s, None, "bench"))
    entries = []
    for tb in tables:
        if tb.is_bye:
            continue
        start = time.perf_counter()
        desk.enter_levels(s, None, tb.table, tb.ns, tb.ew, "A", rng.choice("23456789TJQK"), None, "bench")
        entries.append(time.perf_counter() - start)
    entries.sort()
    print(f"{len(entries)} results entered: median {statistics.median(entries) * 1000:.1f} ms, "
          f"p99 {entries[int(len(entries) * 0.99) - 1] * 1000:.1f} ms, all {sum(entries):.1f} s")
    t = desk.load(s)
    timed("page data (standings, draw with states)", lambda: view.snapshot(s, t, 1, set()))
    timed("each pair's history", lambda: view.histories(s, t))
    timed("draw round 2", lambda: desk.draw_next(s, None, "bench"))


if __name__ == "__main__":
    main()
