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

Which cards are new is first a matter of names and the count. Where a committed card is not
read by its name — hidden under a play laid over it, or read another way — it is a matter of
where each card lies and whether the zone's picture changed there since the cards were
committed (``vision.live.index_change``): a card laid square over another, a card read late.

Commit on the seat's button press when a clock is attached (``commit``), or on settling
otherwise (``auto_commit``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from engine.cards import rank_of
from vision.live.grouping import Laid
from vision.live.index_change import unchanged

SETTLE_S = 0.3
MOTION_LEVEL = 6.0  # mean absolute grey-level change between frames that counts as motion
#: a runner-up this likely makes a card read where a committed one is missing possibly that
#: card, misread, rather than a new card laid over it
COVERED_MISREAD = 0.05
#: a card read this near where a committed card's top-left index lay may be that card (a
#: reading wanders by millimetres; the next card of a row lies 1.3 cm on)
SAME_PLACE_CM = 0.8
#: a card that may be a committed one, read this near where that one lay (its place bare), is
#: that card nudged or pushed along
NUDGE_CM = 3.0

Place = tuple[float, float]


@dataclass(frozen=True)
class Settled:
    seat: str
    t: float
    laid: Laid
    new: tuple[str, ...]  # the cards beyond what was committed, in laid order
    #: told by where the cards lie and whether their indices changed, not by names and count
    by_place: bool = False


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


def _new_by_place(laid: Laid, committed: list[tuple[str, Place | None]], before: np.ndarray, now: np.ndarray
                  ) -> tuple[int, ...] | None:
    """Which cards of a zone (their indices in ``laid``) are beyond those committed, told by
    where they lie and whether the zone changed there (its picture ``before``, at the last
    commit, and ``now``; ``vision.live.index_change``).
    None where the place of a committed card is not known (one a referee put in, one the
    reader could not name), or the row has been laid afresh (``_row_moved``): then the names
    and the count decide (``_new``).

    Counting cannot tell a play laid over the seat's earlier one in the same trick: the new
    cards hide some old ones, and a bomb over a straight, its four cards and two of the
    straight's still seen, reads six cards where five were committed — one new by the count.
    Where they lie, and whether the zone changed there, tells:

    - a card where a committed one lay is that card, read another way or not — unless the
      zone changed there and it reads another name: a card laid over it, as a second
      straight or a bomb laid square over the first play (the bomb's fives over a straight's
      four, five and six: a reader's rank doubt would take them for those);
    - a card that may be a committed one (``_may_be``: its name, its rank, or a runner-up),
      that card missing from its place (and no other card lying there over it), within
      ``NUDGE_CM`` of it, is that card knocked askew or pushed along its row (and perhaps
      read another way now: the first world's row, centred again, its lone D4 read D8);
    - any other card is new where the zone changed, and where it did not, it lay there
      already, only now read (its index read on a later look)."""
    if not committed or len(laid.places) != len(laid.cards) or any(place is None for _, place in committed):
        return None
    if _row_moved(laid, committed):
        return None
    fresh = tuple(not same for same in unchanged(before, now, laid.places))
    pairs = sorted((_distance(laid.places[i], place), i, k) for i in range(len(laid.cards))
                   for k, (_, place) in enumerate(committed))
    found: set[int] = set()
    taken: set[int] = set()
    for distance, i, k in pairs:
        if distance > SAME_PLACE_CM:
            break
        if i in found or k in taken or (fresh[i] and laid.cards[i] != committed[k][0]):
            continue
        found.add(i)
        taken.add(k)
    covered = {k for distance, _, k in pairs if distance <= SAME_PLACE_CM}  # another card lies over it
    for distance, i, k in pairs:
        others = laid.others[i] if i < len(laid.others) else ()
        if (distance <= NUDGE_CM and i not in found and k not in taken | covered
                and _may_be(laid.cards[i], others, {committed[k][0]})):
            found.add(i)
            taken.add(k)
    return tuple(i for i in range(len(laid.cards)) if i not in found and fresh[i])


def _row_moved(laid: Laid, committed: list[tuple[str, Place | None]]) -> bool:
    """Whether the committed cards read by their names lie, most of them, away from where
    they were committed: the row laid afresh (pushed together, centred again as it grew, as
    the first world lays it). Their places, and the pictures there, then say nothing of
    which cards are which."""
    moves = [min(_distance(there, place) for name, there in zip(laid.cards, laid.places, strict=True)
                 if name == card) for card, place in committed if card in laid.cards]
    return 2 * sum(move > SAME_PLACE_CM for move in moves) > len(moves)


def _distance(a: Place, b: Place | None) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1])) if b is not None else float("inf")


def _may_be_any(laid: Laid, cards: tuple[str, ...], names: set[str]) -> bool:
    """Whether some card of ``cards`` in ``laid`` may be one of ``names`` misread: of the
    same rank (a suit is what a reader most often gets wrong), or with one of them among its
    runners-up from ``COVERED_MISREAD``."""
    return any(_may_be(card, laid.others_of(card), names) for card in cards)


def _may_be(card: str, others: tuple[tuple[str, float], ...], names: set[str]) -> bool:
    """Whether a card read ``card``, with runners-up ``others``, may be one of ``names``."""
    return rank_of(card) in {rank_of(name) for name in names} or any(
        other in names and conf >= COVERED_MISREAD for other, conf in others)


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
        #: where they lie (None: not known), those of this trick and those of one that is over
        self._now: list[tuple[str, Place | None]] = []
        self._before: list[tuple[str, Place | None]] = []
        self.stable: Laid = Laid((), ())
        #: the zone's picture when it settled (``stable``) and when its cards were last
        #: committed: whether each index is the one that lay there (``vision.live.index_change``)
        self._stable_look: np.ndarray | None = None
        self._committed_look: np.ndarray | None = None
        self._candidate: Laid = Laid((), ())
        self._since: float | None = None

    def update(self, t: float, laid: Laid, moving: bool = False, look: np.ndarray | None = None
               ) -> list[Settled | Cleared]:
        """Feed one frame's reading of the zone; returns what happened. ``look``: the zone's
        picture, which tells where it changed since its cards were last committed (without
        it, the names and the count do)."""
        if moving:
            self._since = None
            return []
        if self._since is None or laid.cards != self._candidate.cards:
            self._candidate, self._since = laid, t
            return []
        if t - self._since < self.settle_s or laid.cards == self.stable.cards:
            return []
        self.stable, self._stable_look = laid, look
        if not laid.cards:
            self.earlier = Counter()
            self._now, self._before = [], []
            if self.on_table:
                self.on_table.clear()
                return [Cleared(self.seat, t)]
            return []
        self._forget_swept(laid)
        indices, by_place = self._new_indices(laid)
        new = tuple(laid.cards[i] for i in indices)
        event = Settled(self.seat, t, laid, new, by_place)
        if self.auto_commit and new:
            self.commit()
        return [event]

    def trick_over(self, keep: tuple[str, ...] = ()) -> None:
        """A new trick has begun: what lies committed in the zone, but for ``keep`` (the cards
        that began it, where this seat led), was played in a trick that is over."""
        self.earlier = self.on_table - Counter(keep)
        placed, kept = self._now + self._before, Counter(keep)
        self._now, self._before = [], []
        for name, place in placed:
            if kept[name]:
                kept[name] -= 1
                self._now.append((name, place))
            else:
                self._before.append((name, place))

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
            for name, place in self._before:
                if gone[name]:
                    gone[name] -= 1
                else:
                    self._now.append((name, place))
            self._before = []

    def _new_indices(self, laid: Laid) -> tuple[tuple[int, ...], bool]:
        """Which cards of ``laid`` (the settled reading) are beyond those committed, and
        whether their places told: by their names and count (``_new``) where every committed
        card is read by its name, else by where they lie and where the zone changed, where
        both are known (``_new_by_place``).
        Names first: a row may be laid afresh as it grows (the cards pushed together, the row
        centred again), and its old cards, read as before, are old wherever they lie now.
        Where some are not read, they are hidden or read another way, and only where the
        cards lie tells which (a play laid over them, a card read late)."""
        before, now = self._committed_look, self._stable_look
        if (self.on_table - Counter(laid.cards) and before is not None and now is not None
                and before.shape == now.shape):
            by_place = _new_by_place(laid, self._now + self._before, before, now)
            if by_place is not None:
                return by_place, True
        left, chosen = list(laid.cards), []
        for name in _new(laid, self.on_table):  # the latest copies of a name are the new ones
            i = len(left) - 1 - left[::-1].index(name)
            left[i] = ""
            chosen.append(i)
        return tuple(sorted(chosen)), False

    def new_cards(self) -> tuple[str, ...]:
        """What a press would commit now: the settled cards beyond those committed."""
        return tuple(self.stable.cards[i] for i in self._new_indices(self.stable)[0])

    def count_as_laid(self, cards) -> None:
        """Cards known from elsewhere to lie in the zone already (a play before a restart, one
        a referee put in): not new when the camera settles on them."""
        self.on_table.update(cards)
        self._now += [(name, None) for name in cards]

    def commit(self) -> tuple[str, ...]:
        laid = self.stable
        new, _ = self._new_indices(laid)
        places = laid.places if len(laid.places) == len(laid.cards) else (None,) * len(laid.cards)
        self._now += [(laid.cards[i], places[i]) for i in new]
        self.on_table.update(laid.cards[i] for i in new)
        if new:
            self._committed_look = self._stable_look
        return tuple(laid.cards[i] for i in new)
