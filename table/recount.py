"""Two decks over a whole hand: the hand's suits read again together, each card at most twice.

``table.deck`` stops a play from making a third copy of a card, but it can only change the
play being read. When the reader takes a pair of spade queens for clubs early in a hand, the
two real club queens later on are the "third and fourth" and are taken as spades: one
misreading becomes two wrong plays. Read together, the hand says which story is likelier:
the early pair read 0.44 club against 0.42 spade, the later one 0.50 against 0.23, so the
early pair is the one to change.

``HandCount`` keeps every play of the hand with what each card may be (the reader's
confidence in its name and its runners-up), and ``settle`` finds the likeliest cards for all
of them together — the product of every card's confidence, highest — with no name more than
twice in the hand. Only what the reader itself offers is considered (runners-up of at least
``FLOOR``), and a play is changed only into the same combination (same type and rank,
one reading only): a suit read again never turns a pair into no pair, a straight into a
straight flush, or moves a wildcard. A recorded play may change rank too — a pair of 5s
read as 3s, found out when the real 3s come — but not type, and only where the caller (the
runtime, replaying the record) finds that the record so corrected holds no violation it did not:
a rank decides who won a trick, and the passes inferred after it (a camera sees no pass)
must still fit. Whatever changes an earlier play is a correction of the record, which the
referee is told of; an unlikely card kept where no other story fits stays as it is.

The search is a cheapest assignment (cards to the two copies of each name), solved exactly
by ``cheapest_assignment``: a hand has at most 108 cards, so it takes a millisecond or two.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from engine.cards import COPIES, InvalidCard
from engine.plays import classify

#: the least confidence a runner-up needs to be considered. Lower than ``table.deck``'s
#: ``RUNNER_UP`` (0.1), which takes a runner-up outright: here it is weighed against the whole
#: hand. On games 200–202, 300 and the benchmark's six whole hands (1080p, and 720p) 0.05 read
#: one play more than 0.1 (a bomb of aces, one read 0.67 spade and 0.08 club) and 0.02 no more.
FLOOR = 0.05
#: the cost of a card kept beyond its two copies (no other story fits): dearer than any
#: story the reader offers (a runner-up at ``FLOOR`` costs about 3)
KEPT_OVER = 50.0
#: a cost no assignment takes
NEVER = 1e6


@dataclass
class ReadPlay:
    """A play of the hand as the camera read it. ``choices`` has, per card in the laid order,
    what the card may be as (name, confidence), likeliest first; ``seq`` is the play's event
    (``None`` while the play is being recorded)."""

    seq: int | None
    cards: tuple[str, ...]
    choices: tuple[tuple[tuple[str, float], ...], ...]


@dataclass(frozen=True)
class Recount:
    """A play whose cards the hand read together changed: the event, what it was and is."""

    seq: int | None
    was: tuple[str, ...]
    now: tuple[str, ...]


def _readings(cards: tuple[str, ...], level: str) -> set[tuple[str, str]]:
    try:
        return {(play.type, play.rank) for play in classify(cards, level)}
    except InvalidCard:
        return set()


class HandCount:
    """The plays of one hand, read together (see the module's docstring)."""

    def __init__(self, level: str, floor: float = FLOOR, copies: int = COPIES) -> None:
        self.level = level
        self.floor = floor
        self.copies = copies
        self.plays: list[ReadPlay] = []

    def seen(self) -> Counter:
        """The cards of the hand's plays as they stand now."""
        return Counter(card for play in self.plays for card in play.cards)

    def add(self, play: ReadPlay) -> None:
        """A play being recorded (``seq`` None) replaces one read before that never was (a
        clock press that came to nothing)."""
        if play.seq is None:
            self.plays = [p for p in self.plays if p.seq is not None]
        self.plays.append(play)

    def amend(self, cards: tuple[str, ...]) -> None:
        """The play being recorded is taken as ``cards`` after all (``table.deck``,
        ``table.combination``): counted so, and read again later only if each card is
        still one of what its place was read as."""
        for play in self.plays:
            if play.seq is None and play.cards != cards:
                fits = len(cards) == len(play.choices) and all(
                    card in dict(slot) for card, slot in zip(cards, play.choices, strict=True))
                play.cards, play.choices = cards, (play.choices if fits else ())

    def bind(self, seq: int) -> None:
        """The play being recorded has become event ``seq``."""
        for play in self.plays:
            if play.seq is None:
                play.seq = seq

    def settle(self, harmless: Callable[[int, tuple[str, ...]], bool] | None = None) -> list[Recount]:
        """Read the hand's plays again together; change those whose likeliest cards differ
        and return what changed. A recorded play whose new cards are of another rank (a
        pair of 3s that is a pair of 5s; never another type: a straight is not made a
        straight flush) is changed only if ``harmless`` says so for its event and cards:
        the record, corrected so, must hold no violation it did not hold (the trick's story
        as the runtime inferred it still fits)."""
        pinned = {i for i, play in enumerate(self.plays) if not self._may_change(play)}
        judged: dict[tuple[int, tuple[str, ...]], bool] = {}

        def allowed(play: ReadPlay, now: tuple[str, ...]) -> bool:
            was, then = _readings(play.cards, self.level), _readings(now, self.level)
            if then == was:
                return True
            if harmless is None or play.seq is None or len(then) != 1 or {t for t, _ in then} != {t for t, _ in was}:
                return False
            if (play.seq, now) not in judged:
                judged[play.seq, now] = harmless(play.seq, now)
            return judged[play.seq, now]

        while True:
            cards = self._likeliest(pinned)
            wrong = {i for i, play in enumerate(self.plays) if i not in pinned and cards[i] != play.cards
                     and not allowed(play, cards[i])}
            if not wrong:
                break
            pinned |= wrong  # that story breaks the play's combination: keep the play as it is
        changed = []
        for play, now in zip(self.plays, cards, strict=True):
            if sorted(now) != sorted(play.cards):
                changed.append(Recount(play.seq, play.cards, now))
                play.cards = now
        return changed

    def _may_change(self, play: ReadPlay) -> bool:
        """Only a play with one reading, whose every card was read, is read again."""
        return len(play.choices) == len(play.cards) and len(_readings(play.cards, self.level)) == 1

    def _likeliest(self, pinned: set[int]) -> list[tuple[str, ...]]:
        """Every play's cards in the likeliest story with no name beyond ``copies``; the
        pinned plays' cards as they are."""
        room = Counter({name: self.copies for play in self.plays for slot in play.choices for name, _ in slot})
        room.subtract(card for i in pinned for card in self.plays[i].cards)
        slots = [(i, k) for i, play in enumerate(self.plays) if i not in pinned for k in range(len(play.cards))]
        out = [list(play.cards) for play in self.plays]
        if not slots:
            return [tuple(c) for c in out]
        columns = [name for name in sorted(room) for _ in range(max(0, room[name]))]
        at: dict[str, list[int]] = {}
        for j, name in enumerate(columns):
            at.setdefault(name, []).append(j)
        cost = np.full((len(slots), len(columns) + len(slots)), NEVER)
        for r, (i, k) in enumerate(slots):
            play = self.plays[i]
            current = play.cards[k]
            options = {name: conf for name, conf in play.choices[k] if conf >= self.floor}
            options.setdefault(current, self.floor)
            for name, conf in options.items():
                cost[r, at.get(name, [])] = -math.log(max(conf, 1e-6))
            cost[r, len(columns) + r] = KEPT_OVER - math.log(max(options[current], 1e-6))
        for r, j in enumerate(cheapest_assignment(cost)):
            i, k = slots[r]
            if j < len(columns):
                out[i][k] = columns[j]
        return [tuple(c) for c in out]


def cheapest_assignment(cost: np.ndarray) -> list[int]:
    """The column each row takes so that no two rows share one and the summed cost is
    least (rows ≤ columns): the shortest-augmenting-path form of the Hungarian method,
    O(rows² × columns), each step a numpy operation over the columns."""
    rows, cols = cost.shape
    if rows > cols:
        raise ValueError(f"{rows} rows cannot each take one of {cols} columns")
    u = np.zeros(rows + 1)
    v = np.zeros(cols + 1)
    owner = np.zeros(cols + 1, dtype=int)  # 1-based row holding each column; column 0 is the root
    way = np.zeros(cols + 1, dtype=int)
    for row in range(1, rows + 1):
        owner[0] = row
        col = 0
        least = np.full(cols + 1, np.inf)
        used = np.zeros(cols + 1, dtype=bool)
        while True:
            used[col] = True
            r = owner[col]
            reduced = cost[r - 1] - u[r] - v[1:]
            free = ~used[1:]
            better = free & (reduced < least[1:])
            least[1:][better] = reduced[better]
            way[1:][better] = col
            masked = np.where(free, least[1:], np.inf)
            nxt = int(np.argmin(masked)) + 1
            delta = masked[nxt - 1]
            np.add.at(u, owner[used], delta)
            v[used] -= delta
            least[1:][free] -= delta
            col = nxt
            if owner[col] == 0:
                break
        while col:
            prev = way[col]
            owner[col] = owner[prev]
            col = prev
    out = [0] * rows
    for col in range(1, cols + 1):
        if owner[col]:
            out[owner[col] - 1] = col - 1
    return out
