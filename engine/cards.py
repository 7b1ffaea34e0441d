"""Cards in the platform encoding, and the two orders a level imposes on them.

A card is its platform string (DESIGN §3): suit then rank, suits ``S H C D``, ranks
``2-9 T J Q K A``; ``SB`` is the small joker and ``HR`` the big joker. Plain strings keep
the engine's values identical to what bots, records and the web exchange, and make
dictionary look-ups the only cost of asking a card's rank or suit. To the type checker a
card is a ``Card`` (a ``NewType`` of ``str``, nothing at run time): only ``parse_card`` and
``parse_cards`` make one from text, so a string that was never checked is not a card.

Two orders matter (RULES.md, "Levels"):

* the single-card order under a level: big joker, small joker, level rank, A, K, …, 2
  (``order``), used for singles, pairs, triples, full houses and bombs;
* the natural order 2 … A with A also low, used by sequences (``natural``), where the
  level rank keeps its own place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import NewType

from engine.coded import Coded

#: a card of two Guandan decks, as its platform string (``"S5"``, ``"HT"``, ``"SB"``)
Card = NewType("Card", str)

SUITS = "SHCD"
RANKS = "23456789TJQKA"
SMALL_JOKER = Card("SB")
BIG_JOKER = Card("HR")
JOKERS = (SMALL_JOKER, BIG_JOKER)

#: Every distinct card, in the engine's canonical order (by rank, then suit, jokers last).
ALL_CARDS: tuple[Card, ...] = tuple(Card(s + r) for r in RANKS for s in SUITS) + JOKERS
#: Two decks: every distinct card twice.
COPIES = 2
DECK_SIZE = len(ALL_CARDS) * COPIES  # 108
HAND_SIZE = 27

#: Natural value of a rank: 2..14 (A high). The joker "ranks" B and R sit above A.
NATURAL: dict[str, int] = {r: i + 2 for i, r in enumerate(RANKS)}
NATURAL.update({"B": 15, "R": 16})

_RANK_OF: dict[Card, str] = {c: c[1] for c in ALL_CARDS}
_SUIT_OF: dict[Card, str] = {c: c[0] for c in ALL_CARDS}
_INDEX: dict[Card, int] = {c: i for i, c in enumerate(ALL_CARDS)}
#: each card by its text: a string found here is a ``Card`` without a cast
_NAMED: dict[str, Card] = {c: c for c in ALL_CARDS}

_RANK_ALIASES = {"10": "T"}


class InvalidCard(Coded, ValueError):
    """A string that is not a card of two Guandan decks, or a card seen too often: a code
    and the values its words need, since a referee types cards at the console and reads
    why they were refused in Chinese or English (``engine.coded``)."""

    ENGLISH = {
        "card_not_text": "not a card: {text!r} (expected a string such as 'S5')",
        "card_unknown": "not a card: {text!r} (suit S/H/C/D then rank 2-9 T J Q K A, or SB/HR for the jokers)",
        "cards_one_string": "expected a list of cards, got the string {text!r}",
        "card_copies": "{card} appears {n} times; two decks hold only {copies}",
        "level_unknown": "not a level: {text!r} (levels are 2-9, 10/T, J, Q, K, A)",
    }


def rank_of(card: Card) -> str:
    """The card's rank letter; ``B``/``R`` for the small/big joker."""
    return _RANK_OF[card]


def suit_of(card: Card) -> str:
    """The card's suit letter (jokers carry ``S``/``H`` as in the platform strings)."""
    return _SUIT_OF[card]


def is_joker(card: Card) -> bool:
    return card in JOKERS


#: Canonical sort key: rank 2..A, then small and big joker; suits S H C D. (The dict's own
#: look-up, not a Python function: the legal-play generator sorts with it in its hot path.)
card_key = _INDEX.__getitem__


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_INDEX.__getitem__))


def parse_card(text: object) -> Card:
    """Validate one card string and return it in canonical form.

    Accepts the platform form (``"S5"``, ``"HT"``, ``"SB"``) and, for people typing,
    lower case and ``10`` for ``T`` (``"h10"``).

    >>> parse_card("h10"), parse_card("SB")
    ('HT', 'SB')
    >>> parse_card("X5")
    Traceback (most recent call last):
        ...
    engine.cards.InvalidCard: not a card: 'X5' (suit S/H/C/D then rank 2-9 T J Q K A, or SB/HR for the jokers)
    """
    if not isinstance(text, str):
        raise InvalidCard("card_not_text", text=text)
    s = text.strip().upper()
    card = _NAMED.get(s)
    if card is not None:
        return card
    if len(s) >= 2 and s[0] in SUITS and s[1:] in _RANK_ALIASES:
        return _NAMED[s[0] + _RANK_ALIASES[s[1:]]]
    raise InvalidCard("card_unknown", text=text)


def parse_cards(items: Iterable[object]) -> tuple[Card, ...]:
    """Validate a group of cards from one set of two decks (no card more than twice)."""
    if isinstance(items, str):
        raise InvalidCard("cards_one_string", text=items)
    cards = tuple(parse_card(c) for c in items)
    check_copies(cards)
    return cards


def check_copies(cards: Iterable[Card]) -> None:
    """Raise ``InvalidCard`` when a card appears more often than two decks hold it."""
    for card, n in Counter(cards).items():
        if n > COPIES:
            raise InvalidCard("card_copies", card=card, n=n, copies=COPIES)


def parse_level(text: object) -> str:
    """A level as its rank letter ``2``..``A`` (``10`` is accepted for ``T``)."""
    s = str(text).strip().upper()
    s = _RANK_ALIASES.get(s, s)
    if s not in NATURAL or s in ("B", "R"):
        raise InvalidCard("level_unknown", text=text)
    return s


def wildcard(level: str) -> Card:
    """The wildcard (逢人配) of a level: the heart level card."""
    return Card("H" + level)


def order(rank: str, level: str) -> int:
    """Single-card order of a rank under ``level``: 2..14 naturally, level 15, B 16, R 17."""
    if rank == level:
        return 15
    if rank == "B":
        return 16
    if rank == "R":
        return 17
    return NATURAL[rank]


def card_order(card: Card, level: str) -> int:
    """``order`` of the card's rank: at level 2 a 2 outranks an ace.

    >>> card_order("SA", "2"), card_order("H2", "2"), card_order("HR", "2")
    (14, 15, 17)
    """
    return order(_RANK_OF[card], level)


def full_deck() -> list[Card]:
    """The 108 cards of two decks, in canonical order."""
    return [c for c in ALL_CARDS for _ in range(COPIES)]
