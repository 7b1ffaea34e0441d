"""Who plays whom: the Swiss draw, round-robin schedules, groups and knockout brackets.

Pure functions over pair ids; the tournament (``engine.tournament``) decides the order
pairs come in and keeps the history.

Swiss draw (积分编排), ``swiss_draw``
    The pairs come best first: by points, and in a seeded random order within a score
    group (linquan draws by lot among equals). Hard rules, in this order of priority:

    1. at most one bye (轮空) a round — exactly one when the field is odd — and it goes to a
       pair with the fewest byes so far, so no pair has a second bye while another has none;
    2. as few rematches as possible: none whenever some draw has none.

    Algorithm. (a) The bye goes to the lowest-placed pair with the fewest byes.
    (b) Greedy, top down: each unpaired pair meets the highest-placed unpaired pair below
    it that it has not met — 1 v 2, 3 v 4 … on a fresh field. (c) A pair the greedy pass
    strands (everyone left below has met it) is repaired by a swap: it takes the nearest
    opponent it has not met, whose old opponent takes another stranded pair (or the bye).
    (d) Whatever is still stranded goes to an exact search: augmenting paths in the graph
    "has not met", plus a bye vertex joined to the pairs that may take the bye (Edmonds'
    blossom algorithm, ``engine.blossom``), neighbours offered nearest place first. A
    maximum matching of that graph is exactly a draw with the fewest rematches and a
    lawful bye, so rules 1–2 hold with no search budget to run out. (e) Pairs still
    stranded then (rematches nobody can avoid) meet in order of place.

    Cost: (b) and (c) are near-linear on a real field; (d) runs only when swaps fail,
    once per stranded pair, and stops at the first path. 4,096 pairs draw in a few tens
    of milliseconds (``benchmarks/tournament.py``); the worst case of (d) is quadratic in
    the field per stranded pair (a late round where the unpaired have met almost
    everyone), which a field of thousands never reaches in a dozen rounds.

Round robin (循环赛), ``round_robin``
    The circle method: one pair fixed, the rest turn one place a round; an odd group gets
    a dummy whose opponent has the bye. Everyone meets everyone exactly once in ``m - 1``
    rounds (``m`` rounded up to even).

Groups (分组), ``make_groups``
    By lot (a seeded shuffle dealt in turn, 分组抽签) or by seeding order in a snake
    (1 2 3 3 2 1 …), which spreads the strongest pairs evenly.

Knockout (淘汰赛), ``bracket``
    Standard seeding: seeds 1 and 2 can meet only in the final, 1 v N, 2 v N-1 … in
    bracket order; a field short of a power of two gives its top seeds a bye in round 1.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence

from engine.blossom import FREE, maximum_matching


def swiss_draw(order: Sequence[str], met: Mapping[str, set[str]], byes: Mapping[str, int]
               ) -> tuple[list[tuple[str, str]], str | None]:
    """Draw one Swiss round.

    ``order``: the pairs, best first. ``met``: for each pair, the pairs it has played.
    ``byes``: byes each pair has had. Returns the games, each better-placed pair first
    and in order of place, and the pair with the bye (or ``None``).
    """
    n = len(order)
    index = {p: i for i, p in enumerate(order)}
    played = [{index[q] for q in met.get(p, ()) if q in index} for p in order]
    bye_vertex = n if n % 2 else None
    size = n + (1 if bye_vertex is not None else 0)
    may_bye: list[int] = []
    if bye_vertex is not None:
        fewest = min(byes.get(p, 0) for p in order)
        may_bye = [i for i in range(n - 1, -1, -1) if byes.get(order[i], 0) == fewest]  # lowest place first
    eligible = set(may_bye)

    mate = [FREE] * size
    if bye_vertex is not None:
        mate[bye_vertex], mate[may_bye[0]] = may_bye[0], bye_vertex
    _greedy(n, played, mate)

    def neighbours(v: int) -> Iterator[int]:
        if v == bye_vertex:
            yield from may_bye
            return
        for w in _nearest_first(v, n):
            if w not in played[v]:
                yield w
        if v in eligible and bye_vertex is not None:
            yield bye_vertex

    def joinable(a: int, b: int) -> bool:
        if bye_vertex in (a, b):
            return (b if a == bye_vertex else a) in eligible
        return a != b and b not in played[a]

    if FREE in mate:
        _swap_nearby(n, neighbours, joinable, mate)
    if FREE in mate:
        mate = maximum_matching(size, neighbours, mate)
    if bye_vertex is not None and mate[bye_vertex] == FREE:
        # a maximum matching may leave the bye out; giving it to a lawful pair (and
        # stranding that pair's opponent) keeps the same number of games without rematch
        p = may_bye[0]
        if mate[p] != FREE:
            mate[mate[p]] = FREE
        mate[p], mate[bye_vertex] = bye_vertex, p
    stranded = [i for i in range(n) if mate[i] == FREE]
    for a, b in zip(stranded[::2], stranded[1::2], strict=True):
        mate[a], mate[b] = b, a

    games = [(order[i], order[mate[i]]) for i in range(n) if mate[i] != bye_vertex and i < mate[i]]
    bye = order[mate[bye_vertex]] if bye_vertex is not None else None
    return games, bye


def _greedy(n: int, played: list[set[int]], mate: list[int]) -> None:
    """Top down, each unpaired pair takes the nearest unpaired pair below it not yet met."""
    waiting = [i for i in range(n) if mate[i] == FREE]
    while waiting:
        i = waiting.pop(0)
        for k, j in enumerate(waiting):
            if j not in played[i]:
                mate[i], mate[j] = j, i
                del waiting[k]
                break


def _swap_nearby(n: int, neighbours: Callable[[int], Iterator[int]], joinable: Callable[[int, int], bool],
                 mate: list[int]) -> None:
    """The usual Swiss repair, tried before the exact search: a stranded pair ``u`` takes
    the nearest opponent ``x`` it has not met, and ``x``'s old opponent ``y`` takes another
    stranded pair (or the bye) it has not met."""
    for u in range(n):
        if mate[u] != FREE:
            continue
        stranded = [v for v in range(n) if mate[v] == FREE and v != u]
        for x in neighbours(u):
            y = mate[x]
            v = x if y == FREE else next((v for v in stranded if joinable(y, v)), None)
            if v is None:
                continue
            if v != x:
                mate[y], mate[v] = v, y
            mate[u], mate[x] = x, u
            break


def _nearest_first(v: int, n: int) -> Iterator[int]:
    """The other places, nearest to ``v`` first (the one below before the one above)."""
    for d in range(1, n):
        if v + d < n:
            yield v + d
        if v - d >= 0:
            yield v - d


def round_robin(group: Sequence[str]) -> list[list[tuple[str, str | None]]]:
    """A full round-robin schedule by the circle method: a list of rounds, each a list of
    games ``(a, b)``; ``(a, None)`` is ``a``'s bye in an odd group."""
    ring: list[str | None] = list(group)
    if len(ring) % 2:
        ring.append(None)
    m = len(ring)
    rounds = []
    for r in range(m - 1):
        games: list[tuple[str, str | None]] = []
        for i in range(m // 2):
            a, b = ring[i], ring[m - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a  # the fixed pair changes sides every other round
            if a is None:
                a, b = b, a
            if a is not None:  # one of the two always is a pair: the ring holds one None at most
                games.append((a, b))
        rounds.append(games)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def make_groups(seeded: Sequence[str], count: int, method: str, rng: random.Random) -> list[list[str]]:
    """Split pairs into ``count`` groups: ``"lot"`` draws them (seeded ``rng``), dealt in
    turn; ``"snake"`` deals ``seeded`` (best first) 1 2 … k k … 2 1 so strength spreads."""
    if method not in ("lot", "snake"):
        raise ValueError(f"grouping is 'lot' or 'snake', not {method!r}")
    pairs = list(seeded)
    if method == "lot":
        rng.shuffle(pairs)
    groups: list[list[str]] = [[] for _ in range(count)]
    for i, p in enumerate(pairs):
        lap, k = divmod(i, count)
        groups[k if lap % 2 == 0 or method == "lot" else count - 1 - k].append(p)
    return groups


def bracket_positions(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power-of-two ``size``: 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def bracket(seeded: Sequence[str]) -> list[tuple[str, str | None]]:
    """Round 1 of a knockout in bracket order: games ``(better seed, other)``; a top seed
    with no opponent in a short field gets ``(seed, None)``, a bye to round 2."""
    size = 1
    while size < len(seeded):
        size *= 2
    slots = bracket_positions(size)
    out = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        out.append((seeded[a - 1], seeded[b - 1] if b <= len(seeded) else None))
    return out
