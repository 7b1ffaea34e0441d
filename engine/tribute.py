"""Tribute (进贡), resisting it (抗贡) and its return (还贡): what a hand after the first
goes through before its first lead.

``correct_tributes`` and ``return_allowed`` say which cards the rules allow.
``TributeExchange`` is the part of ``Hand`` that takes the tribute, resist and return
events: it works out who receives what and who leads, flags what went wrong, and, with
hidden hands, checks after the hand that no higher card was kept back. A mixin rather than
an object of its own, because callers read the exchange (``hand.tributers``,
``hand.tributes``, ``hand.receivers``, ``hand.returns``) on the hand itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from engine.cards import BIG_JOKER, NATURAL, Card, card_order, is_joker, rank_of, sort_cards, wildcard
from engine.events import GiveBack, Resist, Tribute
from engine.phases import PLAY, RETURN, TRIBUTE, Outcome, Phase
from engine.profile import Profile, ReturnRule
from engine.seats import PLAY_ORDER, Seat, next_seat, partner, prev_seat, side_of


def correct_tributes(hand: Iterable[Card], level: str) -> list[Card]:
    """The cards that would be a correct tribute: the highest by level order, never a
    heart wildcard (so a big joker if held). Several when suits tie.

    >>> correct_tributes(["S9", "HR", "DA", "SA"], "A"), correct_tributes(["S9", "DA", "SA"], "2")
    (['HR'], ['SA', 'DA'])
    """
    wild = wildcard(level)
    candidates = [c for c in hand if c != wild]
    if not candidates:
        return []
    top = max(card_order(c, level) for c in candidates)
    return list(sort_cards({c for c in candidates if card_order(c, level) == top}))


def return_allowed(card: Card, level: str, rule: ReturnRule) -> bool:
    """Whether ``card`` may be given back (还贡) under ``rule``."""
    if is_joker(card):
        return rule.jokers
    if rank_of(card) == level and not rule.level_cards:
        return False
    return not rule.max_rank or NATURAL[rank_of(card)] <= NATURAL[rule.max_rank]


class TributeExchange:
    """Tribute, resist and return for ``Hand`` (see the module docstring)."""

    # the hand's state this part reads and changes (``Hand.__init__`` sets it up)
    level: str
    profile: Profile
    previous: Outcome | None
    known: bool
    holdings: dict[Seat, Counter[Card]]
    counts: dict[Seat, int]
    played_by: dict[Seat, Counter[Card]]
    phase: Phase
    leader: Seat | None
    turn: Seat | None
    _flag: Callable[..., None]
    # the exchange's own state
    tributers: list[Seat]
    tributes: dict[Seat, Card]  # tributer → card
    declared_receivers: dict[Seat, tuple[Seat, int]]  # tributer → (to, seq)
    receivers: dict[Seat, Seat]  # tributer → receiver
    returns: dict[Seat, Card]  # receiver → card given back
    resisted: bool

    @property
    def _winner(self) -> Seat:
        """The first out of the previous hand, whom the tribute goes to (a hand with tribute
        always follows one)."""
        if self.previous is None:
            raise ValueError("no tribute in the first hand of a match")
        return self.previous.order[0]

    def _owe_tribute(self, previous: Outcome) -> None:
        """The losers of ``previous`` owe tribute: the last (下游), or both after a double
        down (双下); known hands holding enough big jokers resist at once."""
        if previous.double_down:
            self.tributers = list(previous.order[2:])
        else:
            self.tributers = [previous.order[3]]
        self.phase = TRIBUTE
        if self.known:
            big = sum(self.holdings[s][BIG_JOKER] for s in self.tributers)
            if big >= self.profile.tribute.resist_big_jokers:
                self._resist(previous.order[0])

    def _resist(self, winner: Seat) -> None:
        self.resisted = True
        self.phase = PLAY
        self.leader = self.turn = winner

    def _declared_resist(self, ev: Resist) -> None:
        if self.resisted and set(ev.seats) <= set(self.tributers):
            return  # known hands: already resisted at the deal
        if self.phase != TRIBUTE or set(ev.seats) - set(self.tributers):
            self._flag("wrong_tribute", ev.seats[0], ev.seq, reason="resist_not_owed")
            return
        if self.known:
            big = sum(self.holdings[s][BIG_JOKER] for s in self.tributers)
            if big < self.profile.tribute.resist_big_jokers:
                self._flag("wrong_tribute", ev.seats[0], ev.seq, reason="resist_without_big_jokers")
                return
        self._resist(self._winner)

    def _tribute(self, ev: Tribute) -> None:
        if self.phase != TRIBUTE or ev.seat not in self.tributers or ev.seat in self.tributes:
            self._flag("wrong_tribute", ev.seat, ev.seq, reason="not_owed")
            return
        if self.known:
            if not self.holdings[ev.seat][ev.card]:
                self._flag("card_not_held", ev.seat, ev.seq, cards=[ev.card])
            elif ev.card not in correct_tributes(self.holdings[ev.seat].elements(), self.level):
                self._flag("wrong_tribute", ev.seat, ev.seq, reason="not_highest", card=ev.card,
                           expected=correct_tributes(self.holdings[ev.seat].elements(), self.level))
        elif ev.card == wildcard(self.level):
            self._flag("wrong_tribute", ev.seat, ev.seq, reason="not_highest", card=ev.card)
        self.tributes[ev.seat] = ev.card
        if ev.to is not None:
            self.declared_receivers[ev.seat] = (ev.to, ev.seq)
        if len(self.tributes) == len(self.tributers):
            self._assign_receivers()

    def _assign_receivers(self) -> None:
        winner = self._winner
        if len(self.tributers) == 1:
            expected = {self.tributers[0]: winner}
        else:
            a, b = self.tributers
            oa, ob = (card_order(self.tributes[s], self.level) for s in (a, b))
            if oa != ob:
                hi, lo = (a, b) if oa > ob else (b, a)
                expected = {hi: winner, lo: partner(winner)}
            else:
                rule = self.profile.tribute.double_down_equal
                if rule == "clockwise":
                    expected = {s: prev_seat(s) for s in (a, b)}
                else:  # counter-clockwise, and the default when tributers may choose
                    expected = {s: next_seat(s) for s in (a, b)}
        declared = self.declared_receivers
        # equal means equal by level order (SA and DA are equal tribute cards)
        choosing = (len(self.tributers) == 2 and self.profile.tribute.double_down_equal == "tributers_choose"
                    and len({card_order(self.tributes[s], self.level) for s in self.tributers}) == 1)
        if choosing and len(declared) == 1:
            # one tributer chose: the other gives to the opponent left over, not by default
            (chooser,) = declared
            opponents = (winner, partner(winner))
            taken = declared[chooser][0]
            if taken in opponents:
                other = next(s for s in self.tributers if s != chooser)
                expected[other] = opponents[1 - opponents.index(taken)]
        winners = (winner, partner(winner))
        for giver, receiver in expected.items():
            if giver in declared:
                to, seq = declared[giver]
                ok = to == receiver or (choosing and side_of(to) != side_of(giver)
                                        and sum(1 for g in declared if declared[g][0] == to) == 1)
                if not ok:
                    self._flag("wrong_tribute", giver, seq, reason="wrong_receiver",
                               to=to, expected=receiver)
                # the card went where the record says, if a winner could hold it there
                if to in winners and to not in self.receivers.values():
                    receiver = to
            if receiver in self.receivers.values():
                receiver = next(w for w in winners if w not in self.receivers.values())
            self.receivers[giver] = receiver
            self._move(giver, receiver, self.tributes[giver])
        self.phase = RETURN

    def _give_back(self, ev: GiveBack) -> None:
        givers = {r: g for g, r in self.receivers.items()}
        if self.phase != RETURN or ev.seat not in givers or ev.seat in self.returns:
            self._flag("wrong_return", ev.seat, ev.seq, reason="not_owed")
            return
        to = givers[ev.seat]
        if ev.to is not None and ev.to != to:
            self._flag("wrong_return", ev.seat, ev.seq, reason="wrong_receiver", to=ev.to, expected=to)
        relation = "partner" if partner(ev.seat) == to else "opponent"
        rule = getattr(self.profile.tribute, f"return_to_{relation}")
        if self.known and not self.holdings[ev.seat][ev.card]:
            self._flag("card_not_held", ev.seat, ev.seq, cards=[ev.card])
        elif not return_allowed(ev.card, self.level, rule):
            self._flag("wrong_return", ev.seat, ev.seq, reason=f"not_allowed_to_{relation}", card=ev.card)
        self.returns[ev.seat] = ev.card
        self._move(ev.seat, to, ev.card)
        if len(self.returns) == len(self.receivers):
            self._after_returns()

    def _after_returns(self) -> None:
        self.phase = PLAY
        winner = self._winner
        if len(self.tributers) == 1:
            self.leader = self.tributers[0]
        else:
            a, b = self.tributers
            oa, ob = (card_order(self.tributes[s], self.level) for s in (a, b))
            rule = self.profile.tribute.double_down_equal_leader
            if oa != ob:
                self.leader = a if oa > ob else b  # 由贡大牌者先出牌
            elif rule == "tributers_choose":
                self.leader = None  # either tributer may lead
            elif rule == "winner_previous":
                self.leader = prev_seat(winner)
            else:
                self.leader = next((g for g, r in self.receivers.items() if r == winner), a)
        self.turn = self.leader

    def _move(self, giver: Seat, receiver: Seat, card: Card) -> None:
        self.counts[giver] -= 1
        self.counts[receiver] += 1
        if self.known:
            self.holdings[giver][card] -= 1
            self.holdings[giver] += Counter()  # drop zero counts
            self.holdings[receiver][card] += 1

    # play

    def _check_tribute_after(self, seq: int) -> None:
        """With hidden hands, a tributer who later plays a card above the tribute (other than
        the card given back to them) kept back a higher card: a wrong tribute."""
        if self.known:
            return
        if self.resisted:
            owners = set(self.tributers)
            big_elsewhere = sum(self.played_by[s][BIG_JOKER] for s in PLAY_ORDER if s not in owners)
            if big_elsewhere > 2 - self.profile.tribute.resist_big_jokers:
                self._flag("wrong_tribute", self.tributers[0], seq, reason="resist_without_big_jokers")
            return
        wild = wildcard(self.level)
        for giver, card in self.tributes.items():
            kept = Counter(self.played_by[giver])
            receiver = self.receivers.get(giver)
            back = self.returns.get(receiver) if receiver is not None else None
            if back:
                kept[back] -= 1
            higher = [c for c in (+kept) if c != wild and card_order(c, self.level) > card_order(card, self.level)]
            if higher:
                self._flag("wrong_tribute", giver, seq, reason="kept_higher", card=card, kept=sorted(higher))
