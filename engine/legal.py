"""The legal-play generator: every distinct play a hand may make now.

Distinct means distinct ``Play`` values: the same type and rank made of different suits,
or with and without a wildcard, are different plays (a bot or a referee tool must be
able to name each). The generator builds plays constructively from the hand, rank by
rank and window by window, rather than testing every subset of 27 cards; the property
tests compare it with brute force through ``classify`` on small hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations, product
from typing import cast

from engine.cards import (
    BIG_JOKER,
    NATURAL,
    RANKS,
    SMALL_JOKER,
    SUITS,
    Card,
    card_key,
    card_order,
    order,
    parse_cards,
    parse_level,
    rank_of,
    sort_cards,
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
    PlayType,
    beats,
    rank_value,
    strength,
)

#: The ranks of a sequence window by its start (1 = A low); windows past A are cut short.
_WINDOW_RANKS = {start: ["A" if v in (1, 14) else RANKS[v - 2] for v in range(start, min(start + 5, 15))]
                 for start in range(1, 14)}


class _Hand:
    """The hand taken apart the way the generator needs it."""

    def __init__(self, cards: tuple[Card, ...], level: str) -> None:
        self.level = level
        self.wild = wildcard(level)
        self.w = cards.count(self.wild)
        self.jokers = Counter(c for c in cards if c in (SMALL_JOKER, BIG_JOKER))
        #: each rank's natural cards and how many of each, in canonical (suit) order as
        #: ``cards`` come sorted
        by_rank: dict[str, Counter[Card]] = {r: Counter() for r in RANKS}
        for c in cards:
            if c != self.wild and c not in (SMALL_JOKER, BIG_JOKER):
                by_rank[rank_of(c)][c] += 1
        self.by_rank = by_rank
        self._subsets: dict[tuple[str, int], list[tuple[Card, ...]]] = {}
        self._groups: dict[tuple[str, int, int], list[tuple[tuple[Card, ...], int]]] = {}
        self._pairs: dict[int, list[tuple[str, tuple[Card, ...]]]] = {}

    def naturals(self, rank: str) -> int:
        return sum(self.by_rank[rank].values())

    def subsets(self, rank: str, k: int) -> list[tuple[Card, ...]]:
        """Distinct sub-multisets of ``k`` natural cards of ``rank`` (no wildcards)."""
        key = (rank, k)
        cached = self._subsets.get(key)
        if cached is None:
            cached = []
            held = self.by_rank[rank]
            self._fill(held, list(held), 0, k, (), cached)
            self._subsets[key] = cached
        return cached

    def _fill(self, held: Counter[Card], cards: list[Card], i: int, k: int, acc: tuple[Card, ...],
              out: list[tuple[Card, ...]]) -> None:
        if k == 0:
            out.append(acc)
            return
        if i == len(cards):
            return
        c = cards[i]
        for take in range(min(k, held[c]), -1, -1):
            self._fill(held, cards, i + 1, k - take, acc + (c,) * take, out)

    def groups(self, rank: str, size: int, max_wild: int) -> list[tuple[tuple[Card, ...], int]]:
        """Ways to make ``size`` cards of ``rank``: (cards, wildcards used), ≥1 natural."""
        key = (rank, size, max_wild)
        if key in self._groups:
            return self._groups[key]
        out = []
        have = self.naturals(rank)
        for k in range(min(size, have), max(1, size - max_wild) - 1, -1):
            used = size - k
            for sub in self.subsets(rank, k):
                out.append((sub + (self.wild,) * used, used))
        self._groups[key] = out
        return out


def legal_plays(hand: Iterable[object], prev: Play | None, level: object) -> list[Play]:
    """Every distinct play ``hand`` may make on ``prev`` (``None`` or PASS: a lead).

    On a lead that is every combination the hand holds; otherwise every play that
    ``beats`` prev. Weakest first, by ``strength``: the generator emits each type in
    ascending rank, so only the (few) bombs need sorting.

    >>> for play in legal_plays(["S3", "H3", "D5", "HR"], None, "2"):
    ...     print(play)
    Single 3 [S3]
    Single 3 [H3]
    Single 5 [D5]
    Single R [HR]
    Pair 3 [S3 H3]
    >>> legal_plays(["S3", "H3", "D5", "HR"], Play("Single", "4", ("S4",)), "2")
    [Play(type='Single', rank='5', cards=('D5',)), Play(type='Single', rank='R', cards=('HR',))]
    >>> legal_plays(["S3", "H2", "D5"], Play("Pair", "4", ("S4", "C4")), "2")  # H2: the wildcard
    [Play(type='Pair', rank='5', cards=('H2', 'D5'))]
    """
    level = parse_level(level)
    cards = sort_cards(parse_cards(hand))
    h = _Hand(cards, level)
    lead = prev is None or prev.is_pass
    want = None if prev is None or lead or prev.is_bomb else prev.type
    above = 0 if prev is None or want is None else rank_value(prev, level)
    found: dict[Play, None] = {}  # an ordered set
    if want is None or want == SINGLE:
        _singles(h, cards, above, found)
    for type_, size in _OF_A_RANK:
        if want is None or want == type_:
            _of_a_rank(h, type_, size, above, found)
    if want is None or want == THREE_PAIR:
        _multi_sequences(h, THREE_PAIR, above, found)
    if want is None or want == THREE_WITH_TWO:
        _full_houses(h, above, found)
    if want is None or want == TWO_TRIPS:
        _multi_sequences(h, TWO_TRIPS, above, found)
    if want is None or want == STRAIGHT:
        _straights(h, above, found)
    bombs: dict[Play, None] = {}
    _bombs(h, bombs)
    _straight_flushes(h, bombs)
    ordered = sorted(bombs, key=lambda p: (strength(p, level), [card_key(c) for c in p.cards]))
    if prev is not None and not lead and prev.is_bomb:
        return [p for p in ordered if beats(p, prev, level)]
    return list(found) + ordered


_KEY = card_key
#: builds a Play without the Python-level __new__: this is the hot path
_new = cast(Callable[[type[Play], tuple[PlayType, str, tuple[Card, ...]]], Play], tuple.__new__)
#: the plays of cards of one rank below bombs, and their size
_OF_A_RANK: tuple[tuple[PlayType, int], ...] = ((PAIR, 2), (TRIPS, 3))


def _add(found: dict[Play, None], type_: PlayType, rank: str, cards: tuple[Card, ...]) -> None:
    found[_new(Play, (type_, rank, tuple(sorted(cards, key=_KEY))))] = None


def _ranks_up(h: _Hand, above: int) -> list[str]:
    """Ranks in single-card order under the hand's level, weakest first, above ``above``."""
    return [r for r in sorted(RANKS, key=lambda r: order(r, h.level)) if order(r, h.level) > above]


def _singles(h: _Hand, cards: tuple[Card, ...], above: int, found: dict[Play, None]) -> None:
    for c in sorted(set(cards), key=lambda c: (card_order(c, h.level), card_key(c))):
        if card_order(c, h.level) > above:
            _add(found, SINGLE, rank_of(c), (c,))


def _of_a_rank(h: _Hand, type_: PlayType, size: int, above: int, found: dict[Play, None]) -> None:
    for r in _ranks_up(h, above):
        for group, _ in h.groups(r, size, h.w):
            _add(found, type_, r, group)
        if type_ == PAIR and r == h.level and h.w == 2:
            _add(found, PAIR, h.level, (h.wild, h.wild))
    if type_ == PAIR:
        for joker, rank in ((SMALL_JOKER, "B"), (BIG_JOKER, "R")):
            if h.jokers[joker] == 2 and order(rank, h.level) > above:
                _add(found, PAIR, rank, (joker, joker))


def _bombs(h: _Hand, found: dict[Play, None]) -> None:
    for r in RANKS:
        for size in range(4, h.naturals(r) + h.w + 1):
            for group, _ in h.groups(r, size, h.w):
                _add(found, BOMB, r, group)
    if h.jokers[SMALL_JOKER] == 2 and h.jokers[BIG_JOKER] == 2:
        _add(found, BOMB, JOKER_RANK, (SMALL_JOKER,) * 2 + (BIG_JOKER,) * 2)


def _pair_options(h: _Hand, wilds: int) -> list[tuple[str, tuple[Card, ...]]]:
    """Every pair a full house may carry using up to ``wilds`` wildcards, with its rank
    ("" for two wildcards, which stand for a pair of any other rank)."""
    cached = h._pairs.get(wilds)
    if cached is None:
        cached = [(r, g) for r in RANKS for g, _ in h.groups(r, 2, wilds)]
        if wilds == 2:
            cached.append(("", (h.wild, h.wild)))
        cached.extend(("", (j, j)) for j in (SMALL_JOKER, BIG_JOKER) if h.jokers[j] == 2)
        h._pairs[wilds] = cached
    return cached


def _full_houses(h: _Hand, above: int, found: dict[Play, None]) -> None:
    for t in _ranks_up(h, above):
        for triple, used in h.groups(t, 3, h.w):
            for rank, pair in _pair_options(h, h.w - used):
                if rank == t:
                    continue
                if used or h.wild in pair:
                    cards = tuple(sorted(triple + pair, key=_KEY))
                else:  # natural groups are already in canonical order: order the two groups
                    cards = pair + triple if rank and NATURAL[rank] < NATURAL[t] else triple + pair
                found[_new(Play, (THREE_WITH_TWO, t, cards))] = None


def _window_fills(h: _Hand, start: int, suits: str) -> Iterator[tuple[tuple[Card, ...], int]]:
    """Every way to fill a five-rank window with natural cards of ``suits`` and wildcards:
    yields (cards in window order, wildcards used). Wildcard positions are chosen first, so
    no combination using too many wildcards is ever built."""
    naturals = [[c for c in h.by_rank[r] if c[0] in suits] for r in _WINDOW_RANKS[start]]
    empty = {i for i, opts in enumerate(naturals) if not opts}
    for used in range(len(empty), h.w + 1):
        for wild_at in combinations(range(5), used):
            if empty.issubset(wild_at):
                options: list[Sequence[Card]] = [(h.wild,) if i in wild_at else naturals[i] for i in range(5)]
                for combo in product(*options):
                    yield combo, used


def _straights(h: _Hand, above: int, found: dict[Play, None]) -> None:
    """Plain straights: five consecutive ranks, not all of one suit (a wildcard may take
    another suit, so any straight using one is also plain)."""
    for start in range(above + 1, 11):
        rank = START_RANK[start]
        for combo, used in _window_fills(h, start, SUITS):
            if not used and len({c[0] for c in combo}) == 1:
                continue  # five naturals of one suit are a straight flush only
            if used or start == 1:
                _add(found, STRAIGHT, rank, combo)
            else:  # one natural per rank, in rank order: already canonical
                found[_new(Play, (STRAIGHT, rank, combo))] = None


def _straight_flushes(h: _Hand, found: dict[Play, None]) -> None:
    """Straight flushes (同花顺), suit by suit; wildcards take the suit."""
    for suit in SUITS:
        for start in range(1, 11):
            rank = START_RANK[start]
            for combo, _ in _window_fills(h, start, suit):
                _add(found, STRAIGHT_FLUSH, rank, combo)


def _multi_sequences(h: _Hand, type_: PlayType, above: int, found: dict[Play, None]) -> None:
    """Tubes (三连对) and plates (钢板): each rank of the window as a group, wildcards allowed."""
    per, length, last_start = SEQUENCE_SHAPES[type_]
    for start in range(above + 1, last_start + 1):
        ranks = _WINDOW_RANKS[start][:length]
        options = []
        for r in ranks:
            opts = h.groups(r, per, h.w)
            if per == 2 and h.w == 2:
                opts = opts + [((h.wild, h.wild), 2)]  # a whole pair of the window from wildcards
            if not opts:
                break
            options.append(opts)
        else:
            rank = START_RANK[start]
            for combo in product(*options):
                if length == 3:
                    (a, ua), (b, ub), (c, uc) = combo
                    used, cards = ua + ub + uc, a + b + c
                else:
                    (a, ua), (b, ub) = combo
                    used, cards = ua + ub, a + b
                if used > h.w:
                    continue
                if used or start == 1:
                    _add(found, type_, rank, cards)
                else:  # natural groups in rank order: already canonical
                    found[_new(Play, (type_, rank, cards))] = None

