"""The servers' garbage collector (``scorer.heap``): full collections walk only what became
long-lived since the last one, and what the servers hold most of is freed without them."""

import gc
import random
import subprocess
import sys
import textwrap

from engine.bots import self_play
from engine.events import event_from_json
from engine.match import Match
from rulebook import profiles
from store.event_store import Store
from web.snapshot import TableView


def match_bodies() -> list[dict]:
    return [e.to_json() for e in self_play(profiles.load("jiangsu"), random.Random(3), max_hands=3)]


def cyclic_garbage_after(build) -> int:
    """How many objects only a full collection would free once ``build()``'s result is let go."""
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        made = build()
        del made
        return gc.collect()
    finally:
        if enabled:
            gc.enable()


def test_a_replayed_match_is_freed_by_reference_counting():
    bodies = match_bodies()

    def replay() -> Match:
        first = event_from_json(bodies[0])
        match = Match(profiles.load(first.profile), first)
        for body in bodies[1:]:
            match.push(event_from_json(body))
        return match

    assert cyclic_garbage_after(replay) == 0


def test_a_pages_view_of_a_table_is_freed_by_reference_counting(tmp_path):
    bodies = match_bodies()
    store = Store(tmp_path / "hall.db")
    store.add_table("7", bodies[0])
    store.append_many({"7": bodies[1:]})
    stored = store.since(0)
    store.close()

    def view() -> TableView:
        v = TableView("7", profiles.load)
        for s in stored:
            v.add(s)
        return v

    assert len(stored) == len(bodies)
    assert cyclic_garbage_after(view) == 0


def run_python(code: str) -> str:
    """``code`` in a Python process of its own (the collector's settings are the process's)."""
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_full_collection_freezes_what_survived_it_and_the_next_walks_only_the_new():
    out = run_python("""
        import gc
        from scorer.heap import keep_full_collections_short
        keep_full_collections_short()
        keep_full_collections_short()
        held = [[i] for i in range(300_000)]  # a hall's round, in small: objects the collector tracks
        gc.collect()
        frozen = gc.get_freeze_count()
        newer = [[i] for i in range(1_000)]
        gc.collect(1)  # the newer ones now in the oldest generation: the next full collection's walk
        print(frozen >= len(held), len(gc.get_objects(2)) < 10_000, gc.callbacks.count(gc.callbacks[-1]))
    """)
    assert out.split() == ["True", "True", "1"]

