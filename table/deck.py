"""Two decks, each card twice: a reading of a third copy is a misreading.

Guandan is played with two full decks (RULES.md, *Table and cards*), so no more than two
copies of a card can come out in a hand. When the camera reads a play that would make a
third, the likelier story by far is that the reader took one card for its look-alike — a
club for a spade, a 4 for an ace — and not that a third deck came to the table. Such a card
is taken as the reader's likeliest runner-up that the deck still holds, at the runner-up's
confidence (so a referee is asked to check the play); with no runner-up left the reading
stands, and the rules engine says *duplicate card*.

Only a runner-up of some weight (``RUNNER_UP``) is taken. The third copy may be the right
reading and an *earlier* one the misread card; a card read surely now, with nothing else
it could be, is kept, or one misreading would turn every later right reading of that card
into another error. ``RUNNER_UP`` is the weight that gave the most plays exact and the
fewest false alerts on rendered held-out games (``docs/experiments.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import COPIES

RUNNER_UP = 0.1  # the least confidence a runner-up needs to be taken instead of a third copy


@dataclass(frozen=True)
class Reread:
    """A card of a play taken as another: the reading, what it was taken as, and how sure."""

    read: str
    taken: str
    confidence: float


def within_deck(cards: Sequence[str], others: Sequence[Sequence[tuple[str, float]]], seen: Counter,
                copies: int = COPIES, floor: float = RUNNER_UP) -> tuple[tuple[str, ...], list[Reread]]:
    """``cards`` (one play, in laid order) with every copy beyond ``copies`` — counting the
    cards already played this hand, ``seen`` — taken as its likeliest runner-up (``others``,
    per card, likeliest first) of at least ``floor`` that still has a copy to spare. Of
    several copies of one name in the play, those whose runner-up is likeliest are the ones
    taken as something else."""
    others = [[(name, conf) for name, conf in these if conf >= floor] for these in others]
    out = list(cards)
    count = Counter(seen) + Counter(cards)
    rereads: list[Reread] = []
    # the copies likeliest to be something else first (their first runner-up's confidence)
    for i in sorted((i for i in range(len(cards)) if others[i]), key=lambda i: (others[i][0][1], i), reverse=True):
        card = out[i]
        if count[card] <= copies:
            continue
        for name, conf in others[i]:
            if count[name] < copies:
                out[i] = name
                count[card] -= 1
                count[name] += 1
                rereads.append(Reread(card, name, conf))
                break
    return tuple(out), rereads


def at_most_copies(cards: Sequence[str], copies: int = COPIES) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``cards`` with any copy of a name beyond ``copies`` left out, and what was left out.

    One play read with three cards of one name, none with a runner-up to take instead,
    cannot go into the record as it is: no record can hold a card two decks do not. The
    play is kept with two, so it is not lost, and the referee is told to check it."""
    kept: list[str] = []
    dropped: list[str] = []
    for card in cards:
        (dropped if kept.count(card) >= copies else kept).append(card)
    return tuple(kept), tuple(dropped)
