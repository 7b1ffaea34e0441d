"""Maximum matching in a general graph (Edmonds' blossom algorithm), grown from a start.

The Swiss draw (``engine.pairing``) needs an exact answer to one question — can every
pair be given an opponent it has not met? — and, when not, the draw with the fewest
rematches. Both are a maximum-cardinality matching in the graph of "not yet met". The
draw's greedy pass and swaps find almost all of it; this module only *augments* that
start, one free vertex at a time, so on a large field it touches a few vertices instead
of the whole graph.

Neighbours are asked for lazily, in the caller's order of preference, and the search
takes the first augmenting path it finds: a caller that lists near opponents first gets
repairs that stay near (for the draw: within or next to a score group).

A vertex with no augmenting path now never gets one after later augmentations (Berge /
Edmonds), so one pass over the free vertices gives a maximum matching.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

FREE = -1


def maximum_matching(n: int, neighbours: Callable[[int], Iterable[int]], mate: list[int]) -> list[int]:
    """Augment ``mate`` (``mate[v]`` = partner or ``FREE``) to a maximum matching.

    ``neighbours(v)`` yields the vertices adjacent to ``v``, best first; the graph must be
    undirected (``u`` in ``neighbours(v)`` exactly when ``v`` in ``neighbours(u)``).
    Returns a new list; the argument is not changed.
    """
    mate = list(mate)
    # a path joins two free vertices: an isolated one can end none, and a search from the
    # last free vertex left is a search of the whole graph that cannot succeed
    free = [v for v in range(n) if mate[v] == FREE and next(iter(neighbours(v)), None) is not None]
    for root in free:
        if sum(mate[v] == FREE for v in free) < 2:
            break
        if mate[root] == FREE:
            _augment_from(root, n, neighbours, mate)
    return mate


def _augment_from(root: int, n: int, neighbours: Callable[[int], Iterable[int]], mate: list[int]) -> None:
    """One breadth-first search for an augmenting path from ``root``, contracting odd
    cycles (blossoms) as they appear; flips the path when one is found."""
    parent = [FREE] * n
    base = list(range(n))
    outer = [False] * n
    outer[root] = True
    queue = deque([root])
    tree = [root]  # every vertex reached: only these can lie in a blossom
    while queue:
        v = queue.popleft()
        for w in neighbours(v):
            if base[v] == base[w] or mate[v] == w:
                continue
            if w == root or (mate[w] != FREE and parent[mate[w]] != FREE):
                # v and w are both outer: an odd cycle; shrink it to its base
                b = _common_base(v, w, base, mate, parent, n)
                in_blossom = [False] * n
                _mark_path(v, b, w, base, mate, parent, in_blossom)
                _mark_path(w, b, v, base, mate, parent, in_blossom)
                for u in tree:
                    if in_blossom[base[u]]:
                        base[u] = b
                        if not outer[u]:
                            outer[u] = True
                            queue.append(u)
            elif parent[w] == FREE:
                parent[w] = v
                if mate[w] == FREE:
                    _flip(w, parent, mate)
                    return
                outer[mate[w]] = True
                queue.append(mate[w])
                tree += (w, mate[w])


def _common_base(a: int, b: int, base: list[int], mate: list[int], parent: list[int], n: int) -> int:
    seen = [False] * n
    while True:
        a = base[a]
        seen[a] = True
        if mate[a] == FREE:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[mate[b]]


def _mark_path(v: int, b: int, child: int, base: list[int], mate: list[int], parent: list[int],
               in_blossom: list[bool]) -> None:
    while base[v] != b:
        in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def _flip(end: int, parent: list[int], mate: list[int]) -> None:
    v = end
    while v != FREE:
        pv = parent[v]
        next_v = mate[pv]
        mate[v] = pv
        mate[pv] = v
        v = next_v
