"""A seat's play zone over time: when the cards in it have settled, and which are new.

The camera sees, frame after frame, what lies in each zone. A play is the set of cards that
appears and then lies still — hands gone, no motion — for ``settle_s``. Cards already
committed stay in the zone while the trick goes on (a player may play twice in a trick), so
a new play is what lies there *beyond* what was committed. When the zone empties, the
trick's plays have been turned face down onto the pile: that ends what the zone holds; it
is not a play. A zone that shows fewer of its committed cards but not none is a hand or a
shadow over them, not a change — within a trick. Cards committed in a trick that is over
(``trick_over``) and no longer seen are gone to the pile even where the camera never saw the
zone bare (swept under a hand or a shadow, in frames a node skipped): they stop counting as
lying there, or every later play of a card of theirs or of their ranks would be taken for
one of them.

Commit on the seat's button press when a clock is attached (``commit``), or on settling
otherwise (``auto_commit``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from engine.cards import rank_of
from vision.live.grouping import Laid

SETTLE_S = 0.3
MOTION_LEVEL = 6.0  # mean absolute grey-level change between frames that counts as motion
#: a runner-up this likely makes a card read where a committed one is missing possibly that
#: card, misread, rather than a new card laid over it
COVERED_MISREAD = 0.05


@dataclass(frozen=True)
class Settled:
    seat: str
    t: float
    laid: Laid
    new: tuple[str, ...]  # the cards beyond what was committed, in laid order


@dataclass(frozen=True)
class Cleared:
    seat: str
    t: float


def thumbnail(image: np.ndarray) -> np.ndarray:
    """A zone image made small and grey, once per frame: what motion is measured on."""
    import cv2

    small = cv2.resize(image, (64, 32), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.int16)


def motion(previous: np.ndarray | None, current: np.ndarray) -> float:
    """How much a zone changed between two thumbnails: mean absolute grey difference."""
    if previous is None or previous.shape != current.shape:
        return 255.0
    return float(np.abs(previous - current).mean())


def _new(laid: Laid, committed: Counter) -> tuple[str, ...]:
    """The cards of a zone beyond those committed. No more cards than were committed is
    nothing new, whatever the names: a card read one way when committed and another way
    now (knocked askew, a shadow, a closer look) is the same card, not a play. The count
    is what to trust: when the names beyond the committed ones are more than the cards
    added, an old card is read another way now, and the new cards are the last ones of
    the row (a row grows to the right as its owner lays more).

    Unless the old cards are hidden: a seat's second play of a trick laid over its first
    covers that one's indices, and the zone shows the new cards alone. Where committed
    cards are missing from the reading and no card read in their stead may be one of them
    misread (``_may_be_any``), every card beyond the visible committed ones is new."""
    by_name = _beyond(laid.cards, committed)
    missing = Counter(committed) - Counter(laid.cards)
    if by_name and missing and not _may_be_any(laid, by_name, set(missing)):
        return by_name
    added = len(laid.cards) - sum(committed.values())
    if added <= 0:
        return ()
    return by_name if len(by_name) == added else laid.cards[-added:]


def _may_be_any(laid: Laid, cards: tuple[str, ...], names: set[str]) -> bool:
    """Whether some card of ``cards`` in ``laid`` may be one of ``names`` misread: of the
    same rank (a suit is what a reader most often gets wrong), or with one of them among its
    runners-up from ``COVERED_MISREAD``."""
    ranks = {rank_of(name) for name in names}
    return any(rank_of(card) in ranks
               or any(other in names and conf >= COVERED_MISREAD for other, conf in laid.others_of(card))
               for card in cards)


def _beyond(laid: tuple[str, ...], committed: Counter) -> tuple[str, ...]:
    """The cards of ``laid`` not accounted for by ``committed``, keeping the laid order."""
    left = Counter(committed)
    out = []
    for card in laid:
        if left[card]:
            left[card] -= 1
        else:
            out.append(card)
    return tuple(out)


class ZoneTracker:
    def __init__(self, seat: str, settle_s: float = SETTLE_S, auto_commit: bool = False) -> None:
        self.seat = seat
        self.settle_s = settle_s
        self.auto_commit = auto_commit
        self.on_table: Counter = Counter()  # committed cards still lying in the zone
        self.earlier: Counter = Counter()  # those of them committed in a trick that is over
        self.stable: Laid = Laid((), ())
        self._candidate: Laid = Laid((), ())
        self._since: float | None = None

    def update(self, t: float, laid: Laid, moving: bool = False) -> list[Settled | Cleared]:
        """Feed one frame's reading of the zone; returns what happened."""
        if moving:
            self._since = None
            return []
        if self._since is None or laid.cards != self._candidate.cards:
            self._candidate, self._since = laid, t
            return []
        if t - self._since < self.settle_s or laid.cards == self.stable.cards:
            return []
        self.stable = laid
        if not laid.cards:
            self.earlier = Counter()
            if self.on_table:
                self.on_table.clear()
                return [Cleared(self.seat, t)]
            return []
        self._forget_swept(laid)
        new = _new(laid, self.on_table)
        event = Settled(self.seat, t, laid, new)
        if self.auto_commit and new:
            self.commit()
        return [event]

    def trick_over(self, keep: tuple[str, ...] = ()) -> None:
        """A new trick has begun: what lies committed in the zone, but for ``keep`` (the cards
        that began it, where this seat led), was played in a trick that is over."""
        self.earlier = self.on_table - Counter(keep)

    def _forget_swept(self, laid: Laid) -> None:
        """Cards of a trick that is over have been swept to the pile when fewer than half of
        them are still seen and either the zone holds fewer than half as many cards as they
        were or a card lies there that none of them can be misread as: those not seen no
        longer lie in the zone. Otherwise the trick's cards may still lie there, some under a
        hand or read another way (a lone king read as a club where a spade was committed)."""
        if not self.earlier:
            return
        were = sum(self.earlier.values())
        gone = self.earlier - Counter(laid.cards)
        if 2 * (were - sum(gone.values())) >= were:  # half or more still seen
            return
        few = 2 * len(laid.cards) < were
        if few or any(not _may_be_any(laid, (card,), set(gone)) for card in _beyond(laid.cards, self.on_table)):
            self.on_table -= gone  # those still seen still lie there
            self.earlier = Counter()

    def new_cards(self) -> tuple[str, ...]:
        """What a press would commit now: the settled cards beyond those committed."""
        return _new(self.stable, self.on_table)

    def count_as_laid(self, cards) -> None:
        """Cards known from elsewhere to lie in the zone already (a play before a restart, one
        a referee put in): not new when the camera settles on them."""
        self.on_table.update(cards)

    def commit(self) -> tuple[str, ...]:
        new = self.new_cards()
        self.on_table.update(new)
        return new
