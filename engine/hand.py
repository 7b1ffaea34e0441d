"""One hand (一把牌) as a state machine: deal, tribute, return, play, finishing order.

The hand takes events and never raises on a player's mistake: it records a
``Violation`` and goes on the way the table physically went (cards laid are gone from
the hand; a play that is not legal does not take the trick). Hands may be known (bots,
online records) or hidden (a camera table sees only what is played); the checks adapt —
with hidden hands the tribute is checked after the hand, when the tributer's played cards
show whether a higher card was kept back. Tribute and its return are ``engine.tribute``'s
part of the hand; this module is the deal, the play and the end.
"""

from __future__ import annotations

from collections import Counter

from engine.card_count import CardTracker
from engine.cards import DECK_SIZE, HAND_SIZE, Card, full_deck
from engine.event_base import Event
from engine.events import Deal, GiveBack, Pass, PlayCards, Report, Resist, Tribute
from engine.legal import legal_plays
from engine.phases import FIRST_LEAD, OVER, PLAY, RETURN, TRIBUTE, Action, Awaiting, Outcome, Phase
from engine.plays import Play, Reading, beats, classify, strength
from engine.profile import Profile
from engine.seats import PLAY_ORDER, Seat, Side, next_seat, partner, side_of
from engine.tribute import TributeExchange, correct_tributes, return_allowed
from engine.trick import Top, Turn
from engine.violations import Violation

__all__ = ["HAND_EVENTS", "OVER", "PLAY", "RETURN", "TRIBUTE", "Awaiting", "Hand", "Outcome", "Top", "Turn",
           "correct_tributes", "return_allowed"]

#: the events ``Hand.push`` takes (a match routes the rest to itself)
HAND_EVENTS = (PlayCards, Pass, Report, Tribute, GiveBack, Resist)


class Hand(TributeExchange):
    """The state of one hand, advanced by ``push``; ``violations`` lists what went wrong.

    A first hand at a camera table (hands hidden; ``profile`` is a ``Profile``, as
    ``rulebook.profiles.load`` reads one):

    >>> hand = Hand(1, "2", "EW", profile, Deal(seq=1, t=0.0, leader="E"), previous=None)
    >>> hand.push(PlayCards(seq=2, t=1.0, seat="E", cards=("H3", "S3")))
    Play(type='Pair', rank='3', cards=('S3', 'H3'))
    >>> hand.turn, hand.counts["E"]
    ('N', 25)
    >>> hand.push(Pass(seq=3, t=2.0, seat="W"))  # not W's turn: flagged, and nothing changes
    >>> [(v.code, v.seat, v.detail) for v in hand.violations]
    [('out_of_turn', 'W', {'expected': 'N'})]
    >>> hand.awaiting()
    Awaiting(action='play', seats=('N',))
    >>> hand.top
    Top(seat='E', play=Play(type='Pair', rank='3', cards=('S3', 'H3')))
    """

    def __init__(self, number: int, level: str, declarers: Side, profile: Profile,
                 deal: Deal, previous: Outcome | None, reports_heard: bool = True) -> None:
        self.number = number
        self.reports_heard = reports_heard
        self.level = level
        self.declarers = declarers
        self.profile = profile
        self.previous = previous
        self.violations: list[Violation] = []
        hands = deal.hands
        self.known = hands is not None
        self.holdings: dict[Seat, Counter[Card]] = {}
        self.counts: dict[Seat, int] = {s: HAND_SIZE for s in PLAY_ORDER}
        if hands is not None:
            self.holdings = {s: Counter(hands[s]) for s in PLAY_ORDER}
            self.counts = {s: len(hands[s]) for s in PLAY_ORDER}
        self.played_by: dict[Seat, Counter[Card]] = {s: Counter() for s in PLAY_ORDER}
        self.tracker = CardTracker(level)
        self.tributes: dict[Seat, Card] = {}  # tributer → card
        self.declared_receivers: dict[Seat, tuple[Seat, int]] = {}  # tributer → (to, seq)
        self.receivers: dict[Seat, Seat] = {}  # tributer → receiver
        self.returns: dict[Seat, Card] = {}  # receiver → card given back
        self.resisted = False
        self.tributers: list[Seat] = []
        self.turn: Seat | None = None
        self.leader: Seat | None = None
        #: the play the next must beat, and who laid it; None on a lead
        self.top: Top | None = None
        self.passes = 0
        #: what each seat did in the trick on the table, in order; the last trick once it ends
        self.trick: list[Turn] = []
        self.last_trick: list[Turn] = []
        self.finished: list[Seat] = []
        self.report_due: dict[Seat, int] = {}
        self.reported: set[Seat] = set()
        self.first_play_made = False
        self.outcome: Outcome | None = None
        self.phase: Phase = PLAY
        self._check_deal(deal)
        self._start(deal)

    # --- set-up -------------------------------------------------------------------------

    def _flag(self, code: str, seat: Seat | None, seq: int | None, **detail: object) -> None:
        self.violations.append(Violation(code, seat, seq, detail))

    def _check_deal(self, deal: Deal) -> None:
        if not self.known:
            return
        for s in PLAY_ORDER:
            if self.counts[s] != HAND_SIZE:
                self._flag("card_count_mismatch", s, deal.seq, held=self.counts[s], expected=HAND_SIZE)
        dealt = sum(self.holdings.values(), Counter())
        if dealt != Counter(full_deck()):
            missing = Counter(full_deck()) - dealt
            extra = dealt - Counter(full_deck())
            self._flag("card_count_mismatch", None, deal.seq, dealt=sum(dealt.values()),
                       expected=DECK_SIZE, missing=sorted(missing.elements()),
                       extra=sorted(extra.elements()))

    def _start(self, deal: Deal) -> None:
        if self.previous is None:
            self.leader = self.turn = deal.leader  # None: whoever plays first leads
        else:
            self._owe_tribute(self.previous)

    # --- events -------------------------------------------------------------------------

    def push(self, event: Event) -> Play | None:
        """Apply one table event of this hand; for a play, return the reading taken."""
        if self.phase == OVER:
            seat = getattr(event, "seat", None)
            self._flag("play_after_out", seat, event.seq, reason="hand_over")
            return None
        if isinstance(event, PlayCards):
            return self._play(event)
        if isinstance(event, Pass):
            self._pass(event)
        elif isinstance(event, Report):
            self._report(event)
        elif isinstance(event, Tribute):
            self._tribute(event)
        elif isinstance(event, GiveBack):
            self._give_back(event)
        elif isinstance(event, Resist):
            self._declared_resist(event)
        else:  # pragma: no cover - Match routes only hand events here
            raise TypeError(f"not a hand event: {event!r}")
        return None

    # play

    def _close_reports(self, seq: int) -> None:
        for seat, count in self.report_due.items():
            self._flag("missed_report", seat, seq, count=count)
        self.report_due.clear()

    def _active(self) -> list[Seat]:
        return [s for s in PLAY_ORDER if s not in self.finished]

    def _next_active(self, seat: Seat) -> Seat:
        s = next_seat(seat)
        while s in self.finished:
            s = next_seat(s)
        return s

    def _in_turn(self, seat: Seat, seq: int) -> bool:
        if seat in self.finished:
            self._flag("play_after_out", seat, seq)
            return False
        if self.phase in (TRIBUTE, RETURN):
            self._flag("out_of_turn", seat, seq, reason=f"{self.phase}_not_finished")
            self.phase = PLAY
            self.turn = self.leader = seat
            return True
        if self.turn is None:  # first lead of the match, or tributers choosing
            allowed: list[Seat] = self.tributers if self.previous is not None else list(PLAY_ORDER)
            if seat not in allowed:
                self._flag("out_of_turn", seat, seq, expected=allowed)
                return False
            self.turn = self.leader = seat
            return True
        if seat != self.turn:
            self._flag("out_of_turn", seat, seq, expected=self.turn)
            return False
        return True

    def choose_reading(self, readings: list[Play], declared: Reading | None) -> Play | None:
        """The reading a play is taken as: the declared (or laid-out) one; otherwise the
        lowest that beats the play on the table; on a lead, the profile's default."""
        if declared is not None:
            for r in readings:
                if (r.type, r.rank) == declared:
                    return r
            return None
        if not readings:
            return None
        top = self.top.play if self.top else None
        if top is not None:
            winning = [r for r in readings if beats(r, top, self.level)]
            if winning:
                return min(winning, key=lambda r: strength(r, self.level))
        pick = max if self.profile.play.lead_reading == "highest" and top is None else min
        return pick(readings, key=lambda r: strength(r, self.level))

    def _play(self, ev: PlayCards) -> Play | None:
        self._close_reports(ev.seq)
        seat = ev.seat
        in_turn = self._in_turn(seat, ev.seq)
        if seat in self.finished:
            return None
        readings = classify(ev.cards, self.level)
        play = self.choose_reading(readings, ev.reading)
        legal = play is not None
        if not readings:
            self._flag("not_a_combination", seat, ev.seq, cards=list(ev.cards))
        elif play is None:
            self._flag("not_a_combination", seat, ev.seq, cards=list(ev.cards), declared=list(ev.reading or ()))
        elif self.top is not None and not beats(play, self.top.play, self.level):
            legal = False
            self._flag("does_not_beat", seat, ev.seq, play=play.to_json(), on=self.top.play.to_json())
        self._take_cards(seat, ev)
        self.trick.append(Turn(seat, play, tuple(ev.cards), ev.seq))
        self.first_play_made = True
        if legal and play is not None:
            self.top = Top(seat, play)
            self.passes = 0
        elif in_turn and self.counts[seat] > 0:
            # laid but not taking the trick: the turn moves on as a pass (a player who went
            # out with it is no longer one of those who must pass)
            self.passes += 1
        if self.counts[seat] <= 0:
            self.finished.append(seat)
            if self._hand_over(ev.seq):
                return play
        elif self.reports_heard and self.counts[seat] <= self.profile.report.threshold and (
                self.profile.report.mode == "each_play" or seat not in self.reported):
            self.report_due[seat] = self.counts[seat]
        if legal or in_turn:
            self.turn = self._next_active(seat)
        # else: an out-of-turn play that took nothing; the player whose turn it is still owes it
        self._maybe_end_trick()
        return play

    def _take_cards(self, seat: Seat, ev: PlayCards) -> None:
        cards = Counter(ev.cards)
        if self.known:
            missing = cards - self.holdings[seat]
            if missing:
                self._flag("card_not_held", seat, ev.seq, cards=sorted(missing.elements()))
            self.holdings[seat] -= cards
        elif len(ev.cards) > self.counts[seat]:
            self._flag("card_count_mismatch", seat, ev.seq, held=self.counts[seat], played=len(ev.cards))
        # only this play's cards: a copy too many is this play's fault, not every later one's
        over = [c for c in cards if self.tracker.seen[c] + cards[c] > 2]
        if over:
            self._flag("duplicate_card", seat, ev.seq, cards=sorted(over))
        self.counts[seat] = max(0, self.counts[seat] - len(ev.cards))
        self.played_by[seat] += cards
        self.tracker.add(ev.cards)

    def _pass(self, ev: Pass) -> None:
        self._close_reports(ev.seq)
        if not self._in_turn(ev.seat, ev.seq):
            return
        if self.top is None:
            self._flag("pass_on_lead", ev.seat, ev.seq)
            return
        self.passes += 1
        self.trick.append(Turn(ev.seat, None, (), ev.seq))
        self.turn = self._next_active(ev.seat)
        self._maybe_end_trick()

    def _maybe_end_trick(self) -> None:
        if self.top is None:
            return
        top_seat = self.top.seat
        needed = len([s for s in self._active() if s != top_seat])
        if self.passes < needed:
            return
        if top_seat not in self.finished:
            leader = top_seat
        elif partner(top_seat) not in self.finished:
            leader = partner(top_seat)  # 接风: the partner of a player who went out leads
        else:
            leader = self._next_active(top_seat)
        self.top = None
        self.passes = 0
        self.last_trick, self.trick = self.trick, []
        self.leader = self.turn = leader

    def _report(self, ev: Report) -> None:
        if self.profile.report.mode == "once" and ev.seat in self.reported:
            self._flag("repeated_report", ev.seat, ev.seq, said=ev.count)
            return
        self.reported.add(ev.seat)
        if ev.count != self.counts[ev.seat]:
            self._flag("wrong_report", ev.seat, ev.seq, said=ev.count, held=self.counts[ev.seat])
        self.report_due.pop(ev.seat, None)

    # --- the end ------------------------------------------------------------------------

    def _hand_over(self, seq: int) -> bool:
        f = self.finished
        first_side_out = len(f) >= 2 and side_of(f[0]) == side_of(f[1])
        if len(f) < 3 and not first_side_out:
            return False
        rest = []  # those still holding cards, in play order after the last to go out
        s = f[-1]
        for _ in range(3):
            s = next_seat(s)
            if s not in f:
                rest.append(s)
        order = tuple(f + rest)
        winner = order[0]
        place = order.index(partner(winner)) + 1
        self.outcome = Outcome(order, side_of(winner), place, double_down=place == 2)
        self.phase = OVER
        self.turn = None
        self.report_due.clear()
        self._check_conservation(seq)
        self._check_tribute_after(seq)
        return True

    def _check_conservation(self, seq: int) -> None:
        played = sum(self.played_by.values(), Counter())
        if self.known:
            held = sum(self.holdings.values(), Counter())
            if played + held != Counter(full_deck()):
                self._flag("card_count_mismatch", None, seq, reason="conservation",
                           accounted=sum((played + held).values()), expected=DECK_SIZE)
        total = sum(self.counts.values()) + sum(played.values())
        if total != DECK_SIZE:
            self._flag("card_count_mismatch", None, seq, reason="conservation",
                       accounted=total, expected=DECK_SIZE)


    # --- questions ----------------------------------------------------------------------

    def awaiting(self) -> Awaiting:
        """What the hand waits for (tribute, return, the first lead, a play, or nothing: over)
        and from whom. The table clock runs on this."""
        if self.phase == TRIBUTE:
            return Awaiting(TRIBUTE, tuple(s for s in self.tributers if s not in self.tributes))
        if self.phase == RETURN:
            return Awaiting(RETURN, tuple(r for r in self.receivers.values() if r not in self.returns))
        if self.phase == OVER:
            return Awaiting(OVER, ())
        kind: Action = FIRST_LEAD if not self.first_play_made else PLAY
        if self.turn is None:
            return Awaiting(kind, tuple(self.tributers) if self.previous else PLAY_ORDER)
        return Awaiting(kind, (self.turn,))

    def legal_plays(self) -> list[Play]:
        """Every legal play of the seat on turn (known hands only; a pass is not listed)."""
        if not self.known or self.phase != PLAY or self.turn is None:
            return []
        prev = self.top.play if self.top else None
        if self.top and self.top.seat == self.turn:
            prev = None
        return legal_plays(list(self.holdings[self.turn].elements()), prev, self.level)
