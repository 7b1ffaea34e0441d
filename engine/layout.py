"""A play's reading from the order its cards were laid (逢人配 stands where it is laid), and back.

The rules say a wildcard is laid in the place of the card it stands for. Given the cards in
the order laid (left to right as the player sees them), a sequence reading fits when every
natural card sits where that reading puts its rank — ascending, or descending if the player
laid high to low. When exactly one reading fits the layout, that is the play; otherwise the
layout does not decide and the engine's usual choice applies. ``laid_out`` goes the other
way: the order a player lays a reading's cards in, which a bot's play needs before it is
filmed.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import NATURAL, Card, parse_cards, parse_level, rank_of, wildcard
from engine.plays import SEQUENCE_SHAPES, SEQUENCES, START_VALUE, Play, classify


def _slots(play: Play) -> list[int]:
    """The natural value each laid position stands for, ascending (A low is 1)."""
    per, length, _ = SEQUENCE_SHAPES[play.type]
    start = START_VALUE[play.rank]
    return [start + i for i in range(length) for _ in range(per)]


def _fits(laid: tuple[Card, ...], play: Play, wild: Card) -> bool:
    slots = _slots(play)
    for order in (slots, slots[::-1]):
        ok = True
        for card, value in zip(laid, order, strict=True):
            if card == wild:
                continue
            natural = NATURAL[rank_of(card)]
            if natural != value and not (natural == 14 and value == 1):
                ok = False
                break
        if ok:
            return True
    return False


def reading_from_layout(cards: Iterable[object], level: object) -> Play | None:
    """The one reading the laid order gives, or ``None`` when it does not decide.

    >>> print(reading_from_layout(["H2", "S4", "C5", "D6", "S7"], "2"))  # H2 laid where the 3 goes
    Straight 3 [H2 S4 C5 D6 S7]
    >>> print(reading_from_layout(["S4", "C5", "D6", "S7", "H2"], "2"))  # ...where the 8 goes
    Straight 4 [H2 S4 C5 D6 S7]
    """
    laid = parse_cards(cards)
    level = parse_level(level)
    readings = classify(laid, level)
    if len(readings) <= 1:
        return readings[0] if readings else None
    wild = wildcard(level)
    if wild not in laid:
        return None
    fitting = [r for r in readings if r.type in SEQUENCES and _fits(laid, r, wild)]
    kinds = {(r.type, r.rank) for r in fitting}
    return fitting[0] if len(kinds) == 1 else None


def laid_out(play: Play, level: object) -> tuple[Card, ...]:
    """``play``'s cards in the order a player lays them to show this reading: a sequence
    from its lowest place up, each wildcard in the place of the card it stands for (so
    ``reading_from_layout`` reads the same play back); any other play as it is.

    >>> laid_out(Play("Straight", "4", ("H2", "S4", "C5", "D6", "S7")), "2")
    ('S4', 'C5', 'D6', 'S7', 'H2')
    """
    if play.type not in SEQUENCES:
        return play.cards
    wild = wildcard(parse_level(level))
    naturals = [c for c in play.cards if c != wild]
    wilds = [c for c in play.cards if c == wild]
    out: list[Card] = []
    for value in _slots(play):
        card = next((c for c in naturals if NATURAL[rank_of(c)] == value or (value == 1 and NATURAL[rank_of(c)] == 14)),
                    None)
        if card is not None:
            naturals.remove(card)
        elif wilds:
            card = wilds.pop()
        else:
            return play.cards  # not this reading's cards: nothing to lay out
        out.append(card)
    return tuple(out)
