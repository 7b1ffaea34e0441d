"""Two witnesses of one card: the suit reader's opinion (``vision.live.suit_reader``) folded
into the index reader's (``vision.live.reader``), where the suit reader is sure."""

from __future__ import annotations

import numpy as np

from engine.cards import ALL_CARDS, BIG_JOKER, SMALL_JOKER, SUITS, suit_of

#: the suit reader is heard only where it is at least this sure of a suit: where pips lie in
#: its view it is, and there it knows better than the index reader; elsewhere it reads the
#: index's own sign, less well than the index reader does (``models/README.md``)
SURE = 0.9

#: for each of the index reader's classes, its suit's position in ``SUITS`` (-1: no suit)
_SUIT_OF_CLASS = np.array([-1 if c in (SMALL_JOKER, BIG_JOKER) else SUITS.index(suit_of(c)) for c in ALL_CARDS] + [-1])


def with_suits(probs: np.ndarray, suits: np.ndarray, sure: float = SURE) -> np.ndarray:
    """The index reader's N×CLASSES ``probs`` with the suit reader's N×4 ``suits`` folded in.

    Two witnesses of the same card: where the suit reader is at least ``sure`` of a suit,
    each suited card's probability is multiplied by how much likelier than even (¼) it
    finds that card's suit; the jokers and *no index*, which have no suit, keep theirs;
    then all are normalised again. Less sure, or with no opinion (¼ each), it changes
    nothing."""
    factor = np.ones_like(probs)
    suited = _SUIT_OF_CLASS >= 0
    heard = suits.max(axis=1) >= sure
    factor[np.ix_(heard, suited)] = 4.0 * np.clip(suits[heard][:, _SUIT_OF_CLASS[suited]], 1e-6, 1.0)
    out = probs * factor
    return out / out.sum(axis=1, keepdims=True)
