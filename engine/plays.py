"""Plays (牌型): reading a group of cards as combinations, and comparing them.

A ``Play`` is the platform triple ``[type, rank, cards]`` (DESIGN §3). The same cards can
have several readings when a wildcard (逢人配) is among them — X+4567 is 34567 or 45678 —
so ``classify`` returns all of them; choosing one is the caller's business (the layout on
the table, a declaration, or what beats the play on the table).

Ranks: singles, pairs, triples, full houses and bombs carry the rank of their cards
(``B``/``R`` for pairs or singles of small/big jokers, ``JOKER`` for the joker bomb);
sequences carry their **lowest** card's rank, ``A`` when A is low (A2345 is ``A``).

A play made only of wildcards (a lone wildcard, or the two of them as a pair) reads as the
level cards themselves: as a single or a pair of the level rank they already outrank every
other non-joker reading, so other readings would never be chosen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Final, Literal, NamedTuple

from engine.cards import (
    BIG_JOKER,
    NATURAL,
    RANKS,
    SMALL_JOKER,
    Card,
    order,
    parse_cards,
    parse_level,
    rank_of,
    sort_cards,
    suit_of,
    wildcard,
)
from engine.coded import Coded

#: a play's type as the platform writes it (DESIGN §3): one of the nine combinations, or
#: ``PASS``; a ``Literal`` so that the values stay the strings of the wire and the record
PlayType = Literal["Single", "Pair", "Trips", "ThreePair", "ThreeWithTwo", "TwoTrips", "Straight",
                   "StraightFlush", "Bomb", "PASS"]

SINGLE: Final = "Single"
PAIR: Final = "Pair"
TRIPS: Final = "Trips"
THREE_PAIR: Final = "ThreePair"
THREE_WITH_TWO: Final = "ThreeWithTwo"
TWO_TRIPS: Final = "TwoTrips"
STRAIGHT: Final = "Straight"
STRAIGHT_FLUSH: Final = "StraightFlush"
BOMB: Final = "Bomb"
PASS_TYPE: Final = "PASS"

TYPES: tuple[PlayType, ...] = (SINGLE, PAIR, TRIPS, THREE_PAIR, THREE_WITH_TWO, TWO_TRIPS, STRAIGHT,
                               STRAIGHT_FLUSH, BOMB)
_TYPE_NAMED: dict[str, PlayType] = {t: t for t in TYPES}
#: Sequence types: their rank is the lowest card's, compared in the natural order.
SEQUENCES = frozenset((THREE_PAIR, TWO_TRIPS, STRAIGHT, STRAIGHT_FLUSH))
JOKER_RANK = "JOKER"

#: Window start (1 = A low, 2..13 = that rank) → the rank letter a sequence carries.
START_RANK = {1: "A", **{NATURAL[r]: r for r in RANKS}}
START_VALUE = {"A": 1, **{r: NATURAL[r] for r in RANKS if r != "A"}}

#: (cards per rank, number of ranks, highest window start) of each sequence type.
SEQUENCE_SHAPES: dict[PlayType, tuple[int, int, int]] = {
    STRAIGHT: (1, 5, 10),
    STRAIGHT_FLUSH: (1, 5, 10),
    THREE_PAIR: (2, 3, 12),
    TWO_TRIPS: (3, 2, 13),
}


class InvalidPlay(Coded, ValueError):
    """A ``[type, rank, cards]`` triple that is not a reading of its cards, named by a code
    and its values like the cards' own ``InvalidCard`` (``engine.coded``)."""

    ENGLISH = {
        "play_shape": "a play is [type, rank, cards], got {value!r}",
        "play_cards_not_list": "the cards of a play must be a list, got {cards!r}",
        "play_not_reading": "{cards} cannot be read as {type} {rank} at level {level}",
    }


class Play(NamedTuple):
    """One reading of a group of cards: ``Play("Straight", "3", (...))``.

    ``cards`` are kept in canonical order so that equal plays compare equal whatever the
    order they were laid in. A named tuple rather than a dataclass: the generator makes
    thousands per hand, and tuples are built and hashed in C.
    """

    type: PlayType
    rank: str
    cards: tuple[Card, ...]

    @property
    def is_pass(self) -> bool:
        return self.type == PASS_TYPE

    @property
    def is_bomb(self) -> bool:
        return self.type in (BOMB, STRAIGHT_FLUSH)

    def to_json(self) -> list[object]:
        if self.is_pass:
            return [PASS_TYPE, PASS_TYPE, PASS_TYPE]
        return [self.type, self.rank, list(self.cards)]

    def __str__(self) -> str:
        if self.is_pass:
            return "PASS"
        return f"{self.type} {self.rank} [{' '.join(self.cards)}]"


PASS = Play(PASS_TYPE, PASS_TYPE, ())


class Reading(NamedTuple):
    """A play's type and rank without its cards: what a player declares, or the camera reads
    from the order the cards were laid in (``PlayCards.reading``, ``[type, rank]`` in JSON)."""

    type: PlayType
    rank: str


def play_type_or_none(value: object) -> PlayType | None:
    """``value`` as one of the nine combination types, or None when it names none."""
    return _TYPE_NAMED.get(value) if isinstance(value, str) else None


def classify(cards: Iterable[object], level: object) -> list[Play]:
    """Every reading of ``cards`` as a combination under ``level``; empty if none.

    Raises ``InvalidCard`` for strings that are not cards or a card seen three times.

    >>> classify(["H9", "S9"], "2")  # the cards come back in canonical order
    [Play(type='Pair', rank='9', cards=('S9', 'H9'))]
    >>> for play in classify(["H2", "S4", "C5", "D6", "S7"], "2"):  # H2, the wildcard, is a 3 or an 8
    ...     print(play)
    Straight 3 [H2 S4 C5 D6 S7]
    Straight 4 [H2 S4 C5 D6 S7]
    >>> classify(["S9", "H8"], "2")
    []
    """
    cards = sort_cards(parse_cards(cards))
    level = parse_level(level)
    return [Play(t, r, cards) for t, r in sorted(_readings(cards, level), key=_reading_key)]


def _reading_key(reading: tuple[PlayType, str]) -> tuple[int, int]:
    t, r = reading
    value = START_VALUE[r] if t in SEQUENCES else NATURAL.get(r, 99)
    return TYPES.index(t), value


def _readings(cards: tuple[Card, ...], level: str) -> set[tuple[PlayType, str]]:
    """The (type, rank) readings of canonical ``cards`` — the pattern side of the engine.

    Deliberately independent of the generator in ``engine.legal``: the property tests
    check one against the other.
    """
    n = len(cards)
    wild = wildcard(level)
    w = cards.count(wild)
    naturals = [c for c in cards if c != wild]
    jokers = [c for c in naturals if c in (SMALL_JOKER, BIG_JOKER)]
    plain = [c for c in naturals if c not in (SMALL_JOKER, BIG_JOKER)]
    counts = Counter(rank_of(c) for c in plain)
    out: set[tuple[PlayType, str]] = set()
    if n == 0:
        return out
    if n == 1:
        out.add((SINGLE, rank_of(cards[0])))
        return out
    if jokers:
        _joker_readings(n, jokers, plain, counts, w, out)
        return out
    if w == n:  # only wildcards: the level cards themselves (module docstring)
        if n == 2:
            out.add((PAIR, level))
        return out
    if len(counts) == 1:
        (r,) = counts
        if n == 2:
            out.add((PAIR, r))
        elif n == 3:
            out.add((TRIPS, r))
        elif n >= 4:
            out.add((BOMB, r))
    if n == 5:
        _full_house_readings(counts, w, out)
        _sequence_readings(STRAIGHT, plain, counts, out, w)
    elif n == 6:
        _sequence_readings(THREE_PAIR, plain, counts, out, w)
        _sequence_readings(TWO_TRIPS, plain, counts, out, w)
    return out


def _joker_readings(n: int, jokers: list[Card], plain: list[Card], counts: Counter[str], w: int,
                    out: set[tuple[PlayType, str]]) -> None:
    """Jokers take part only in singles, joker pairs, the joker bomb and a full house's pair."""
    jc = Counter(jokers)
    if n == 2 and len(jc) == 1 and len(jokers) == 2:
        out.add((PAIR, "B" if jokers[0] == SMALL_JOKER else "R"))
    elif n == 4 and jc[SMALL_JOKER] == 2 and jc[BIG_JOKER] == 2:
        out.add((BOMB, JOKER_RANK))
    elif n == 5 and len(jokers) == 2 and len(jc) == 1 and len(counts) == 1:
        (r,) = counts
        if counts[r] + w == 3:
            out.add((THREE_WITH_TWO, r))


def _full_house_readings(counts: Counter[str], w: int, out: set[tuple[PlayType, str]]) -> None:
    """Triple + pair of another rank (三带二), compared by the triple only."""
    for t, ct in counts.items():
        if ct > 3:
            continue
        need = 3 - ct
        if need > w:
            continue
        others = [r for r in counts if r != t]
        if not others:
            if w - need == 2:  # the pair is two wildcards standing for another rank
                out.add((THREE_WITH_TWO, t))
        elif len(others) == 1 and counts[others[0]] <= 2:
            out.add((THREE_WITH_TWO, t))


def _positions(rank: str, start: int, length: int) -> int | None:
    """Index of ``rank`` inside the window starting at ``start`` (A may sit low or high)."""
    v = NATURAL[rank]
    if start <= v < start + length:
        return v - start
    if rank == "A" and start == 1:
        return 0
    return None


def _sequence_readings(type_: PlayType, plain: list[Card], counts: Counter[str], out: set[tuple[PlayType, str]],
                       w: int) -> None:
    per, length, last_start = SEQUENCE_SHAPES[type_]
    for start in range(1, last_start + 1):
        filled = [0] * length
        fits = True
        for r, c in counts.items():
            pos = _positions(r, start, length)
            if pos is None or c > per:
                fits = False
                break
            filled[pos] = c
        if not fits:
            continue
        rank = START_RANK[start]
        if type_ != STRAIGHT:
            out.add((type_, rank))
            continue
        one_suit = len({suit_of(c) for c in plain}) == 1
        if one_suit:
            out.add((STRAIGHT_FLUSH, rank))
        if not one_suit or w > 0:  # a wildcard may take another suit: a plain straight too
            out.add((STRAIGHT, rank))


# --- comparison -------------------------------------------------------------------------

_BOMB_TIER_SF = 5.5  # a straight flush sits between 5- and 6-card bombs
_BOMB_TIER_JOKER = 11


def bomb_tier(play: Play) -> float:
    """Place on the bomb ladder: 4 < 5 < straight flush < 6 < … < 10 < joker bomb."""
    if play.type == STRAIGHT_FLUSH:
        return _BOMB_TIER_SF
    if play.rank == JOKER_RANK:
        return _BOMB_TIER_JOKER
    return len(play.cards)


def rank_value(play: Play, level: str) -> int:
    """The value a play is compared by within its type (and, for bombs, its tier)."""
    if play.type in SEQUENCES:
        return START_VALUE[play.rank]
    if play.rank == JOKER_RANK:
        return 0
    return order(play.rank, level)


def strength(play: Play, level: str) -> tuple[int, float, int]:
    """A sort key: bombs above everything, then by tier and rank; others by type and rank."""
    if play.is_bomb:
        return (1, bomb_tier(play), rank_value(play, level))
    return (0, TYPES.index(play.type), rank_value(play, level))


def beats(play: Play, prev: Play | None, level: object) -> bool:
    """True when ``play`` may be laid on ``prev`` (``None`` or ``PASS``: a lead).

    A non-bomb beats only a higher play of the same type (every type has a fixed size);
    any bomb beats every non-bomb; bombs compare on the ladder, then by rank.

    >>> nines, tens = classify(["S9", "H9"], "2")[0], classify(["ST", "DT"], "2")[0]
    >>> beats(tens, nines, "2"), beats(nines, tens, "2"), beats(nines, None, "2")
    (True, False, True)
    >>> beats(nines, classify(["SA", "HA"], "9")[0], "9")  # at level 9, nines rank above aces
    True
    >>> bomb = classify(["S3", "H3", "C3", "D3"], "2")[0]
    >>> beats(bomb, tens, "2"), beats(tens, bomb, "2")  # a bomb beats every non-bomb
    (True, False)
    """
    if play.is_pass:
        return False
    if prev is None or prev.is_pass:
        return True
    level = parse_level(level)
    if play.is_bomb:
        if not prev.is_bomb:
            return True
        return (bomb_tier(play), rank_value(play, level)) > (bomb_tier(prev), rank_value(prev, level))
    if prev.is_bomb or play.type != prev.type:
        return False
    return rank_value(play, level) > rank_value(prev, level)


def parse_play(value: object, level: object) -> Play:
    """A play from JSON: a ``[type, rank, cards]`` triple (checked against ``classify``)
    or the PASS triple. Raises ``InvalidPlay`` when the triple is not a reading."""
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise InvalidPlay("play_shape", value=value)
    t, r, cards = value
    if t == PASS_TYPE:
        return PASS
    if not isinstance(cards, (list, tuple)):
        raise InvalidPlay("play_cards_not_list", cards=cards)
    for reading in classify(cards, level):
        if reading.type == t and reading.rank == str(r).upper():
            return reading
    raise InvalidPlay("play_not_reading", cards=list(cards), type=t, rank=r, level=parse_level(level))
