"""The live table: camera frames and clock presses in, a checked game record out.

Each frame is read seat by seat (``vision.live.seat_reading``), which returns what it saw;
the runtime tells what the camera noticed, says whether a covered zone's seat may lay now,
and acts on each seat's changes before the next seat is read. A play that has settled in
its zone is committed — at once without a clock, at the seat's button press with one
(``hardware.runner``, through ``clock_turns``) — read as it can have been laid
(``table.mending``), with the passes before it that a camera cannot see
(``table.passes``), judged by the match (``engine``) and written to the record
(``table.record_link``), with its evidence frame. A read below the confidence threshold
goes to the referee instead of being trusted silently (the play event carries its
confidence).

Tribute and return are seen the same way, clock or not: between hands, the card a seat that
owes tribute (进贡) lays face up in its zone is its tribute, and the card a receiver then
lays is its return (还贡). Both big jokers shown by the tributers (together, or one each in
a double tribute) are a resistance (抗贡); with two tributers nothing is recorded until both
have shown a card.

The record's other writers (a referee's acts) are taken in before the table records
anything and every ``OUTSIDE_S`` of frames, so the table goes on as the referee put it
right. Frames (camera loop) and presses (clock thread) take one lock, so the record's order
and numbering stay whole; the match is only ever changed under it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from engine.cards import ALL_CARDS, COPIES, Card
from engine.events import (
    BY_CAMERA,
    GREW,
    CameraNote,
    Correction,
    Deal,
    Event,
    Header,
    Missed,
    Pass,
    PlayCards,
    RecordError,
)
from engine.hand import RETURN, TRIBUTE, Hand
from engine.match import Match
from engine.profile import Profile
from engine.seats import PLAY_ORDER, Seat, seat_or_none
from rulebook.alerts import Alert
from store.event_store import SeqTaken
from table import passes
from table.handovers import Due, Handovers
from table.mending import HandReading, PlayFields, engine_cards
from table.pace import Pace
from table.record_link import KeptInList, RecordLink
from vision.live.camera import Frame
from vision.live.detector import CardDetector
from vision.live.seat_reading import SeatReading, ZoneLook
from vision.live.tracker import Cleared, Settled

OUTSIDE_S = 0.5  # how often (in frame time) the record is checked for a referee's acts
#: what the camera says about a play or a zone that the referee should see, not only the
#: operator: recorded as ``camera_note`` events for the referee's queue (the camera's own
#: state — markers, a frozen feed — stays on the operator's console)
NOTED = frozenset({"zone_covered", "third_copy", "too_many_copies", "no_combination", "unlikely_flush",
                   "would_not_beat", "recount_now", "one_card_expected", "unread_card"})
SEQ_TRIES = 20  # seqs tried for one event before giving up (each lost to another writer)
#: cards a seat adds to its row this soon after its play was recorded, nobody having acted
#: since, are that play grown (laid one by one, a stack spread), not a second play
GROW_S = 3.0


def in_row_order(cards: tuple[str, ...], row: tuple[str, ...]) -> tuple[str, ...]:
    """``cards`` in the order they lie in ``row`` (a zone's reading, left to right); any not
    in it after, as given."""
    left, placed = list(cards), []
    for card in row:
        if card in left:
            left.remove(card)
            placed.append(card)
    return tuple(placed + left)


class TableRuntime:
    def __init__(self, detector: CardDetector, profile: Profile, *, table: str = "1",
                 link: RecordLink | None = None, alert: Callable[[Alert], None] | None = None,
                 auto_commit: bool = True, resume: list[Event] | None = None, level: str = "2") -> None:
        # a camera cannot hear the spoken card counts (报牌): their absence is no violation here;
        # ``level``: a table filmed from mid-match plays its first hand at that level (its 逢人配)
        # the detector's doubt threshold (an enrolled deck's) goes in the header: the console
        # weighs each play by the camera that read it
        header = Header(seq=0, t=0.0, profile=profile.name, table=table, reports_heard=False,
                        start_levels={"EW": level, "NS": level}, doubt=detector.doubt)
        first = resume[0] if resume else header
        if not isinstance(first, Header):
            raise RecordError("header_first_line")
        self.match = Match(profile, first)
        self.events: list[Event] = [self.match.header]
        self.link = link or KeptInList()
        self.tell = alert or (lambda _alert: None)  # the operator's console
        self.seats = SeatReading(detector)
        self.auto_commit = auto_commit
        self.reading = HandReading(corners_agree=detector.own_deck)
        self.handovers = Handovers(self.alert)
        self.pace = Pace()  # whether the loop keeps up with a live camera
        self.lock = threading.RLock()  # frames (camera loop) and presses (clock thread)
        self._outside_at = -OUTSIDE_S
        self._seq_floor = 0  # past the seq of a stored event the match refused (``_take_in``)
        self._frame: Frame | None = None
        if resume:
            self._resume(resume[1:])
        else:
            self.link.append(self.match.header)

    def warm_up(self) -> None:
        """The models' first run compiles them: done before the game, not on its first frames."""
        self.seats.warm_up()

    def _resume(self, events: list[Event]) -> None:
        """Go on from a stored record (a restarted process): the match is replayed, and the
        cards of the trick on the table count as already committed in their zones, so they
        are not read as new plays."""
        for event in events:
            self.match.push(event)
            self.events.append(event)
            if isinstance(event, Deal):
                self.reading.recorded(event, self.match)
        hand = self.match.hand
        if hand is not None and hand.outcome is None:
            for turn in hand.trick:
                self.seats.zones[turn.seat].tracker.count_as_laid(turn.cards)
        self.reading.resumed(self.match)

    # --- the record ---------------------------------------------------------------------

    def alert(self, alert: Alert) -> None:
        """Tell the operator; what is about a play or a zone goes in the record too (a
        ``camera_note``), for the referee's queue."""
        self.tell(alert)
        if alert.code in NOTED and self.match.hand is not None:
            values = dict(alert.values)
            self.record(CameraNote, code=alert.code, values=values, seat=seat_or_none(values.get("seat")))

    def _alert_all(self, alerts: tuple[Alert, ...]) -> None:
        for alert in alerts:
            self.alert(alert)

    def record(self, cls: type[Event], **fields: object) -> Event:
        """Record an event of the table's: judged by the match, then written under the next
        free seq (what others wrote is taken in first; a seq another writer took meanwhile
        costs a try, never the event)."""
        with self.lock:
            t = round(self._frame.t, 3) if self._frame is not None else 0.0
            for _ in range(SEQ_TRIES):
                self._take_in()
                event = cls(seq=max(self.match.next_seq, self._seq_floor), t=t, **fields)
                was = self.match.fork()
                self.match.push(event)
                if self.link.append(event):
                    break
                self.match = was  # as it was before the push: the seq is another writer's
            else:
                raise SeqTaken("no_free_seq", table=self.match.header.table, tries=SEQ_TRIES)
            self.events.append(event)
            self.reading.recorded(event, self.match)
            self._trick_begun(event)
            return event

    def _trick_begun(self, event: Event) -> None:
        """A deal or a trick's lead: what every zone holds committed was played in a trick
        that is over, but for the lead's own cards (``ZoneTracker.trick_over``)."""
        hand = self.match.hand
        leader: Seat | None = None
        led: tuple[str, ...] = ()
        if isinstance(event, PlayCards):
            if hand is None or len(hand.trick) != 1 or hand.trick[0].seq != event.seq:
                return
            leader, led = event.seat, tuple(event.cards)
        elif not isinstance(event, Deal):
            return
        for seat, zone in self.seats.zones.items():
            zone.tracker.trick_over(led if seat == leader else ())

    def _take_in(self) -> None:
        """The record's other writers' new events (a referee's acts) join the match in
        order. A missed play put in lies in its seat's zone, so the camera does not take its
        cards for a new play. One the match refuses — the record as the table holds it is
        not the stored one — is told, not taken."""
        for event in self.link.others():
            if event.seq < max(self.match.next_seq, self._seq_floor):
                continue  # taken in already
            try:
                self.match.push(event)
            except RecordError as exc:
                self._seq_floor = event.seq + 1  # its seq is taken all the same
                self.alert(Alert.of("outside_refused", seq=event.seq, why=exc))
                continue
            self.events.append(event)
            self.reading.heed(event, self.match)
            hand = self.match.hand
            if isinstance(event, Missed) and hand is not None and hand.outcome is None and any(
                    turn.seq == event.seq for turn in hand.trick):
                self.seats.zones[event.seat].tracker.count_as_laid(event.cards)

    # --- frames -------------------------------------------------------------------------

    def process(self, frame: Frame) -> list[Event]:
        """Take one frame; return the record events it led to."""
        with self.lock:
            self._frame = frame
            before = len(self.events)
            if frame.t >= self._outside_at + OUTSIDE_S:
                self._outside_at = frame.t
                self._take_in()
            frozen = self.seats.watch_for_freeze(frame)
            if frozen is not None:
                self.alert(frozen)
            report = self.pace.see(frame.number, frame.t)  # a node too slow for its camera (table.pace)
            if report is not None:
                self.alert(Alert.of(report.code, fps=report.fps, camera_fps=report.camera_fps,
                                    seconds=report.seconds))
            sight = self.seats.calibrate(frame)
            self._alert_all(sight.alerts)
            if sight.calibrated:
                for seat in PLAY_ORDER:
                    self._settle(self.seats.look(frame, seat))
            return self.events[before:]

    def _settle(self, look: ZoneLook) -> None:
        """One seat's zone in this frame: what the camera noticed there is told; a covered
        zone on a still look not yet searched is searched for a card the reader cannot name
        where its seat may lay now (``_ruled_out``); a play that has settled is committed —
        all before the next seat is read, which sees it."""
        seat = look.seat
        self._alert_all(look.alerts)
        reading = self.seats.settle(look, self._ruled_out(seat) if look.searchable else None)
        self._alert_all(reading.alerts)
        for change in reading.changes:
            if isinstance(change, Settled) and change.new and (self.auto_commit or self._between_hands()):
                self._commit(seat)
            elif self.seats.trace is not None:
                self._trace_left(seat, change)

    def _trace_left(self, seat: Seat, change: Settled | Cleared) -> None:
        """Why a zone's change was not recorded, in its trace (``vision.live.trace``)."""
        frame, trace = self._frame, self.seats.trace
        if frame is None or trace is None:
            return
        if isinstance(change, Cleared):
            trace.decided(seat, frame.t, frame.number, "cleared")
        elif change.new:
            trace.decided(seat, frame.t, frame.number, "waiting_press", cards=list(change.new))
        else:
            committed = sorted(self.seats.zones[seat].tracker.on_table.elements())
            trace.decided(seat, frame.t, frame.number, "nothing_new_here" if change.by_place else "nothing_new",
                          cards=list(change.laid.cards), committed=committed)

    def _lying(self) -> passes.Lying:
        """The seats whose zones still hold the cards they played."""
        return frozenset(seat for seat, zone in self.seats.zones.items() if zone.tracker.on_table)

    def _ruled_out(self, seat: Seat) -> list[str] | None:
        """For a covered zone: the cards it cannot hold (both copies seen), or None where
        ``seat`` may not lay now."""
        hand = self.match.hand
        if hand is None or hand.outcome is not None or hand.phase != "play" or not passes.may_lay(
                hand, seat, self._lying(), self.match.next_seq):
            return None
        return [c for c in ALL_CARDS if hand.tracker.seen[c] >= COPIES]

    # --- committing ---------------------------------------------------------------------

    def zone(self, seat: Seat) -> PlayFields | None:
        """For a clock press (``table.clock_turns.MatchTurns``): the new cards in the seat's
        zone as the play's fields, read as they can have been laid, or None: nothing new lies
        there, the press is a pass."""
        with self.lock:
            cards = self.seats.zones[seat].tracker.commit()
            return self._play_fields(seat, cards) if cards else None

    def deal(self, seat: Seat) -> bool:
        """For a clock press when no hand is in play: with cards newly laid in the seat's zone,
        the hand has begun (the first hand's leader is whoever lays first); record its deal."""
        with self.lock:
            hand = self.match.hand
            if (hand is not None and hand.outcome is None) or not self.seats.zones[seat].tracker.new_cards():
                return False
            self.record(Deal, leader=seat if not self.match.hands else None)
            return True

    def _play_fields(self, seat: Seat, cards: tuple[str, ...]) -> PlayFields:
        """The fields of the play ``seat`` laid, read as ``cards``: the hand read again first,
        whose corrections of earlier plays are recorded before the play is read on against
        the hand as corrected (``table.mending``); what the referee should hear is told."""
        zone = self.seats.zones[seat]
        recounted = self.reading.recount(seat, cards, zone.tracker.stable, self.match)
        for fix in recounted.fixes:
            self.record(Correction, target=fix.target, cards=engine_cards(fix.cards), by=BY_CAMERA, why="recount")
            self.alert(fix.alert)
        self._alert_all(recounted.alerts)
        read = self.reading.play(recounted, zone, self.match, self._lying())
        self._alert_all(read.alerts)
        return read.fields

    def _between_hands(self) -> bool:
        """Tribute and return are due, or a hand is over and the next one's tribute may come."""
        hand = self.match.hand
        return hand is not None and (hand.outcome is not None or hand.phase in (TRIBUTE, RETURN))

    def _commit(self, seat: Seat) -> None:
        self._take_in()  # the passes inferred before the play go on from the referee's story
        cards = self.seats.zones[seat].tracker.commit()
        hand = self._dealt(seat)
        due: list[Due]
        if hand.phase == TRIBUTE and seat in hand.tributers:
            due = self.handovers.tribute(hand, seat, cards, self.match.profile.tribute.resist_big_jokers)
        elif hand.phase == RETURN and seat in hand.receivers.values():
            due = self.handovers.give_back(seat, cards)
        else:
            grown = self._grown(seat, cards)
            if grown is not None:
                self.record(Correction, target=grown[0], cards=grown[1], by=BY_CAMERA, why=GREW)
                self.keep_evidence(seat, grown[0])
                self._trace_recorded(seat, grown[0], grown[1])
                return
            fields = self._play_fields(seat, cards)
            self._passes_before(seat)
            due = [(PlayCards, dict(fields))]
        for cls, values in due:
            event = self.record(cls, **values)
            acted = seat_or_none(values.get("seat"))
            if acted is not None:
                self.keep_evidence(acted, event.seq)
            self._trace_recorded(seat, event.seq, getattr(event, "cards", None) or (getattr(event, "card", ""),),
                                 "recorded" if cls is PlayCards else "handed_over")

    def _dealt(self, seat: Seat) -> Hand:
        """The hand in play; with none, the hand ``seat`` has begun by laying cards (its deal
        recorded: the first hand's leader is whoever lays first)."""
        hand = self.match.hand
        if hand is None or hand.outcome is not None:
            self.record(Deal, leader=seat if not self.match.hands else None)
            hand = self.match.hand
        if hand is None:  # the deal was refused: the record broke
            raise RecordError("no_hand", event="deal")
        return hand

    def _trace_recorded(self, seat: Seat, seq: int, cards: tuple[str, ...], decision: str = "grew") -> None:
        if self.seats.trace is not None and self._frame is not None:
            self.seats.trace.decided(seat, self._frame.t, self._frame.number, decision, seq=seq, cards=list(cards))

    def _grown(self, seat: Seat, cards: tuple[str, ...]) -> tuple[int, tuple[Card, ...]] | None:
        """Where ``cards`` are more of the seat's last play, not a play of their own: the
        play on top of the trick is the seat's, laid less than ``GROW_S`` ago, and nobody
        has acted since — a seat never plays twice in a row, so a row that settled and then
        grew (cards laid one by one, a stack spread after it lay squared) is one play. Its
        seq and its whole cards, in the order they lie; None where not."""
        hand = self.match.hand
        if hand is None or not hand.trick or self._frame is None:
            return None
        last = hand.trick[-1]
        if last.seat != seat or not last.cards:
            return None
        laid_at = next((e.t for e in reversed(self.events) if e.seq == last.seq), None)
        if laid_at is None or self._frame.t - laid_at > GROW_S:
            return None
        return last.seq, engine_cards(in_row_order(last.cards + cards, self.seats.zones[seat].tracker.stable.cards))

    def _passes_before(self, seat: Seat) -> None:
        """Seats the turn went past without laying anything knocked (``table.passes``)."""
        for turn in passes.passes_for(self.match.hand, seat, self._lying(), self.match.next_seq)[0]:
            self.record(Pass, seat=turn)

    def keep_evidence(self, seat: Seat, seq: int) -> None:
        """Keep the frame that shows event ``seq``, ``seat``'s play, as its evidence: the seat's
        zone as last read, drawn in the frame's corner (the referee's console crops it)."""
        frame = self._frame
        if frame is not None:
            self.link.evidence(seq, lambda: self.seats.evidence(seat, frame.image))
