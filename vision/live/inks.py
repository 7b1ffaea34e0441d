"""The deck's inks: a four-colour deck prints clubs green and diamonds blue or orange, and that
tells a club from a spade and a diamond from a heart.

On many decks the suit sign in a corner index is a blot of four pixels in a table camera's
zone, and a spade's blot and a club's are the same (``models/README.md``). The index reader
looks at one index at a time and has learnt that a black blot may be either: most decks
print both black suits black. But a table plays one deck all hand long, and a four-colour
deck (about one deck in five of the renderer's, and sold for tournament play) prints its
clubs green while its spades stay black, its diamonds blue or orange while its hearts stay
red; the rank beside the sign is printed in the same ink, many pixels of it, so the colour
survives where the shape does not.

So the table learns its deck's inks from what it reads (``DeckInks``): the ink colour
(``ink``) of every index, kept per pair of suits a two-colour deck prints alike. One colour
for a pair is a two-colour deck, and nothing changes. Two colours, clearly apart, are a
four-colour deck (``two_inks``); which is which follows from what such decks print: the
spades' ink is the blacker one, the clubs' a green, the hearts' the one nearer red
(``black_split``, ``red_split``). From then on an index's ink decides between the two
suits of its pair (``DeckInks.settle``); the rank stays the reader's. A joker's ink says
which joker it is, on any deck: the big one is printed in colour, the small one in black
(``joker_of``), as strongly coloured as the deck's red and black suits on this camera.

The colour is measured as the ink's *absorption* relative to the paper around it, per
channel (1 - pixel / paper), over its mean: the same for a thin stroke and a bold one, in
warm light and cold, on white paper and cream. Black ink absorbs all three channels alike
(about 0 0 0); green ink absorbs red and blue more than green.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import numpy as np

from engine.cards import BIG_JOKER, SMALL_JOKER, is_joker, rank_of, suit_of
from vision.live.detector import Detection

#: a pixel of an index box is ink where it absorbs at least this much of the paper's light
INK = 0.25
#: the paper is the median colour of the box's lightest pixels (this share of them)
PAPER_SHARE = 0.3
MIN_INK_PIXELS = 3
#: a black-suit ink colour this far from black is no card ink (a red card misread, a thumb)
MAX_COLOUR = 0.45
#: how many indices of each pair of suits the table remembers: a hand's first plays show
#: both inks; a table given another deck mid-match has it learnt within about half a hand
#: (a pair of decks stays at a table, reshuffled, hand after hand)
MEMORY = 60
MIN_SIDE = 3  # indices of each ink before two inks are believed
MIN_SHARE = 0.2  # ... and at least this share of them each (a few red cards read black are no ink)
MIN_APART = 0.07  # how far apart two inks must be (absorption colour, as ``ink`` gives it)
MIN_GAP = 0.04  # ... with no index between them closer than this to either
MIN_SEPARATION = 6.0  # ... and their distance this many times their spread
#: an index is given an ink where it lies in the outer part of the way between the two
#: (a fraction of the distance from the ink's mean), not in the middle
DECISIVE = 0.35
#: ... and lies no further than this (a fraction of the distance) off the way between them
OFF_THE_WAY = 0.5
GREEN_HUE = 120.0  # four-colour decks print clubs green ...
HUE_NEAR = 60.0  # ... so a club ink's hue lies at most this far (degrees) from it
OTHER_HUE = 30.0  # a diamond ink this far in hue (degrees) from the hearts' is a four-colour deck's
#: how strongly coloured (``ink``'s length) the table's black-suit and red-suit indices are,
#: until it has read enough of its own (a camera's blur pales thin red strokes far below a
#: printed face's)
BLACK_STRENGTH, RED_STRENGTH = 0.05, 0.3
#: a joker's ink is told only where it lies in the outer quarter of the way from the black
#: suits' strength to the red suits' (the middle half is neither clearly)
JOKER_MARGIN = 0.25


def ink(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray | None:
    """The ink colour of the index in ``box`` (3 values, B G R, summing to about 0: each
    channel's absorption over their mean, less 1), or None where the box holds too little ink."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    pixels = image[max(0, y1):min(h, y2), max(0, x1):min(w, x2)].reshape(-1, 3).astype(np.float32)
    if len(pixels) < 4 * MIN_INK_PIXELS:
        return None
    light = pixels.sum(axis=1)
    paper = np.median(pixels[light >= np.quantile(light, 1 - PAPER_SHARE)], axis=0)
    absorbed = np.clip(1.0 - pixels / np.maximum(paper, 1.0), 0.0, 1.0)
    inked = absorbed.mean(axis=1) >= INK
    if inked.sum() < MIN_INK_PIXELS:
        return None
    total = absorbed[inked].sum(axis=0)
    return total / total.mean() - 1.0


def hue(colour: np.ndarray) -> float:
    """The hue of the ink (degrees: red 0, orange about 35, green about 120, blue about
    220) from its ``ink`` colour: an ink absorbs the light of the opposite hue, so it is
    the hue of what it absorbs, half a turn on."""
    b, g, r = (float(v) for v in colour)
    top, low = max(b, g, r), min(b, g, r)
    if top - low < 1e-6:
        return 0.0
    if top == r:
        h = 60.0 * ((g - b) / (top - low))
    elif top == g:
        h = 60.0 * (2.0 + (b - r) / (top - low))
    else:
        h = 60.0 * (4.0 + (r - g) / (top - low))
    return (h + 180.0) % 360.0


def hue_apart(a: float, b: float) -> float:
    """How far apart two hues are (degrees, 0–180)."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


@dataclass(frozen=True)
class Split:
    """A four-colour deck's two inks for a pair of suits, as ``ink`` measures them."""

    suits: tuple[str, str]
    inks: tuple[np.ndarray, np.ndarray]

    def suit(self, colour: np.ndarray) -> str | None:
        """The suit an index of this ink colour is, or None where it is not clearly either."""
        first, second = self.inks
        way = second - first
        t = float((colour - first) @ way / (way @ way))
        if np.linalg.norm(colour - first - t * way) > OFF_THE_WAY * np.linalg.norm(way):
            return None  # neither ink: a card of the other colour misread, a shadow
        if t <= DECISIVE:
            return self.suits[0]
        if t >= 1.0 - DECISIVE:
            return self.suits[1]
        return None


def two_inks(colours: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The means of two inks among index colours (N×3), or None for one ink.

    The colours are laid along their main direction and cut where the two sides are most
    apart for their spread; two inks are believed only when each side has ``MIN_SIDE``
    indices and ``MIN_SHARE`` of them (a card or two of the other colour misread make no
    ink of their own), the two sides are ``MIN_GAP`` apart where they meet, the distance
    is ``MIN_SEPARATION`` times the spread (a single ink cut in two by chance gives about
    three) and their means are ``MIN_APART`` apart."""
    if len(colours) < 2 * MIN_SIDE:
        return None
    centred = colours - colours.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    order = np.argsort(centred @ axis)
    along = (centred @ axis)[order]
    best: tuple[float, int] | None = None
    side = max(MIN_SIDE, int(np.ceil(MIN_SHARE * len(along))))
    for cut in range(side, len(along) - side + 1):
        low, high = along[:cut], along[cut:]
        spread = max(float(np.sqrt((low.var() * len(low) + high.var() * len(high)) / len(along))), 0.01)
        score = (high.mean() - low.mean()) / spread
        if along[cut] - along[cut - 1] >= MIN_GAP and (best is None or score > best[0]):
            best = (score, cut)
    if best is None or best[0] < MIN_SEPARATION:
        return None
    low, high = colours[order[:best[1]]].mean(axis=0), colours[order[best[1]:]].mean(axis=0)
    return (low, high) if np.linalg.norm(high - low) >= MIN_APART else None


def black_split(colours: np.ndarray) -> Split | None:
    """Spades and clubs in two inks: the spades' is the blacker (less coloured) one, and
    the clubs' must be a green (``GREEN_HUE``): no deck prints its spades in colour."""
    inks = two_inks(colours[np.linalg.norm(colours, axis=1) <= MAX_COLOUR])
    if inks is None:
        return None
    spade, club = sorted(inks, key=lambda c: float(np.linalg.norm(c)))
    if hue_apart(hue(club), GREEN_HUE) > HUE_NEAR:
        return None
    return Split(("S", "C"), (spade, club))


def red_split(colours: np.ndarray) -> Split | None:
    """Hearts and diamonds in two inks: the hearts' is the one nearer red, and the
    diamonds' must be of another hue (a four-colour deck's blue or orange), not merely
    paler."""
    inks = two_inks(colours)
    if inks is None:
        return None
    heart, diamond = sorted(inks, key=lambda c: hue_apart(hue(c), 0.0))
    if hue_apart(hue(diamond), hue(heart)) < OTHER_HUE:
        return None  # one red, printed bold and thin (a camera's colour blurs on thin strokes)
    return Split(("H", "D"), (heart, diamond))


#: for each pair of suits a two-colour deck prints alike, how its four-colour inks are told apart
PAIRS = {"S": black_split, "C": black_split, "H": red_split, "D": red_split}


class DeckInks:
    """What one table's deck prints each suit in, learnt from its reads."""

    def __init__(self, memory: int = MEMORY) -> None:
        self.colours: dict[Callable, deque[np.ndarray]] = {f: deque(maxlen=memory) for f in set(PAIRS.values())}
        self.splits: dict[Callable, Split | None] = dict.fromkeys(self.colours)

    def learn(self, detections: Iterable[Detection], image: np.ndarray) -> None:
        """Remember the inks of the suited indices read in ``image``."""
        for d in detections:
            if not is_joker(d.card):
                colour = ink(image, d.box)
                if colour is not None:
                    self.colours[PAIRS[suit_of(d.card)]].append(colour)
        for pair, colours in self.colours.items():
            self.splits[pair] = pair(np.array(colours)) if len(colours) else None

    def strengths(self) -> tuple[float, float]:
        """How strongly coloured this table's black-suit and red-suit indices are (the median
        ``ink`` length of each pair's), each its default until ``MIN_SIDE`` are read."""
        out = []
        for pair, default in ((black_split, BLACK_STRENGTH), (red_split, RED_STRENGTH)):
            colours = self.colours[pair]
            out.append(float(np.median(np.linalg.norm(np.array(colours), axis=1)))
                       if len(colours) >= MIN_SIDE else default)
        return out[0], out[1]

    def settle(self, detections: list[Detection], image: np.ndarray) -> list[Detection]:
        """``detections`` with each index given the suit its ink says where the deck prints
        its suit's pair in two inks, and each joker the joker its ink says (``joker_of``):
        the card's confidence is then the reader's for both (it read the rank and the
        colour), the other becomes a runner-up."""
        out = []
        for d in detections:
            if is_joker(d.card):
                colour = ink(image, d.box)
                card = joker_of(colour, *self.strengths()) if colour is not None else None
            else:
                split = self.splits[PAIRS[suit_of(d.card)]]
                colour = ink(image, d.box) if split is not None else None
                suit = split.suit(colour) if colour is not None else None
                card = suit + rank_of(d.card) if suit is not None else None
            out.append(d if card is None or card == d.card else _retold(d, card))
        return sorted(out, key=lambda d: -d.conf)


def joker_of(colour: np.ndarray, black: float = BLACK_STRENGTH, red: float = RED_STRENGTH) -> str | None:
    """The joker an index of this ink is: decks print the big joker (大王, ``HR``) in colour
    and the small one (小王, ``SB``) in black, as the platform's own names for them say, and
    a reader that has never seen a deck's jokers may take one for the other where the ink
    does not. ``black`` and ``red``: how strongly coloured the deck's black-suit and red-suit
    indices are on this camera. None where the ink is neither clearly."""
    strength, gap = float(np.linalg.norm(colour)), red - black
    if gap <= 0:
        return None
    if strength >= red - JOKER_MARGIN * gap:
        return BIG_JOKER
    if strength <= black + JOKER_MARGIN * gap:
        return SMALL_JOKER
    return None


def _retold(d: Detection, card: str) -> Detection:
    """``d`` read as ``card`` (its ink's), at the reader's confidence in both; the card it
    was read as becomes a runner-up."""
    given = dict(d.others)
    conf = min(1.0, d.conf + given.pop(card, 0.0))
    others = sorted([(d.card, min(d.conf, conf)), *given.items()], key=lambda kv: -kv[1])
    return replace(d, card=card, conf=conf, others=tuple(others))
