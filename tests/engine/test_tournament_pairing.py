"""Who plays whom: the Swiss draw against brute force, round-robin schedules, groups and
knockout brackets (engine/pairing.py, engine/blossom.py)."""

from __future__ import annotations

import itertools
import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.blossom import FREE, maximum_matching
from engine.pairing import bracket, bracket_positions, make_groups, round_robin, swiss_draw


def all_draws(pairs: list[str]):
    """Every way to split ``pairs`` (even count) into games."""
    if not pairs:
        yield []
        return
    first, rest = pairs[0], pairs[1:]
    for k, other in enumerate(rest):
        for games in all_draws(rest[:k] + rest[k + 1:]):
            yield [(first, other), *games]


def fewest_rematches(order, met, byes) -> int:
    """Brute force: the fewest rematches of any draw that gives the bye to a pair with the
    fewest byes."""
    candidates = [None]
    if len(order) % 2:
        fewest = min(byes[p] for p in order)
        candidates = [p for p in order if byes[p] == fewest]
    best = len(order)
    for bye in candidates:
        rest = [p for p in order if p != bye]
        for games in all_draws(rest):
            best = min(best, sum(b in met[a] for a, b in games))
    return best


@st.composite
def histories(draw, max_pairs=9):
    n = draw(st.integers(1, max_pairs))
    order = [f"p{i}" for i in range(n)]
    met = {p: set() for p in order}
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
    for a, b in itertools.combinations(order, 2):
        if draw(st.floats(0, 1)) < density:
            met[a].add(b)
            met[b].add(a)
    byes = {p: draw(st.integers(0, 2)) for p in order}
    return order, met, byes


@settings(max_examples=300, deadline=None)
@given(histories())
def test_swiss_draw_is_lawful_and_has_the_fewest_rematches(history):
    order, met, byes = history
    games, bye = swiss_draw(order, met, byes)
    seated = [p for g in games for p in g] + ([bye] if bye else [])
    assert sorted(seated) == sorted(order)  # every pair exactly once
    if len(order) % 2:
        assert bye is not None and byes[bye] == min(byes.values())  # no second bye while avoidable
    else:
        assert bye is None
    assert sum(b in met[a] for a, b in games) == fewest_rematches(order, met, byes)


def test_a_fresh_field_meets_neighbours_by_place():
    order = [f"p{i}" for i in range(7)]
    games, bye = swiss_draw(order, {}, {})
    assert games == [("p0", "p1"), ("p2", "p3"), ("p4", "p5")]
    assert bye == "p6"  # the lowest place takes the bye


def test_the_bye_moves_up_past_pairs_that_had_one():
    order = ["a", "b", "c", "d", "e"]
    games, bye = swiss_draw(order, {}, {"e": 1, "d": 1})
    assert bye == "c"
    assert sorted(p for g in games for p in g) == ["a", "b", "d", "e"]


def test_every_pair_has_had_a_bye_then_the_fewest_again():
    order = ["a", "b", "c"]
    _, bye = swiss_draw(order, {}, {"a": 1, "b": 1, "c": 1})
    assert bye == "c"


def test_repair_keeps_games_near_in_place():
    # greedy would strand g and h (they have met); the repair swaps with the pairs just above
    order = list("abcdefgh")
    met = {p: set() for p in order}
    met["g"].add("h")
    met["h"].add("g")
    games, _ = swiss_draw(order, met, {})
    assert games[:2] == [("a", "b"), ("c", "d")]
    assert ("g", "h") not in games and all(b not in met[a] for a, b in games)


def test_large_field_greedy_is_exact_and_rematch_free():
    rng = random.Random(4)
    order = [str(i) for i in range(4095)]
    met = {p: set() for p in order}
    for _ in range(6):  # six earlier random rounds
        shuffled = order[:]
        rng.shuffle(shuffled)
        for a, b in zip(shuffled[::2], shuffled[1::2], strict=False):
            met[a].add(b)
            met[b].add(a)
    games, bye = swiss_draw(order, met, {})
    assert len(games) == 2047 and bye is not None
    assert all(b not in met[a] for a, b in games)


def largest_matching(n: int, edges: set[tuple[int, int]]) -> int:
    """Brute force over vertex subsets (memoised on a bit mask)."""

    @cache
    def best(left: int) -> int:
        if not left:
            return 0
        v = (left & -left).bit_length() - 1
        rest = left & ~(1 << v)
        out = best(rest)
        for w in range(n):
            if rest >> w & 1 and (min(v, w), max(v, w)) in edges:
                out = max(out, 1 + best(rest & ~(1 << w)))
        return out

    return best((1 << n) - 1)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 12), st.randoms(use_true_random=False), st.floats(0, 1))
def test_maximum_matching_matches_brute_force(n, rng, density):
    edges = {(a, b) for a, b in itertools.combinations(range(n), 2) if rng.random() < density}
    adj = {v: [w for w in range(n) if (min(v, w), max(v, w)) in edges] for v in range(n)}
    mate = maximum_matching(n, adj.__getitem__, [FREE] * n)
    for v in range(n):
        if mate[v] != FREE:
            assert mate[mate[v]] == v and (min(v, mate[v]), max(v, mate[v])) in edges
    assert sum(m != FREE for m in mate) // 2 == largest_matching(n, edges)


# --- round robin ---------------------------------------------------------------------------

@given(st.integers(2, 16))
def test_round_robin_everyone_meets_everyone_once(m):
    group = [f"g{i}" for i in range(m)]
    schedule = round_robin(group)
    assert len(schedule) == (m - 1 if m % 2 == 0 else m)
    met = []
    for games in schedule:
        seated = [p for g in games for p in g if p is not None]
        assert sorted(seated) == sorted(group)  # once a round, byes included
        assert sum(b is None for _, b in games) == m % 2
        met += [frozenset(g) for g in games if g[1] is not None]
    assert sorted(met, key=sorted) == sorted((frozenset(c) for c in itertools.combinations(group, 2)), key=sorted)


def test_round_robin_sides_alternate_for_the_fixed_pair():
    schedule = round_robin(["a", "b", "c", "d"])
    sides = ["NS" if games[0][0] == "a" else "EW" for games in schedule]
    assert sides == ["NS", "EW", "NS"]


# --- groups --------------------------------------------------------------------------------

def test_snake_groups_spread_the_seeds():
    groups = make_groups([str(i) for i in range(1, 13)], 3, "snake", random.Random(0))
    assert groups == [["1", "6", "7", "12"], ["2", "5", "8", "11"], ["3", "4", "9", "10"]]


@given(st.integers(2, 40), st.integers(1, 8), st.integers(0, 10**6))
def test_groups_by_lot_are_a_balanced_partition_fixed_by_the_seed(n, k, seed):
    pairs = [str(i) for i in range(n)]
    groups = make_groups(pairs, k, "lot", random.Random(seed))
    assert sorted(p for g in groups for p in g) == sorted(pairs)
    assert max(map(len, groups)) - min(map(len, groups)) <= 1
    assert groups == make_groups(pairs, k, "lot", random.Random(seed))


# --- knockout ------------------------------------------------------------------------------

def test_bracket_order_keeps_top_seeds_apart():
    assert bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    sixteen = bracket_positions(16)
    assert sorted(sixteen) == list(range(1, 17))
    assert [sixteen[i] + sixteen[i + 1] for i in range(0, 16, 2)] == [17] * 8  # 1 v 16, 2 v 15 …
    quarters = [set(sixteen[i:i + 4]) for i in range(0, 16, 4)]
    assert all(len(q & {1, 2, 3, 4}) == 1 for q in quarters)  # the top four meet in the semi-finals at the earliest
    assert 1 in set(sixteen[:8]) and 2 in set(sixteen[8:])  # 1 and 2 only in the final


def test_short_field_gives_top_seeds_the_byes():
    games = bracket([f"s{i}" for i in range(1, 7)])  # 6 pairs in a bracket of 8
    assert games == [("s1", None), ("s4", "s5"), ("s2", None), ("s3", "s6")]
