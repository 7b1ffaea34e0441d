"""Which cards lie in a row: Guandan plays, and plain random cards for class balance.

Real rows are plays (pairs, full houses, straights, bombs of up to ten cards from two
decks), so neighbouring indices are often the same rank or consecutive ranks; the detector
should see that. Half the rows are uniformly random cards instead, so that every class,
jokers included, is seen about equally often whatever the play statistics.
"""

from __future__ import annotations

import numpy as np

from engine.cards import ALL_CARDS, RANKS, SUITS

_TYPES = ("Single", "Pair", "Trips", "ThreeWithTwo", "Straight", "ThreePair", "TwoTrips", "Bomb",
          "StraightFlush", "JokerBomb")
_WEIGHTS = np.array([10, 12, 7, 10, 10, 6, 5, 9, 2, 1], np.float64)


def _suits(rng: np.random.Generator, n: int) -> list[str]:
    # two decks: each suit at most twice for one rank
    pool = [s for s in SUITS for _ in range(2)]
    return [pool[i] for i in rng.permutation(len(pool))[:n]]


def _same_rank(rng: np.random.Generator, rank: str, n: int) -> list[str]:
    return [s + rank for s in _suits(rng, n)]


def random_play(rng: np.random.Generator) -> list[str]:
    """The cards of one plausible Guandan play, in the order a player lays them."""
    kind = _TYPES[int(rng.choice(len(_TYPES), p=_WEIGHTS / _WEIGHTS.sum()))]
    rank = RANKS[int(rng.integers(len(RANKS)))]
    if kind == "Single":
        return [ALL_CARDS[int(rng.integers(len(ALL_CARDS)))]]
    if kind in ("Pair", "Trips"):
        return _same_rank(rng, rank, 2 if kind == "Pair" else 3)
    if kind == "Bomb":
        return _same_rank(rng, rank, int(rng.integers(4, 9)))
    if kind == "JokerBomb":
        return ["SB", "SB", "HR", "HR"]
    if kind == "ThreeWithTwo":
        other = RANKS[(RANKS.index(rank) + 1 + int(rng.integers(len(RANKS) - 1))) % len(RANKS)]
        return _same_rank(rng, rank, 3) + _same_rank(rng, other, 2)
    # sequences: A may be low (A2345) or high (TJQKA)
    length, per = {"Straight": (5, 1), "StraightFlush": (5, 1), "ThreePair": (3, 2), "TwoTrips": (2, 3)}[kind]
    order = "A" + RANKS  # A low … A high
    start = int(rng.integers(0, len(order) - length + 1))
    ranks = order[start:start + length]
    if kind == "StraightFlush":
        suit = SUITS[int(rng.integers(4))]
        return [suit + r for r in ranks]
    if kind == "Straight":
        return [SUITS[int(rng.integers(4))] + r for r in ranks]
    return [c for r in ranks for c in _same_rank(rng, r, per)]


def random_row(rng: np.random.Generator, max_cards: int = 10, play_prob: float = 0.5) -> list[str]:
    """Cards for one row: a play with probability ``play_prob``, else 1..max_cards random cards."""
    if rng.random() < play_prob:
        cards = random_play(rng)
        if len(cards) <= max_cards:
            if rng.random() < 0.15:  # players do not always sort
                cards = [cards[i] for i in rng.permutation(len(cards))]
            return cards
    n = int(rng.integers(1, max_cards + 1))
    return [ALL_CARDS[int(i)] for i in rng.integers(0, len(ALL_CARDS), size=n)]


def joker_row(rng: np.random.Generator, max_cards: int = 10) -> list[str]:
    """A row with jokers in it: a single joker, a pair, the four jokers' bomb, or random cards
    with jokers among them (a joker beside other cards, as in a hand fanned out)."""
    kind = int(rng.integers(4))
    if kind == 0:
        return [_joker(rng)]
    if kind == 1:
        return [_joker(rng)] * 2
    if kind == 2 and max_cards >= 4:
        return ["SB", "SB", "HR", "HR"]
    n = int(rng.integers(2, max_cards + 1))
    cards = [_joker(rng) if rng.random() < 0.4 else ALL_CARDS[int(rng.integers(52))] for _ in range(n)]
    cards[int(rng.integers(n))] = _joker(rng)  # at least one
    return cards


def _joker(rng: np.random.Generator) -> str:
    return ("SB", "HR")[int(rng.integers(2))]
