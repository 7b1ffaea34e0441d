"""The driver the hand and match tests play with (not a test module itself).

``rig`` gives each seat 27 cards of two decks with chosen cards placed where a test wants
them; ``Table`` pushes auto-numbered events into a ``Match`` (or into a lone ``Hand`` that
follows a given previous outcome) and keeps its own model of every seat's cards, so that
the same driver plays known-hand and hidden-hand (camera table) hands to any finishing
order; ``play_hand`` deals and plays a match's next hand to a finishing order such as
``DOUBLE_DOWN``.
"""

from __future__ import annotations

from collections import Counter

from engine.cards import card_key, card_order, full_deck, rank_of
from engine.events import Deal, GiveBack, Header, Pass, PlayCards, Report, Resist, Tribute
from engine.hand import OVER, PLAY, RETURN, TRIBUTE, Hand, Outcome, correct_tributes, return_allowed
from engine.legal import legal_plays
from engine.match import Entry, Match
from engine.plays import Play, strength
from engine.seats import PLAY_ORDER, partner, side_of
from rulebook import profiles


def rig(**wants) -> dict[str, tuple[str, ...]]:
    """A full deal of 108 cards, 27 a seat: ``rig(S=["HR", "HR"])`` puts the listed cards
    with the seat and deals the rest round-robin (E, N, W, S) from the top of the deck down,
    so the jokers nobody asked for go to different seats (the two copies of a card go to
    different seats while more than one seat still needs cards)."""
    deck = Counter(full_deck())
    hands: dict[str, list[str]] = {s: [] for s in PLAY_ORDER}
    for seat, cards in wants.items():
        for c in cards:
            assert deck[c] > 0, f"{c} wanted more than twice"
            deck[c] -= 1
            hands[seat].append(c)
    rest = sorted(deck.elements(), key=card_key, reverse=True)
    i = 0
    for c in rest:
        while len(hands[PLAY_ORDER[i % 4]]) >= 27:
            i += 1
        hands[PLAY_ORDER[i % 4]].append(c)
        i += 1
    assert all(len(h) == 27 for h in hands.values()), {s: len(h) for s, h in hands.items()}
    return {s: tuple(h) for s, h in hands.items()}


def outcome(*order: str) -> Outcome:
    """The ``Outcome`` of a hand that finished in ``order`` (上游 first)."""
    place = order.index(partner(order[0])) + 1
    return Outcome(tuple(order), side_of(order[0]), place, double_down=place == 2)


def codes(violations) -> list[str]:
    return [v.code for v in violations]


def find(violations, code: str) -> list:
    return [v for v in violations if v.code == code]


class Table:
    """Auto-numbered events into a ``Match`` (or a lone ``Hand``), with a model of the cards
    each seat holds (kept for hidden hands too, so the driver knows what it may play)."""

    def __init__(self, profile: str = "jiangsu", levels: dict | None = None, reports_heard: bool = True) -> None:
        self.profile = profiles.load(profile)
        header = Header(seq=0, t=0.0, profile=profile, start_levels=levels or {"EW": "2", "NS": "2"},
                        reports_heard=reports_heard)
        self.match = Match(self.profile, header)
        self.lone: Hand | None = None
        self.seq = 0
        self.model: dict[str, Counter] = {}
        self.entries: list = []
        self._tribute_moved: Hand | None = None

    @classmethod
    def after(cls, previous: tuple[str, ...], hands=None, *, profile: str = "jiangsu", level: str = "2",
              hidden: bool = False) -> Table:
        """A lone hand (number 2) played after a hand that finished in ``previous``."""
        t = cls(profile)
        hands = hands or rig()
        t.model = {s: Counter(hands[s]) for s in PLAY_ORDER}
        t.seq += 1
        deal = Deal(seq=t.seq, t=float(t.seq), hands=None if hidden else hands)
        t.lone = Hand(2, level, side_of(previous[0]), t.profile, deal, outcome(*previous))
        return t

    @property
    def hand(self) -> Hand:
        return self.lone if self.lone is not None else self.match.hand

    @property
    def violations(self) -> list:
        return self.hand.violations

    def push(self, cls, **fields):
        self.seq += 1
        event = cls(seq=self.seq, t=float(self.seq), **fields)
        result = self.lone.push(event) if self.lone is not None else self.match.push(event)
        self.entries.append(result)
        return result

    # events, keeping the model in step

    def deal(self, hands=None, *, hidden: bool = False, leader: str | None = None):
        hands = rig() if hands is None else hands
        self.model = {s: Counter(hands[s]) for s in PLAY_ORDER}
        return self.push(Deal, hands=None if hidden else hands, leader=leader)

    def play(self, seat: str, *cards: str, reading=None) -> Play | None:
        """Push a play; returns the reading the hand took."""
        self.model[seat] -= Counter(cards)
        result = self.push(PlayCards, seat=seat, cards=tuple(cards), reading=reading)
        return result.reading if isinstance(result, Entry) else result

    def pass_(self, seat: str):
        return self.push(Pass, seat=seat)

    def report(self, seat: str, count: int | None = None):
        return self.push(Report, seat=seat, count=self.hand.counts[seat] if count is None else count)

    def tribute(self, seat: str, card: str, to: str | None = None):
        result = self.push(Tribute, seat=seat, card=card, to=to)
        hand = self.hand
        if hand.phase != TRIBUTE and hand.receivers and self._tribute_moved is not hand:
            self._tribute_moved = hand
            for giver, receiver in hand.receivers.items():
                self._move(giver, receiver, hand.tributes[giver])
        return result

    def give_back(self, seat: str, card: str, to: str | None = None):
        giver = next(g for g, r in self.hand.receivers.items() if r == seat)
        self._move(seat, giver, card)
        return self.push(GiveBack, seat=seat, card=card, to=to)

    def _move(self, giver: str, receiver: str, card: str) -> None:
        if self.model[giver][card]:
            self.model[giver][card] -= 1
            self.model[receiver][card] += 1

    def held(self, seat: str) -> int:
        return sum(self.model[seat].values())

    # the driver

    def lead_round(self, seat: str, *cards: str, report: bool = True) -> None:
        """``seat`` plays ``cards`` (its turn), reports if due, and everyone else passes."""
        self.play(seat, *cards)
        self._maybe_report(seat, report)
        while self.hand.phase == PLAY and self.hand.top is not None:
            self.pass_(self.hand.turn)

    def shed_to(self, seat: str, left: int, report: bool = True) -> None:
        """``seat`` leads single cards (lowest first) until it holds ``left``."""
        while self.held(seat) > left:
            assert self.hand.turn == seat and self.hand.top is None
            card = min(self.model[seat].elements(), key=lambda c: (card_order(c, self.hand.level), c))
            self.lead_round(seat, card, report=report)

    def _maybe_report(self, seat: str, report: bool) -> None:
        if report and seat in self.hand.report_due:
            self.report(seat, self.hand.counts[seat])

    def settle_tribute(self) -> None:
        """Pay tribute (the correct card), resist when owed (hidden hands) and give back the
        lowest allowed card, as a careful table would."""
        hand = self.hand
        owed_resist = hand.phase == TRIBUTE and sum(self.model[s]["HR"] for s in hand.tributers) >= 2
        if owed_resist and not hand.known:  # known hands resist by themselves at the deal
            self.push(Resist, seats=tuple(hand.tributers))
        while hand.phase == TRIBUTE:
            seat = next(s for s in hand.tributers if s not in hand.tributes)
            self.tribute(seat, correct_tributes(self.model[seat].elements(), hand.level)[0])
        while hand.phase == RETURN:
            receiver, giver = next((r, g) for g, r in hand.receivers.items() if r not in hand.returns)
            relation = "partner" if partner(receiver) == giver else "opponent"
            rule = getattr(self.profile.tribute, f"return_to_{relation}")
            held = sorted(self.model[receiver].elements(), key=lambda c: (card_order(c, hand.level), c))
            self.give_back(receiver, next(c for c in held if return_allowed(c, hand.level, rule)))

    def _groups(self, seat: str) -> list[tuple[str, ...]]:
        """The seat's cards as leads: the lowest card alone last, the rest by rank."""
        level = self.hand.level
        cards = sorted(self.model[seat].elements(), key=lambda c: (card_order(c, level), c))
        last, rest = cards[0], cards[1:]
        by_rank: dict[str, list[str]] = {}
        for c in rest:
            by_rank.setdefault(rank_of(c), []).append(c)
        return [tuple(g) for g in by_rank.values()] + [(last,)]

    def _beat(self, seat: str) -> Play:
        hand = self.hand
        plays = legal_plays(list(self.model[seat].elements()), hand.top.play, hand.level)
        assert plays, f"{seat} cannot beat {hand.top}"
        return min(plays, key=lambda p: strength(p, hand.level))

    def finish(self, *order: str, report: bool = True):
        """Play the hand out so that players go out in ``order`` (at least up to the end of
        the hand): the next to go out sheds its cards in leads the others pass, and takes
        the lead by beating whatever is on the table when it does not hold it. Returns what
        the last push returned (the match's ``Entry``, or the lone hand's reading)."""
        hand = self.hand
        self.settle_tribute()
        while hand.phase != OVER:
            want = next(s for s in order if s not in hand.finished)
            seat = hand.turn
            if seat is None:  # first lead of a match without a named leader
                seat = want if want in hand.awaiting().seats else hand.awaiting().seats[0]
            if hand.top is None:
                group = self._groups(seat)[0] if seat == want else self._groups(seat)[-1]
                self.play(seat, *group)
                self._maybe_report(seat, report and hand.phase != OVER)
            elif seat == want:
                self.play(seat, *self._beat(seat).cards)
                self._maybe_report(seat, report and hand.phase != OVER)
            else:
                self.pass_(seat)
        return self.entries[-1]


def play_hand(t: Table, *order: str, hidden: bool = False, hands=None):
    """Deal (the first hand led by ``order[0]``) and play it out in ``order``; returns the
    match's entry for the hand's last event."""
    first = not t.match.hands
    t.deal(hands, hidden=hidden, leader=order[0] if first else None)
    return t.finish(*order)


DOUBLE_DOWN = ("E", "W", "N", "S")  # partner 2nd: +3
PARTNER_THIRD = ("E", "N", "W", "S")  # +2
PARTNER_LAST = ("E", "N", "S", "W")  # +1
NS_PARTNER_THIRD = ("N", "E", "S", "W")
NS_PARTNER_LAST = ("S", "E", "W", "N")
