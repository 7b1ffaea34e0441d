"""A match (一局 / 一轮): hands in sequence, both sides' levels, A attempts, time, result.

``Match.push`` takes every event of a record in order; the state is derived, never
stored (DESIGN §3: the record is the source of truth). ``Match.history`` keeps, per
event, the reading taken for a play and the violations it raised, for replays and UIs.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TypedDict

from engine.cards import NATURAL, RANKS
from engine.events import (
    AlertDone,
    CameraNote,
    Correction,
    Deal,
    Event,
    Forfeit,
    Header,
    LevelAdjust,
    Missed,
    Overrun,
    Pass,
    Pause,
    Penalty,
    PlayCards,
    Press,
    RecordError,
    Resume,
    Struck,
    TimeCalled,
    with_corrections,
)
from engine.hand import Hand, Outcome
from engine.plays import Play
from engine.profile import Profile
from engine.seats import SIDES, Seat, Side, other_side, side_of
from engine.trick import Top
from engine.violations import Violation

LEVELS = RANKS  # 2 … A
#: what may still be recorded once the result stands: the referee working through the
#: alerts and correcting misreads, and the clock's own notes
AFTER_THE_END = (AlertDone, Correction, Missed, Pause, Resume, Press, Overrun, CameraNote)
PASSED = len(LEVELS)  # index standing for "passed A"


@dataclass
class Entry:
    """One event as the match understood it."""

    event: Event
    hand: int | None = None
    reading: Play | None = None
    violations: list[Violation] = field(default_factory=list)
    #: for the last event of a hand: how it ended and the levels after it
    outcome: Outcome | None = None
    upgrade: tuple[Side, int] | None = None
    levels: dict[Side, str] | None = None
    #: the referee call button was pressed
    referee_call: bool = False
    #: the referee's line that put in this play or pass the camera missed (``event`` is the
    #: play or pass it stands for, under the line's seq)
    missed: Missed | None = None
    #: for a play or pass: the play on the table it met; None on a lead
    on: Top | None = None
    #: for the event that ended a trick: who leads the next (the partner of a player who
    #: went out with the trick's last play: 接风)
    leads: Seat | None = None

    @property
    def line(self) -> Event:
        """The event as its record line has it."""
        if isinstance(self.event, Struck) and self.event.struck is not None:
            return self.event.struck
        return self.missed or self.event


class ResultJson(TypedDict):
    """A match result as the pages and the tournament's API have it (``Result.to_json``)."""

    winner: Side | None
    reason: str
    levels: dict[Side, str]
    points: dict[Side, int]
    small_points: dict[Side, int]
    level_points: dict[Side, int]
    upgrades: dict[Side, int]


@dataclass(frozen=True)
class Result:
    """The match result and the scores the tournament needs."""

    winner: Side | None  # None for a draw
    reason: str  # "passed_a", "time", "forfeit", "extra_hand", "first_to_level", "draw"
    levels: dict[Side, str]
    points: dict[Side, int]
    small_points: dict[Side, int]
    level_points: dict[Side, int]
    upgrades: dict[Side, int]

    def to_json(self) -> ResultJson:
        return {"winner": self.winner, "reason": self.reason, "levels": self.levels,
                "points": self.points, "small_points": self.small_points,
                "level_points": self.level_points, "upgrades": self.upgrades}


def level_at(index: int) -> str:
    """The level at a level index (0 = 2 … 12 = A); a side that passed A still reads A."""
    return "A" if index >= PASSED else LEVELS[index]


def match_result(profile: Profile, winner: Side | None, reason: str, level_index: dict[Side, int],
                 upgrades: dict[Side, int]) -> Result:
    """Score a finished match from both sides' final level indices (``PASSED`` = passed A).

    A pure function of the final state, so that a match played on a camera table and one
    whose levels a tournament referee types in are scored by the same arithmetic: small
    points (小分, linquan) are the winner's level minus the loser's, 15 for a winner who
    passed A; level-difference points (级差分) split the profile's scale around its middle
    by the level difference; a forfeit scores the profile's award.
    """
    m = profile.match
    levels = {s: level_at(level_index[s]) for s in SIDES}
    if reason == "forfeit" and winner is not None:
        award = m.forfeit
        loser = other_side(winner)
        return Result(
            winner, reason, levels,
            points={winner: award.points, loser: 0},
            small_points={winner: award.small_points, loser: 0},
            level_points={winner: award.level_points, loser: 0},
            upgrades=upgrades,
        )
    if winner is None:
        half = m.level_points_scale // 2
        return Result(None, reason, levels,
                      points={s: m.points.draw for s in SIDES},
                      small_points={s: 0 for s in SIDES},
                      level_points={s: half for s in SIDES},
                      upgrades=upgrades)
    loser = other_side(winner)
    passed = level_index[winner] >= PASSED
    lose_value = NATURAL[level_at(level_index[loser])]
    small = (15 if passed else NATURAL[level_at(level_index[winner])]) - lose_value
    diff = level_index[winner] - level_index[loser]
    scale = m.level_points_scale
    win_points = max(0, min(scale, scale // 2 + diff))
    return Result(
        winner, reason, levels,
        points={winner: m.points.win, loser: m.points.loss},
        small_points={winner: max(0, small), loser: 0},
        level_points={winner: win_points, loser: scale - win_points},
        upgrades=upgrades,
    )


class Match:
    """The state of one match, advanced by ``push`` event by event; ``history`` says how
    each was taken and ``result`` is set once the match is over."""

    def __init__(self, profile: Profile, header: Header | None = None) -> None:
        self.profile = profile
        self.header = header or Header(seq=0, t=0.0, profile=profile.name)
        start = self.header.start_levels
        self.level_index: dict[Side, int] = {s: LEVELS.index(start[s]) for s in SIDES}
        self.start_index = dict(self.level_index)
        self.passed_a: Side | None = None
        self.a_failures: dict[Side, int] = {s: 0 for s in SIDES}
        self.gained: dict[Side, int] = {s: 0 for s in SIDES}
        #: hand number at which each side first reached its current level (ties by "first_to_level")
        self.reached_at: dict[Side, int] = {s: 0 for s in SIDES}
        self.declarers: Side = self.header.declarers  # whose level the next hand is played at
        self.hands: list[Hand] = []
        self.hand: Hand | None = None
        self.last_outcome: Outcome | None = None
        self.time_called = False
        self.extra_hand = False
        self.result: Result | None = None
        self.history: list[Entry] = [Entry(self.header)]
        self._last_seq = self.header.seq
        #: seqs of referee lines placed before events recorded earlier (``Missed``)
        self._placed: set[int] = set()
        self._replaying = False  # working a correction through: corrections are only logged

    # --- levels -------------------------------------------------------------------------

    def level_of(self, side: Side) -> str:
        return level_at(self.level_index[side])

    @property
    def levels(self) -> dict[Side, str]:
        return {s: self.level_of(s) for s in SIDES}

    @property
    def over(self) -> bool:
        return self.result is not None

    # --- events -------------------------------------------------------------------------

    @property
    def next_seq(self) -> int:
        """The seq the next event of the record takes."""
        return max(self._last_seq, max(self._placed, default=self._last_seq)) + 1

    def push(self, event: Event) -> Entry:
        """Apply the next event of the record. Raises ``RecordError`` only for a record
        that breaks the format (sequence out of order, a deal after the match ended…).

        What a player did wrong is no error: the ``Entry`` returned lists it, and the match
        goes on as the table did (``profile`` is a ``Profile``, as ``rulebook.profiles.load``
        reads one):

        >>> match = Match(profile)
        >>> match.push(Deal(seq=1, t=0.0, leader="E")).hand
        1
        >>> entry = match.push(PlayCards(seq=2, t=3.5, seat="E", cards=("S3", "H3", "C3")))
        >>> print(entry.reading)
        Trips 3 [S3 H3 C3]
        >>> match.push(Pass(seq=3, t=5.0, seat="E")).violations  # N plays next, not E
        [Violation(code='out_of_turn', seat='E', seq=3, detail={'expected': 'N'})]
        >>> match.push(Pass(seq=3, t=6.0, seat="N"))
        Traceback (most recent call last):
            ...
        engine.event_base.RecordError: seq 3 does not follow 3
        """
        if event.seq <= self._last_seq or event.seq in self._placed:
            raise RecordError("seq_order", got=event.seq, last=self._last_seq)
        if isinstance(event, Correction) and not self._replaying:
            return self._correct(event)
        if isinstance(event, Missed):
            return self._missed(event)
        if isinstance(event, Struck) and isinstance(event.struck, Missed) and event.struck.before is not None:
            self._placed.add(event.seq)  # a missed play taken back, in the place it was put
        else:
            self._last_seq = event.seq
        entry = Entry(event, hand=self.hand.number if self.hand else None)
        if isinstance(event, Header):
            raise RecordError("second_header")
        if self.over and not isinstance(event, AFTER_THE_END):
            raise RecordError("after_end", event=event.type)
        if isinstance(event, Deal):
            self._deal(event, entry)
        elif isinstance(event, TimeCalled):
            self._time_called()
        elif isinstance(event, Forfeit):
            self._finish(other_side(event.side), "forfeit")
        elif isinstance(event, Press):
            self._press(event, entry)
        elif isinstance(event, Overrun):
            entry.violations = [Violation("clock_overrun", event.seat, event.seq, {
                "action": event.action, "limit": event.limit, "elapsed": event.elapsed,
                "penalty": event.penalty})]
        elif isinstance(event, (Pause, Resume, AlertDone, Correction, Struck, CameraNote)):
            pass  # kept for the referee's log (a correction has acted already: _correct)
        elif isinstance(event, LevelAdjust):
            self._adjust(event.side, event.levels)
            entry.levels = self.levels
        elif isinstance(event, Penalty):
            self._penalty(event, entry)
        else:
            self._in_hand(entry)
        self.history.append(entry)
        return entry

    def _in_hand(self, entry: Entry) -> None:
        """A tribute, return, play, pass or report: the hand in progress takes it."""
        if self.hand is None or self.hand.outcome is not None:
            raise RecordError("no_hand", event=entry.event.type)
        hand = self.hand
        before = len(hand.violations)
        if isinstance(entry.event, (PlayCards, Pass)):
            entry.on = hand.top
        entry.reading = hand.push(entry.event)
        entry.violations = hand.violations[before:]
        if entry.on is not None and hand.top is None and hand.outcome is None:
            entry.leads = hand.leader  # the trick it met has ended
        if hand.outcome is not None:
            self._hand_over(entry, hand, hand.outcome)

    def _correct(self, event: Correction) -> Entry:
        """A correction acts in its place, as a replay of the record takes it
        (``engine.events.with_corrections``): the match is worked out again from its header
        with the corrected play or pass, so what follows it — cards seen, who is out, the
        violations raised — is what it would have been had the play been read right. One
        already in place (a replay applies them first) is only logged. A void one strikes
        the play or pass out (a ``Struck`` entry stays for the log). A correction that
        leaves the record impossible raises ``RecordError`` and changes nothing."""
        target = next((e.event for e in self.history if e.event.seq == event.target), None)
        if target is None:  # no such event: worked out again, the correction acting on nothing
            in_place = False
        elif event.void:
            in_place = not isinstance(target, (PlayCards, Pass))
        else:
            in_place = (isinstance(target, PlayCards) and target.cards == event.cards) or \
                (isinstance(target, Pass) and not event.cards) or not isinstance(target, (PlayCards, Pass, Struck))
        if in_place:
            self._replaying = True
            try:
                return self.push(event)
            finally:
                self._replaying = False
        return self._worked_again(event)

    def _missed(self, event: Missed) -> Entry:
        """A play or pass the camera missed. In a replay (``with_corrections`` has put it in
        its place), or with nothing after it, it is taken here as the play or pass it stands
        for; put before an event already taken, the match is worked out again with it in
        its place, as for a correction."""
        if event.before is not None and any(e.line.seq == event.before for e in self.history):
            return self._worked_again(event)
        if self.over:
            raise RecordError("missed_after_end")
        entry = Entry(event.as_event(), hand=self.hand.number if self.hand else None, missed=event)
        self._in_hand(entry)
        if event.before is None:
            self._last_seq = event.seq
        else:
            self._placed.add(event.seq)
        self.history.append(entry)
        return entry

    def _worked_again(self, event: Correction | Missed) -> Entry:
        """The match replayed from its header with ``event`` acting in its place; raises
        ``RecordError`` (and changes nothing) where that leaves the record impossible."""
        fresh = Match(self.profile, self.header)
        fresh._replaying = True
        for earlier in with_corrections([entry.line for entry in self.history[1:]] + [event]):
            fresh.push(earlier)
        fresh._replaying = False
        fresh._last_seq = max(fresh._last_seq, event.seq)
        self.__dict__.update(fresh.__dict__)
        return self.history[-1]

    def _adjust(self, side: Side, levels: int) -> None:
        """A referee's level change: within 2 … A (passing A is only ever played)."""
        if self.level_index[side] >= PASSED:
            return
        self.level_index[side] = max(0, min(LEVELS.index("A"), self.level_index[side] + levels))

    def _penalty(self, event: Penalty, entry: Entry) -> None:
        """Penalties that change the score: a match loss ends the match as a forfeit by the
        offender's side; stalling owes the opponents levels; a level loss costs one."""
        side = side_of(event.seat)
        if event.penalty == "match_loss":
            self._finish(other_side(side), "forfeit")
        elif event.penalty.startswith("opponents_up_"):
            self._adjust(other_side(side), int(event.penalty.rsplit("_", 1)[1]))
            entry.levels = self.levels
        elif event.penalty == "level_loss":
            self._adjust(side, -1)
            entry.levels = self.levels

    def _press(self, event: Press, entry: Entry) -> None:
        """The referee button is a call; a seat's press out of turn is an out-of-turn alert
        (a press on turn ends the turn: the play or pass that follows says how)."""
        if event.seat == "R":
            entry.referee_call = True
            return
        if self.hand is None or self.hand.outcome is not None:
            return
        action, seats = self.hand.awaiting()
        if event.seat not in seats:
            entry.violations = [Violation("out_of_turn", event.seat, event.seq,
                                          {"button": True, "action": action, "expected": list(seats)})]

    def _deal(self, event: Deal, entry: Entry) -> None:
        if self.hand is not None and self.hand.outcome is None:
            raise RecordError("deal_in_hand")
        number = len(self.hands) + 1
        level = self.level_of(self.declarers)
        self.hand = Hand(number, level, self.declarers, self.profile, event, self.last_outcome,
                         self.header.reports_heard)
        self.hands.append(self.hand)
        entry.hand = number
        entry.violations = list(self.hand.violations)

    def _hand_over(self, entry: Entry, hand: Hand, outcome: Outcome) -> None:
        entry.outcome = outcome
        side = outcome.winner_side
        gain = self.profile.levels.upgrades[str(outcome.partner_place)]
        entry.upgrade = (side, self._upgrade(side, gain, hand, outcome))
        self.last_outcome = outcome
        self.declarers = side
        entry.levels = self.levels
        if self.passed_a:
            self._finish(self.passed_a, "passed_a")
        elif self.extra_hand:
            self._finish(side, "extra_hand")
        elif self.time_called:
            self._finish_on_time()

    def _upgrade(self, side: Side, gain: int, hand: Hand, outcome: Outcome) -> int:
        """Move the winning side up; returns the levels actually gained."""
        a = LEVELS.index("A")
        declarers_at_a = self.level_index[hand.declarers] == a and hand.level == "A"
        idx = self.level_index[side]
        if declarers_at_a and side == hand.declarers:
            place = outcome.partner_place
            if place in self.profile.levels.pass_a_partner_places:
                self.level_index[side] = PASSED
                self.passed_a = side
                self.gained[side] += 1
                return 1
            self._fail_a(side)
            return 0
        if declarers_at_a:
            self._fail_a(hand.declarers)
        if idx >= a:
            return 0
        target = idx + gain
        for stop in self.profile.levels.must_play:
            s = LEVELS.index(stop)
            if idx < s < target:
                target = s
        target = min(target, a)
        self.level_index[side] = target
        self.reached_at[side] = hand.number
        self.gained[side] += target - idx
        return target - idx

    def _fail_a(self, side: Side) -> None:
        self.a_failures[side] += 1
        limit = self.profile.levels.a_failure_limit
        if limit and self.a_failures[side] >= limit:
            self.level_index[side] = LEVELS.index(self.profile.levels.a_failure_reset_to)
            self.reached_at[side] = len(self.hands)
            self.a_failures[side] = 0

    def _time_called(self) -> None:
        self.time_called = True
        hand = self.hand
        if hand is not None and hand.outcome is None:
            counts = self.profile.match.time_called_counts == "deal" or hand.first_play_made
            if counts:
                return  # the hand in progress is played out
            self.hands.pop()  # a hand not yet started does not count
            self.hand = None
        self._finish_on_time()

    def _finish_on_time(self) -> None:
        ew, ns = self.level_index["EW"], self.level_index["NS"]
        if ew != ns:
            self._finish("EW" if ew > ns else "NS", "time")
            return
        tie = self.profile.match.tie
        if tie == "extra_hand":
            self.extra_hand = True  # one more hand decides
        elif tie == "first_to_level" and self.reached_at["EW"] != self.reached_at["NS"]:
            self._finish("EW" if self.reached_at["EW"] < self.reached_at["NS"] else "NS", "first_to_level")
        else:
            self._finish(None, "draw")

    def _finish(self, winner: Side | None, reason: str) -> None:
        self.result = match_result(self.profile, winner, reason, self.level_index, dict(self.gained))

    def fork(self) -> Match:
        """An independent copy to push trial events onto: the web API checks that new events
        still replay on a fork rather than replaying the whole record on every write.

        A plain deep copy costs about as much as that replay (the history holds every event);
        this one shares what no later ``push`` changes — the profile, the history's entries and
        the finished hands — and deep-copies the rest (the hand in progress, levels, lists)."""
        memo: dict[int, object] = {id(self.profile): self.profile}
        memo.update((id(entry), entry) for entry in self.history)
        memo.update((id(hand), hand) for hand in self.hands if hand.outcome is not None)
        return copy.deepcopy(self, memo)

    # --- questions ----------------------------------------------------------------------

    @property
    def violations(self) -> list[Violation]:
        return [v for e in self.history for v in e.violations]

    def events(self) -> list[Event]:
        return [e.event for e in self.history]
