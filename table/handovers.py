"""Tribute (进贡) and its return (还贡) as a camera sees them: a card laid face up between
hands.

The card a seat that owes tribute lays in its zone is its tribute, and the card a receiver
then lays is its return; each is picked up again afterwards. Both big jokers shown by the
tributers (together, or one each in a double tribute) are a resistance (抗贡). With two
tributers nothing is recorded until both have shown a card, because one big joker each is
a resistance, not two tributes. Anything but one card is for a referee to enter.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.cards import BIG_JOKER, parse_card
from engine.event_base import Event
from engine.events import GiveBack, Resist, Tribute
from engine.hand import Hand
from engine.seats import Seat
from rulebook.alerts import Alert

#: what to record: an event class and its fields
Due = tuple[type[Event], dict[str, object]]


class Handovers:
    """The tributers' cards shown so far in this handover."""

    def __init__(self, tell: Callable[[Alert], None]) -> None:
        self.tell = tell
        self.shown: dict[Seat, tuple[str, ...]] = {}

    def tribute(self, hand: Hand, seat: Seat, cards: tuple[str, ...], resist_big_jokers: int) -> list[Due]:
        """``seat`` (a tributer) showed ``cards``: the events now due, if any."""
        self.shown[seat] = cards
        if sum(c.count(BIG_JOKER) for c in self.shown.values()) >= resist_big_jokers:
            self.shown.clear()
            return [(Resist, {"seats": tuple(hand.tributers)})]
        if not self._one_card("tribute", seat, cards):
            del self.shown[seat]
            return []
        if len(self.shown) < len(hand.tributers):
            return []  # the other tributer has yet to show a card
        due: list[Due] = [(Tribute, {"seat": giver, "card": parse_card(card)}) for giver, (card,) in self.shown.items()]
        self.shown.clear()
        return due

    def give_back(self, seat: Seat, cards: tuple[str, ...]) -> list[Due]:
        """``seat`` (a receiver) laid ``cards``: its return, if it is one card."""
        if not self._one_card("return", seat, cards):
            return []
        return [(GiveBack, {"seat": seat, "card": parse_card(cards[0])})]

    def _one_card(self, what: str, seat: Seat, cards: tuple[str, ...]) -> bool:
        if len(cards) == 1:
            return True
        self.tell(Alert.of("one_card_expected", act=what, seat=seat, n=len(cards), cards=" ".join(cards)))
        return False
