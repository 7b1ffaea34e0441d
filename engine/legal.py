"""The legal-play generator: every distinct play a hand may make now.

Distinct means distinct ``Play`` values: the same type and rank made of different suits,
or with and without a wildcard, are different plays (a bot or a referee tool must be
able to name each). The generator builds plays constructively from the hand, rank by
rank and window by window, rather than testing every subset of 27 cards; the property
tests compare it with brute force through ``classify`` on small hands.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from engine.cards import (
    BIG_JOKER,
    RANKS,
    SMALL_JOKER,
    SUITS,
    parse_cards,
    parse_level,
    rank_of,
    sort_cards,
    suit_of,
    wildcard,
)
from engine.plays import (
    BOMB,
    JOKER_RANK,
    PAIR,
    SEQUENCE_SHAPES,
    SINGLE,
    START_RANK,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_PAIR,
    THREE_WITH_TWO,
    TRIPS,
    TWO_TRIPS,
    Play,
    beats,
    strength,
)

#: The ranks of a sequence window by its start (1 = A low); windows past A are cut short.
_WINDOW_RANKS = {start: ["A" if v in (1, 14) else RANKS[v - 2] for v in range(start, min(start + 5, 15))]
                 for start in range(1, 14)}


class _Hand:
    """The hand taken apart the way the generator needs it."""

    def __init__(self, cards: tuple[str, ...], level: str) -> None:
        self.level = level
        self.wild = wildcard(level)
        self.w = cards.count(self.wild)
        self.jokers = Counter(c for c in cards if c in (SMALL_JOKER, BIG_JOKER))
        by_rank: dict[str, Counter] = {r: Counter() for r in RANKS}
        for c in cards:
            if c != self.wild and c not in (SMALL_JOKER, BIG_JOKER):
                by_rank[rank_of(c)][suit_of(c)] += 1
        self.by_rank = by_rank
        self._subsets: dict[tuple[str, int], list[tuple[str, ...]]] = {}

    def naturals(self, rank: str) -> int:
        return sum(self.by_rank[rank].values())

    def subsets(self, rank: str, k: int) -> list[tuple[str, ...]]:
        """Distinct sub-multisets of ``k`` natural cards of ``rank`` (no wildcards)."""
        key = (rank, k)
        cached = self._subsets.get(key)
        if cached is None:
            cached = []
            suits = [s for s in SUITS if self.by_rank[rank][s]]
            self._fill(rank, suits, 0, k, (), cached)
            self._subsets[key] = cached
        return cached

    def _fill(self, rank, suits, i, k, acc, out) -> None:
        if k == 0:
            out.append(acc)
            return
        if i == len(suits):
            return
        s = suits[i]
        for take in range(min(k, self.by_rank[rank][s]), -1, -1):
            self._fill(rank, suits, i + 1, k - take, acc + (s + rank,) * take, out)

    def groups(self, rank: str, size: int, max_wild: int) -> list[tuple[tuple[str, ...], int]]:
        """Ways to make ``size`` cards of ``rank``: (cards, wildcards used), ≥1 natural."""
        out = []
        have = self.naturals(rank)
        for k in range(min(size, have), max(1, size - max_wild) - 1, -1):
            used = size - k
            for sub in self.subsets(rank, k):
                out.append((sub + (self.wild,) * used, used))
        return out


def legal_plays(hand, prev: Play | None, level) -> list[Play]:
    """Every distinct play ``hand`` may make on ``prev`` (``None`` or PASS: a lead).

    On a lead that is every combination the hand holds; otherwise every play that
    ``beats`` prev. Sorted weakest first (by ``strength``, then cards).
    """
    level = parse_level(level)
    cards = sort_cards(parse_cards(hand))
    h = _Hand(cards, level)
    lead = prev is None or prev.is_pass
    found: set[Play] = set()
    want = None if lead or prev.is_bomb else prev.type
    if want is None or want == SINGLE:
        _singles(h, cards, found)
    if want is None or want == PAIR:
        _of_a_rank(h, PAIR, 2, found)
    if want is None or want == TRIPS:
        _of_a_rank(h, TRIPS, 3, found)
    if want is None or want == THREE_WITH_TWO:
        _full_houses(h, found)
    if want is None or want == STRAIGHT:
        _straights(h, found, plain=True, flush=False)
    if want is None or want == THREE_PAIR:
        _multi_sequences(h, THREE_PAIR, found)
    if want is None or want == TWO_TRIPS:
        _multi_sequences(h, TWO_TRIPS, found)
    _bombs(h, found)
    _straights(h, found, plain=False, flush=True)
    if not lead:
        found = {p for p in found if beats(p, prev, level)}
    return sorted(found, key=lambda p: (strength(p, level), p.cards))


def _add(found: set[Play], type_: str, rank: str, cards: tuple[str, ...]) -> None:
    found.add(Play(type_, rank, sort_cards(cards)))


def _singles(h: _Hand, cards: tuple[str, ...], found: set[Play]) -> None:
    for c in set(cards):
        _add(found, SINGLE, rank_of(c), (c,))


def _of_a_rank(h: _Hand, type_: str, size: int, found: set[Play]) -> None:
    for r in RANKS:
        for group, _ in h.groups(r, size, h.w):
            _add(found, type_, r, group)
    if type_ == PAIR:
        if h.w == 2:
            _add(found, PAIR, h.level, (h.wild, h.wild))
        for joker, rank in ((SMALL_JOKER, "B"), (BIG_JOKER, "R")):
            if h.jokers[joker] == 2:
                _add(found, PAIR, rank, (joker, joker))


def _bombs(h: _Hand, found: set[Play]) -> None:
    for r in RANKS:
        for size in range(4, h.naturals(r) + h.w + 1):
            for group, _ in h.groups(r, size, h.w):
                _add(found, BOMB, r, group)
    if h.jokers[SMALL_JOKER] == 2 and h.jokers[BIG_JOKER] == 2:
        _add(found, BOMB, JOKER_RANK, (SMALL_JOKER,) * 2 + (BIG_JOKER,) * 2)


def _pair_options(h: _Hand, exclude: str, wilds: int) -> list[tuple[str, ...]]:
    """Every pair a full house may carry, other than of rank ``exclude``."""
    out: list[tuple[str, ...]] = []
    for r in RANKS:
        if r != exclude:
            out.extend(g for g, _ in h.groups(r, 2, wilds))
    if wilds == 2:
        out.append((h.wild, h.wild))  # two wildcards standing for a pair of another rank
    for joker in (SMALL_JOKER, BIG_JOKER):
        if h.jokers[joker] == 2:
            out.append((joker, joker))
    return out


def _full_houses(h: _Hand, found: set[Play]) -> None:
    for t in RANKS:
        for triple, used in h.groups(t, 3, h.w):
            for pair in _pair_options(h, t, h.w - used):
                _add(found, THREE_WITH_TWO, t, triple + pair)


def _straights(h: _Hand, found: set[Play], plain: bool, flush: bool) -> None:
    """Five consecutive ranks: plain straights and/or straight flushes."""
    wild = h.wild
    for start in range(1, 11):
        ranks = _WINDOW_RANKS[start]
        options = []
        for r in ranks:
            opts = [s + r for s in SUITS if h.by_rank[r][s]]
            if h.w:
                opts.append(wild)
            if not opts:
                break
            options.append(opts)
        else:
            rank = START_RANK[start]
            for combo in product(*options):
                used = combo.count(wild)
                if used > h.w:
                    continue
                suits = {suit_of(c) for c in combo if c != wild}
                if flush and len(suits) == 1:
                    _add(found, STRAIGHT_FLUSH, rank, combo)
                if plain and (len(suits) > 1 or used):
                    _add(found, STRAIGHT, rank, combo)


def _multi_sequences(h: _Hand, type_: str, found: set[Play]) -> None:
    """Tubes (三连对) and plates (钢板): each rank of the window as a group, wildcards allowed."""
    per, length, last_start = SEQUENCE_SHAPES[type_]
    for start in range(1, last_start + 1):
        ranks = _WINDOW_RANKS[start][:length]
        options = []
        for r in ranks:
            opts = h.groups(r, per, h.w)
            if per == 2 and h.w == 2:
                opts.append(((h.wild, h.wild), 2))  # a whole pair of the window from wildcards
            if not opts:
                break
            options.append(opts)
        else:
            rank = START_RANK[start]
            for combo in product(*options):
                if sum(u for _, u in combo) <= h.w:
                    _add(found, type_, rank, tuple(c for g, _ in combo for c in g))

