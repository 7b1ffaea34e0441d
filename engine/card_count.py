"""The card tracker (记牌): what has been played in a hand and what is still unseen.

For viewers and commentators: how many big and small jokers, level cards and wildcards are
still out, and which ranks still hold a bomb's worth of cards. Everything not yet played
counts as unseen — the tracker knows only what the table has shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TypedDict

from engine.cards import ALL_CARDS, BIG_JOKER, COPIES, RANKS, SMALL_JOKER, Card, rank_of, wildcard


class TrackerSummary(TypedDict):
    """What an overlay shows of the cards not yet played (``CardTracker.summary``)."""

    big_jokers: int
    small_jokers: int
    wildcards: int
    #: the level rank's cards that are no wildcard
    level_cards: int
    #: rank → copies unseen (jokers apart)
    by_rank: dict[str, int]
    #: the ranks with a bomb's worth (four or more) still unseen
    bomb_ranks: list[str]
    unseen: int


class CardTracker:
    """The cards played so far in one hand at ``level``, and what that leaves unseen.

    >>> tracker = CardTracker("5")
    >>> tracker.add(["HR", "H5", "S5"])
    >>> summary = tracker.summary()
    >>> summary["big_jokers"], summary["wildcards"], summary["level_cards"], summary["unseen"]
    (1, 1, 5, 105)
    """

    def __init__(self, level: str) -> None:
        self.level = level
        self.seen: Counter[Card] = Counter()

    def add(self, cards: Iterable[Card]) -> None:
        self.seen.update(cards)

    def unseen(self) -> Counter[Card]:
        """Copies of each card not yet played (0, 1 or 2)."""
        return Counter({c: max(0, COPIES - self.seen[c]) for c in ALL_CARDS})

    def summary(self) -> TrackerSummary:
        """The figures an overlay shows: jokers, level cards, wildcards, ranks by count."""
        un = self.unseen()
        wild = wildcard(self.level)
        by_rank = {r: sum(n for c, n in un.items() if rank_of(c) == r) for r in RANKS}
        return {
            "big_jokers": un[BIG_JOKER],
            "small_jokers": un[SMALL_JOKER],
            "wildcards": un[wild],
            "level_cards": by_rank[self.level] - un[wild],
            "by_rank": by_rank,
            "bomb_ranks": [r for r in RANKS if by_rank[r] >= 4],
            "unseen": sum(un.values()),
        }
