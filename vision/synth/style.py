"""Deck styles: every printing choice a deck makes, and how to draw many of them from a seed.

A style is plain data (a frozen dataclass): the card renderer reads it and nothing else, so
a style prints the same cards every time, and the build can hand styles to worker processes.

Two style splits exist. ``train`` styles draw from one set of choices; ``heldout`` styles
draw their font from families never used for training (``fonts.HELDOUT_FAMILIES``) and add
choices training never sees: a jumbo index, a big rank in the centre of number cards,
mosaic court art, orange four-colour diamonds, wave and stripe backs. A model scored on
held-out styles is therefore scored on decks it has not seen, which is what a tournament
hall with its own sponsor's cards will show it.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, replace

import numpy as np

from vision.synth import fonts
from vision.synth.fonts import FontSpec
from vision.synth.shapes import SuitShape

Colour = tuple[float, float, float]  # BGR, 0..255

SPLITS = ("train", "heldout")
# How far a style's proportions range. "wide" stretches the suit symbols' size in the index
# and their shapes (held-out styles showed spades and clubs misread most where the suit is
# small); it draws the same random numbers as "standard", so each wide style is its
# standard twin with those proportions stretched, and old recipes build as they did.
VARIETIES = ("standard", "wide")
# Which inks training decks print in. "standard": black and red, and one deck in five
# four-colour with green clubs and blue diamonds. "many": the same decks drawn with the same
# random numbers, each ink's hue, strength and darkness spread wide — blacks tinted navy,
# brown or green, reds from crimson to a dark brown-red, clubs any hue from yellow-green to
# teal and cyan, diamonds any from sky blue to violet — because a sponsor's deck
# prints whatever it likes, and the held-out decks showed indices misread only for an ink no
# training deck had (models/README.md). Held-out decks keep their own inks, and no training
# ink comes near their orange diamonds (hue 20–50°), so those stay unseen. Diamonds stop at
# violet (285°), well clear of the hearts' crimson (from 335°), so no training deck prints a
# diamond in a heart's ink.
INKS = ("standard", "many")
CARD_SIZES_CM = {"poker": (6.3, 8.8), "bridge": (5.7, 8.8)}

INDEX_LAYOUTS = {"train": ("stacked", "beside"), "heldout": ("stacked", "beside", "jumbo")}
PIP_LAYOUTS = {"train": ("standard", "big_centre", "plain"), "heldout": ("standard", "big_centre", "plain", "big_rank")}
COURT_ARTS = {"train": ("frame_letter", "pattern", "figure"), "heldout": ("figure", "mosaic")}
BACK_PATTERNS = {"train": ("lattice", "dots", "checker", "rings"), "heldout": ("waves", "stripes")}
JOKER_CORNERS = ("word", "cjk", "icon")
#: how far jokers' corners range: ``standard`` (JOKER in capitals, a plain star), or ``wide``,
#: which also writes the word as "Joker" and draws the icon as a star knocked out of a disc
#: or a round medallion — the corners real decks print (recipes' ``jokers:``)
JOKER_VARIETIES = ("standard", "wide")
JOKER_WORDS = ("JOKER", "Joker")
JOKER_ICONS = ("star", "ring", "wheel")
JOKER_ARTS = ("jester", "star", "crown")
FRAMES = ("none", "line", "double")

# colours art may use (court robes, joker jesters, backs): BGR
ART_COLOURS: tuple[Colour, ...] = (
    (40, 40, 200), (170, 90, 20), (30, 170, 230), (30, 30, 30), (60, 140, 40),
    (140, 40, 120), (20, 110, 220), (200, 160, 60), (90, 60, 160),
)


@dataclass(frozen=True)
class BackStyle:
    """The face-down side: a pattern in two colours inside an optional white margin."""

    pattern: str
    colour: Colour
    colour2: Colour
    margin_cm: float
    emblem: bool


@dataclass(frozen=True)
class JokerStyle:
    """Chinese competition jokers: 大王 (big, ``HR``) in colour, 小王 (small, ``SB``) in black or grey.

    ``corner`` is what the corner shows (and what gets labelled): the word JOKER written
    downwards, the characters 大王/小王 written downwards, or a star icon. ``centre_cjk``
    adds the characters large in the middle of the card.
    """

    corner: str
    art: str
    centre_cjk: bool
    big_colour: Colour
    small_colour: Colour
    palette: tuple[Colour, ...]
    letter_cm: float
    #: the word a ``word`` corner writes downwards, and the icon an ``icon`` corner draws
    #: (``JOKER_WORDS``, ``JOKER_ICONS``)
    word: str = "JOKER"
    icon: str = "star"


@dataclass(frozen=True)
class DeckStyle:
    """Everything that makes one deck look like itself. Lengths are in cm on the card."""

    name: str
    split: str
    size_cm: tuple[float, float]
    corner_radius_cm: float
    paper: Colour
    edge: Colour
    inks: tuple[Colour, Colour, Colour, Colour]  # spades, hearts, clubs, diamonds
    font: FontSpec
    rank_cap_cm: float
    ten_squeeze: float
    slant: float
    index_layout: str
    suit_scale: float
    index_inset_cm: tuple[float, float]
    index_gap_cm: float
    four_index: bool
    suit_shape: SuitShape
    pip_layout: str
    pip_cm: float
    court: str
    court_colours: tuple[Colour, ...]
    frame: str
    frame_colour: Colour
    back: BackStyle
    joker: JokerStyle

    @property
    def family(self) -> str:
        """The font family: the split's unit of disjointness."""
        return self.font.family

    @property
    def four_colour(self) -> bool:
        return self.inks[2] != self.inks[0] or self.inks[3] != self.inks[1]

    def ink(self, suit: str) -> Colour:
        return self.inks["SHCD".index(suit)]


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    return float(rng.uniform(lo, hi))


def _colour(rng: np.random.Generator, lo: tuple[float, float, float], hi: tuple[float, float, float]) -> Colour:
    return tuple(round(_u(rng, a, b), 1) for a, b in zip(lo, hi, strict=True))  # type: ignore[return-value]


def _pick(rng: np.random.Generator, options: tuple, p: tuple[float, ...] | None = None):
    if p is not None:
        p = np.asarray(p[: len(options)], np.float64)
        p = p / p.sum()
    return options[int(rng.choice(len(options), p=p))]


def _paper(rng: np.random.Generator) -> Colour:
    base = _u(rng, 236, 255)
    tint = _pick(rng, ("white", "warm", "cool"), (0.6, 0.3, 0.1))
    if tint == "warm":
        return (round(base - _u(rng, 12, 30), 1), round(base - _u(rng, 3, 10), 1), round(base, 1))
    if tint == "cool":
        return (round(base, 1), round(base - _u(rng, 2, 6), 1), round(base - _u(rng, 5, 12), 1))
    return (round(base, 1),) * 3  # type: ignore[return-value]


def _inks(rng: np.random.Generator, split: str, many: bool = False) -> tuple[Colour, Colour, Colour, Colour]:
    """Spades', hearts', clubs' and diamonds' inks; ``many`` (``INKS``) spreads a training
    deck's inks wide, drawing the same random numbers."""
    spread = many and split == "train"
    black = _hsv(rng, (0, 360), (0, 0.6), (0.04, 0.25)) if spread else _colour(rng, (10, 10, 10), (60, 45, 45))
    red = _hsv(rng, (-25, 12), (0.65, 1), (0.4, 0.9)) if spread else _colour(rng, (15, 5, 150), (70, 50, 230))
    if rng.random() >= 0.22:
        return black, red, black, red
    green = _hsv(rng, (70, 195), (0.5, 1), (0.3, 0.7)) if spread else _colour(rng, (20, 100, 10), (80, 160, 60))
    orange = split == "heldout" and rng.random() < 0.5
    if spread:
        diamond = _hsv(rng, (195, 285), (0.5, 1), (0.45, 0.9))
    elif orange:
        diamond = _colour(rng, (0, 110, 215), (40, 165, 255))
    else:
        diamond = _colour(rng, (150, 60, 0), (215, 120, 40))
    return black, red, green, diamond


def _hsv(rng: np.random.Generator, hue: tuple[float, float], sat: tuple[float, float],
         value: tuple[float, float]) -> Colour:
    """An ink drawn as hue (degrees, red 0, green 120, blue 240), saturation and value, from
    three random numbers as ``_colour`` draws them; BGR."""
    h, s, v = _u(rng, *hue) % 360, _u(rng, *sat), _u(rng, *value)
    r, g, b = colorsys.hsv_to_rgb(h / 360, s, v)
    return (round(255 * b, 1), round(255 * g, 1), round(255 * r, 1))


def _suit_shape(rng: np.random.Generator, wide: bool) -> SuitShape:
    return SuitShape(
        heart=_pick(rng, ("curve", "circles"), (0.65, 0.35)),
        heart_width=round(_u(rng, 0.8, 1.15) if wide else _u(rng, 0.9, 1.1), 3),
        diamond_width=round(_u(rng, 0.62, 0.82), 3),
        diamond_bulge=round(_u(rng, 0.82, 1.15), 3),
        club_lobe=round(_u(rng, 0.17, 0.26) if wide else _u(rng, 0.2, 0.235), 3),
        stem_width=round(_u(rng, 0.12, 0.4) if wide else _u(rng, 0.18, 0.36), 3),
        stem_flare=round(_u(rng, 1.0, 2.6), 3),
    )


def _back(rng: np.random.Generator, split: str) -> BackStyle:
    c = ART_COLOURS[int(rng.integers(len(ART_COLOURS)))]
    shade = _u(rng, 0.7, 1.1)
    colour = tuple(round(min(255.0, v * shade), 1) for v in c)
    light = tuple(round(v + (255 - v) * _u(rng, 0.55, 0.9), 1) for v in colour)
    return BackStyle(pattern=_pick(rng, BACK_PATTERNS[split]), colour=colour, colour2=light,  # type: ignore[arg-type]
                     margin_cm=round(_u(rng, 0.0, 0.45) if rng.random() < 0.75 else 0.0, 3),
                     emblem=bool(rng.random() < 0.5))


def _joker(rng: np.random.Generator, has_cjk: bool, jokers: str = "standard") -> JokerStyle:
    corners = JOKER_CORNERS if has_cjk else tuple(c for c in JOKER_CORNERS if c != "cjk")
    corner = _pick(rng, corners, (0.6, 0.25, 0.15) if has_cjk else (0.8, 0.2))
    red = rng.random() < 0.8
    big = _colour(rng, (15, 5, 160), (60, 50, 235)) if red else _colour(rng, (140, 40, 0), (210, 110, 50))
    grey = _u(rng, 10, 110)
    n = int(rng.integers(3, 5))
    palette = tuple(ART_COLOURS[int(i)] for i in rng.choice(len(ART_COLOURS), size=n, replace=False))
    style = JokerStyle(corner=corner, art=_pick(rng, JOKER_ARTS), centre_cjk=bool(has_cjk and rng.random() < 0.5),
                       big_colour=big, small_colour=(round(grey, 1),) * 3, palette=palette,  # type: ignore[arg-type]
                       letter_cm=round(_u(rng, 0.36, 0.55), 3))
    if jokers == "standard":  # drawn last, so standard recipes' styles stay as they were
        return style
    return replace(style, word=_pick(rng, JOKER_WORDS), icon=_pick(rng, JOKER_ICONS))


def sample_style(rng: np.random.Generator, split: str, name: str, variety: str = "standard",
                 font_set: str = "base", inks: str = "standard", jokers: str = "standard") -> DeckStyle:
    """Draw one deck style of ``split`` from ``rng``, its proportions ranging as ``variety`` says,
    its index font one of ``font_set``'s (``fonts.FONT_SETS``), its inks as ``inks`` says
    (``INKS``) and its jokers' corners as ``jokers`` does (``JOKER_VARIETIES``)."""
    if split not in SPLITS:
        raise ValueError(f"unknown style split {split!r} (train or heldout)")
    if variety not in VARIETIES:
        raise ValueError(f"unknown style variety {variety!r} (standard or wide)")
    if inks not in INKS:
        raise ValueError(f"unknown inks {inks!r} (standard or many)")
    if jokers not in JOKER_VARIETIES:
        raise ValueError(f"unknown joker variety {jokers!r} (standard or wide)")
    wide = variety == "wide"
    choices = fonts.fonts_for(split, font_set)
    if not choices:
        raise RuntimeError(f"no fonts for the {split} split on this machine")
    # choose a family first, then one of its faces: families with many files do not dominate
    fams = list(dict.fromkeys(f.family for f in choices))
    fam = fams[int(rng.integers(len(fams)))]
    faces = [f for f in choices if f.family == fam]
    font = faces[int(rng.integers(len(faces)))]
    if font.variable_weight:
        font = font.with_weight(int(rng.choice([350, 450, 550, 650, 750, 850])))
    size = CARD_SIZES_CM[_pick(rng, ("poker", "bridge"), (0.45, 0.55))]
    layout = _pick(rng, INDEX_LAYOUTS[split], (0.62, 0.38) if split == "train" else (0.4, 0.3, 0.3))
    if layout == "stacked":
        cap, scale = _u(rng, 0.55, 0.95), _u(rng, 0.4 if wide else 0.6, 0.95)
    elif layout == "beside":
        cap, scale = _u(rng, 0.5, 0.8), _u(rng, 0.5 if wide else 0.7, 1.0)
    else:  # jumbo: a big rank, a small suit under it
        cap, scale = _u(rng, 1.0, 1.45), _u(rng, 0.4, 0.6)
    paper = _paper(rng)
    printed = _inks(rng, split, many=inks == "many")
    pip_layout = _pick(rng, PIP_LAYOUTS[split], (0.65, 0.15, 0.2) if split == "train" else (0.4, 0.2, 0.2, 0.2))
    if layout == "jumbo" and pip_layout == "standard":
        pip_layout = "big_centre"
    court = _pick(rng, COURT_ARTS[split])
    n = int(rng.integers(2, 5))
    court_colours = tuple(ART_COLOURS[int(i)] for i in rng.choice(len(ART_COLOURS), size=n, replace=False))
    return DeckStyle(
        name=name, split=split, size_cm=size,
        corner_radius_cm=round(_u(rng, 0.18, 0.55), 3),
        paper=paper, edge=tuple(round(v * _u(rng, 0.6, 0.85), 1) for v in paper),  # type: ignore[arg-type]
        inks=printed, font=font,
        rank_cap_cm=round(cap, 3), ten_squeeze=round(_u(rng, 0.62, 1.0), 3),
        slant=round(_u(rng, -0.08, 0.22), 3) if rng.random() < 0.12 else 0.0,
        index_layout=layout, suit_scale=round(scale, 3),
        index_inset_cm=(round(_u(rng, 0.12, 0.4), 3), round(_u(rng, 0.15, 0.45), 3)),
        index_gap_cm=round(_u(rng, 0.03, 0.14), 3),
        four_index=bool(rng.random() < 0.12),
        suit_shape=_suit_shape(rng, wide),
        pip_layout=pip_layout, pip_cm=round(_u(rng, 0.9, 1.3), 3),
        court=court, court_colours=court_colours,
        frame=_pick(rng, FRAMES, (0.6, 0.3, 0.1)),
        frame_colour=_pick(rng, (printed[0], printed[1], court_colours[0])),
        back=_back(rng, split),
        joker=_joker(rng, fonts.cjk_font() is not None, jokers),
    )


def styles(seed: int, n: int, split: str = "train", variety: str = "standard",
           font_set: str = "base", inks: str = "standard", jokers: str = "standard") -> list[DeckStyle]:
    """``n`` deck styles of ``split`` (``train`` or ``heldout``), the same for the same seed.

    The two splits draw from separate random streams, so a train list and a held-out list
    from one seed share nothing but the seed.
    """
    if split not in SPLITS:
        raise ValueError(f"unknown style split {split!r} (train or heldout)")
    rng = np.random.default_rng([int(seed), SPLITS.index(split), 0x5EED])
    return [sample_style(rng, split, f"{split}-{seed}-{i:04d}", variety, font_set, inks, jokers)
            for i in range(int(n))]
