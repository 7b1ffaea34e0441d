"""The table runtime: camera frames in, a checked game record out.

camera → calibration (re-done when the camera is bumped) → each seat's zone rectified →
the detector, run only on zones that changed and then lie still (in the first ``LOOKS``
frames they lie still, the looks pooled: ``vision.looks``; in a four-colour deck a club's
green ink tells it from a spade: ``vision.inks``) → corner indices grouped into cards →
the zone tracker (settled, new cards, cleared) → the rules engine → the record (and
through it the store and the web pages). Every committed play keeps its evidence
frame (JPEG, the read cards drawn). A read below the confidence threshold goes to the
referee instead of being trusted silently (the play event carries its confidence). A
reading that cannot be right — a third copy of a card, a row that is no combination — is
read again from the reader's runners-up (``vision.deck``, ``vision.combination``), at their
lower confidence, and so is a straight flush with one card's suit in doubt (a rare bomb,
likelier a straight with a club read for a spade) and a play that would not beat the one it
is laid on where a runner-up of some weight beats it (a 大王 read as the 小王); the referee
is told what was read and what was taken. The hand's plays are read again together as each
is committed (``vision.recount``): two decks hold two of each card, so when a card shows up
a third time the likelier misread may be an earlier play's, and that play is corrected in
the record (a ``correction`` by the camera; the referee is told) — into another rank only
where the record, so corrected, raises no violation it did not (``_harmless``).

Without a clock a play is committed when it has settled, and the seats the turn passed
over without laying anything are recorded as passes (they knocked). With a clock the
seat's button press commits (``hardware.runner.MatchTurns``, ``zone`` below). The clock's
presses arrive on the serial driver's thread while frames arrive on the camera loop's: one
lock keeps the record's order and numbering whole.

Tribute and return are seen the same way, clock or not: between hands, the card a seat
that owes tribute (进贡) lays face up in its zone is its tribute, and the card a receiver
then lays is its return (还贡); each is picked up again afterwards. Both big jokers shown
by the tributers (together, or one each in a double tribute) are a resistance (抗贡). With
two tributers nothing is recorded until both have shown a card, because one big joker
each is a resistance, not two tributes.

A live table's record has other writers: a referee at the console corrects a misread play,
puts in one the camera missed (``missed``), hands out a penalty. The runtime takes their
events in (``outside``) before it records anything and every ``OUTSIDE_S`` of frames, so it
goes on from the table as the referee put it right: whose turn, the trick's top play, the
hand's count (a referee's cards are sure: never read again). Each event it records takes
the next seq free in the store; one a referee took meanwhile (``SeqTaken``) costs a retry,
never the event.
"""

from __future__ import annotations

import copy
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.cards import ALL_CARDS, BIG_JOKER, COPIES, InvalidCard
from engine.events import (
    BY_CAMERA,
    CameraNote,
    Correction,
    Deal,
    Event,
    GiveBack,
    Header,
    Missed,
    Pass,
    PlayCards,
    RecordError,
    Resist,
    Tribute,
    with_corrections,
)
from engine.hand import HAND_EVENTS, RETURN, TRIBUTE, Hand
from engine.layout import reading_from_layout
from engine.match import Match
from engine.plays import Play, beats, classify
from engine.profile import Profile
from engine.seats import PLAY_ORDER
from scorer.alerts import Alert
from scorer.pace import Pace
from scorer.store import SeqTaken
from vision.annotate import draw_detections
from vision.calibration import (
    GOOD_PX_PER_CM,
    MIN_PX_PER_CM,
    Calibration,
    CalibrationError,
    fine_scale,
    rectify_zone,
    zone_size,
)
from vision.camera import Frame
from vision.combination import as_beating, as_combination, as_plain_straight
from vision.deck import at_most_copies, within_deck
from vision.detector import CardDetector, Detection, detect_tiled
from vision.grouping import Laid, group_cards, own_side
from vision.inks import DeckInks
from vision.looks import pool
from vision.recount import HandCount, ReadPlay
from vision.tracker import MOTION_LEVEL, Settled, ZoneTracker, motion, thumbnail
from vision.unread import unread_card

RECHECK_S = 1.0  # how often the markers are checked for a bumped camera
REDETECT_LEVEL = 3.0  # a still zone is read again when it differs this much from the last read
BARE_LEVEL = 4.0  # a zone this close to how it looked empty is empty (vision.tracker.motion)
COVERED_ALERT_S = 3.0  # a zone covered this long is worth a word to the referee
COVERED_MAX_S = 30.0  # covered this long, it is the new look of the empty zone (a cloth, a lamp moved)
# A still zone is read in LOOKS frames, pooled (vision.looks); each look keeps readings from
# LOOK_FLOOR, and a pooled reading counts from POOLED, lower than one look's threshold
# (vision.detector.CONFIDENCE) because three looks agreeing are surer than one. On six
# rendered games and the demo recording (docs/benchmarks.md): one look 140 plays exact of
# 192, three 145 (five 142); pooled from 0.15 rather than 0.25, 150 instead of 146, false
# alerts 21 instead of 32 (from 0.2: 148 and 26; from 0.1: 149 and 24).
LOOKS = 3
LOOK_FLOOR = 0.1
POOLED = 0.15
FROZEN_S = 5.0  # a live camera's sensor noise makes every frame differ: this long the same is a frozen feed
OUTSIDE_S = 0.5  # how often (in frame time) the record is checked for a referee's acts
#: what the camera says about a play or a zone that the referee should see, not only the
#: operator: recorded as ``camera_note`` events for the referee's queue (the camera's own
#: state — markers, a frozen feed — stays on the operator's console)
NOTED = frozenset({"zone_covered", "third_copy", "too_many_copies", "no_combination", "unlikely_flush",
                   "would_not_beat", "recount_now", "one_card_expected", "unread_card"})
SEQ_TRIES = 20  # seqs tried for one event before giving up (each lost to another writer)


@dataclass
class SeatZone:
    tracker: ZoneTracker
    previous: np.ndarray | None = None  # the last frame's thumbnail (vision.tracker.thumbnail)
    read_image: np.ndarray | None = None  # the zone as last read by the detector
    read_thumb: np.ndarray | None = None
    laid: Laid = field(default_factory=lambda: Laid((), ()))
    detections: list[Detection] = field(default_factory=list)
    looks: list[list[Detection]] = field(default_factory=list)  # this still zone's reads (vision.looks)
    bare: np.ndarray | None = None  # the thumbnail of the zone when it last lay empty
    covered_since: float | None = None  # no card read, yet not bare: a hand or an object over it
    covered_told: bool = False  # the referee has been told
    unread_for: np.ndarray | None = None  # the still look last searched for a card the reader cannot name


class TableRuntime:
    def __init__(self, detector: CardDetector, profile: Profile, *, table: str = "1",
                 record: Callable[[Event], None] | None = None,
                 evidence: Callable[[int, bytes], None] | None = None,
                 alert: Callable[[Alert], None] | None = None, auto_commit: bool = True,
                 resume: list[Event] | None = None, level: str = "2",
                 outside: Callable[[], list[Event]] | None = None) -> None:
        self.detector = detector
        # a camera cannot hear the spoken card counts (报牌): their absence is no violation here;
        # ``level``: a table filmed from mid-match plays its first hand at that level (its 逢人配)
        header = Header(seq=0, t=0.0, profile=profile.name, table=table, reports_heard=False,
                        start_levels={"EW": level, "NS": level})
        self.match = Match(profile, resume[0] if resume else header)
        self.events: list[Event] = [self.match.header]
        self.sink = record
        self.evidence = evidence
        self.tell = alert or (lambda _alert: None)  # the operator's console
        self.auto_commit = auto_commit
        self.outside = outside  # the record's other writers: new events, in seq order
        self._outside_at = -OUTSIDE_S
        self._seq_floor = 0  # past the seq of a stored event the match refused (``_take_in``)
        self.calibration: Calibration | None = None
        self.zones = {s: SeatZone(ZoneTracker(s, auto_commit=False)) for s in PLAY_ORDER}
        self.inks = DeckInks()  # the deck's inks, learnt from its reads (vision.inks)
        self._checked_at = -RECHECK_S
        self._picture: bytes = b""  # a sample of the last frame's pixels, to notice a frozen feed
        self._same_since = 0.0
        self._frozen = False
        self.pace = Pace()  # whether the loop keeps up with a live camera
        self._frame: Frame | None = None
        self._shown: dict[str, tuple[str, ...]] = {}  # tributers' cards not yet recorded
        self.count: HandCount | None = None  # the hand's plays, read again together (vision.recount)
        self._dealt: Hand | None = None  # the hand in play as it was dealt (``_harmless``)
        self.lock = threading.RLock()  # frames (camera loop) and presses (clock thread)
        if resume:
            self._resume(resume[1:])
        elif record is not None:
            record(self.match.header)

    def warm_up(self) -> None:
        """Run the detector once on a blank zone: its first run compiles the models (seconds),
        which would otherwise happen on the first frames of the game."""
        from vision.reader import PATCH

        width, height = zone_size()
        detect_tiled(self.detector, np.full((height, width, 3), 128, np.uint8), upright=True)
        self.detector.reader.probabilities(np.full((1, PATCH, PATCH, 3), 128, np.uint8))  # no box on grey
        suits = getattr(self.detector, "suits", None)
        if suits is not None:
            suits.probabilities(np.full((1, suits.view.height, suits.view.width, 3), 128, np.uint8))

    def _resume(self, events: list[Event]) -> None:
        """Go on from a stored record (a restarted process): the match is replayed, and the
        cards of the trick on the table count as already committed in their zones, so they
        are not read as new plays."""
        for event in events:
            self.match.push(event)
            self.events.append(event)
            if isinstance(event, Deal):
                self._dealt = copy.deepcopy(self.match.hand)
        hand = self.match.hand
        if hand is not None and hand.outcome is None:
            for seat, _play, cards, _seq in hand.trick:
                self.zones[seat].tracker.on_table.update(cards)
            # the plays before the restart count as they stand; their readings are gone
            self.count = HandCount(hand.level)
            for entry in self.match.history:
                if entry.hand == hand.number and isinstance(entry.event, PlayCards):
                    self.count.add(ReadPlay(entry.event.seq, entry.event.cards, ()))

    # --- the record ---------------------------------------------------------------------

    def alert(self, alert: Alert) -> None:
        """Tell the operator; what is about a play or a zone goes in the record too (a
        ``camera_note``), for the referee's queue."""
        self.tell(alert)
        if alert.code in NOTED and self.match.hand is not None:
            values = dict(alert.values)
            seat = values.get("seat")
            self.record(CameraNote, code=alert.code, values=values, seat=seat if seat in PLAY_ORDER else None)

    def record(self, cls, **fields) -> Event:
        """Record an event of the table's: judged by the match, then stored under the next
        free seq (what others wrote is taken in first)."""
        with self.lock:
            t = round(self._frame.t, 3) if self._frame is not None else 0.0
            for _ in range(SEQ_TRIES):
                self._take_in()
                event = cls(seq=self._next_seq(), t=t, **fields)
                if self._stored(event):
                    break
            else:
                raise SeqTaken(f"no free seq for the table's event after {SEQ_TRIES} tries")
            self.events.append(event)
            if isinstance(event, Deal):
                self.count = HandCount(self.match.hand.level)
                self._dealt = copy.deepcopy(self.match.hand)
            elif isinstance(event, PlayCards) and self.count is not None:
                self.count.bind(event.seq)
            return event

    def _next_seq(self) -> int:
        return max(self.match.next_seq, self._seq_floor)

    def _stored(self, event: Event) -> bool:
        """Push ``event`` on the match and hand it to the sink (which writes the violations
        the match found on it); ``False``, with the match as it was, where another writer
        took its seq meanwhile."""
        if self.sink is None:
            self.match.push(event)
            return True
        was = self.match.fork() if self.outside is not None else None
        self.match.push(event)
        try:
            self.sink(event)
        except SeqTaken:
            if was is None:
                raise
            self.match.__dict__.update(was.__dict__)  # the same object: the clock holds it
            return False
        return True

    def _take_in(self) -> None:
        """The record's other writers' new events (a referee's acts) join the match in
        order; each then bears on what the runtime keeps (``_heed``). One the match refuses
        — the record as the runtime holds it is not the stored one — is told, not taken."""
        if self.outside is None:
            return
        for event in self.outside():
            if event.seq < self._next_seq():
                continue  # the runtime's own, or taken in already
            try:
                self.match.push(event)
            except RecordError as exc:
                self._seq_floor = event.seq + 1  # its seq is taken all the same
                self.alert(Alert.of("outside_refused", seq=event.seq, why=exc.message))
                continue
            self.events.append(event)
            self._heed(event)

    def _heed(self, event: Event) -> None:
        """A referee's act on the hand in play: a corrected play's cards, or a missed play's,
        count as sure in the hand's count (never read again), and a voided play's not at all;
        a missed play lying in the trick is in its seat's zone, so the camera does not take
        its cards for a new play."""
        hand = self.match.hand
        if self.count is None or hand is None or hand.outcome is not None:
            return
        if isinstance(event, Missed):
            if event.cards:
                self.count.add(ReadPlay(event.seq, event.cards, ()))
            if any(seq == event.seq for _seat, _play, _cards, seq in hand.trick):
                self.zones[event.seat].tracker.on_table.update(event.cards)
        elif isinstance(event, Correction) and event.by != BY_CAMERA:
            self.count.plays = [p for p in self.count.plays if p.seq != event.target]
            mine = any(e.event.seq == event.target and e.hand == hand.number for e in self.match.history)
            if event.cards and mine:
                self.count.add(ReadPlay(event.target, event.cards, ()))

    # --- frames -------------------------------------------------------------------------

    def process(self, frame: Frame) -> list[Event]:
        """Take one frame; return the record events it led to."""
        with self.lock:
            return self._process(frame)

    def _process(self, frame: Frame) -> list[Event]:
        self._frame = frame
        before = len(self.events)
        if frame.t >= self._outside_at + OUTSIDE_S:
            self._outside_at = frame.t
            self._take_in()
        self._watch_for_freeze(frame)
        self._watch_pace(frame)
        if not self._calibrated(frame):
            return []
        for seat in PLAY_ORDER:
            zone = self.zones[seat]
            image = rectify_zone(frame.image, self.calibration, seat)
            thumb = thumbnail(image)
            moving = motion(zone.previous, thumb) >= MOTION_LEVEL
            zone.previous = thumb
            draw = self._drawer(frame, seat, image)
            if not moving:
                self._read(seat, zone, draw, thumb)
            covered = not moving and self._covered(seat, zone, frame.t, thumb)
            if covered and self._unread(seat, zone, draw):
                covered = False
            for change in zone.tracker.update(frame.t, zone.laid, moving or covered):
                if isinstance(change, Settled) and change.new and (self.auto_commit or self._between_hands()):
                    self._commit(seat)
        return self.events[before:]

    def _drawer(self, frame: Frame, seat: str, image: np.ndarray) -> Callable[[], np.ndarray]:
        """The seat's zone as it is read, drawn when first asked for in this frame: ``image``
        (the plain warp every frame gets, for the motion checks), or, from a camera finer than
        the zone, the zone warped finer and shrunk (``rectify_zone``'s ``fine``) — a plain warp
        of a 4K frame aliases, and the reading is worth the few milliseconds it costs, the
        motion checks are not."""
        drawn: list[np.ndarray] = []

        def draw() -> np.ndarray:
            if not drawn:
                fine = fine_scale(self.calibration.zone_resolution()[seat])
                drawn.append(image if fine is None else rectify_zone(frame.image, self.calibration, seat, fine=fine))
            return drawn[0]

        return draw

    def _read(self, seat: str, zone: SeatZone, draw: Callable[[], np.ndarray], thumb: np.ndarray) -> None:
        """Read a still zone (``draw`` gives its picture): once when it has changed, then again
        in the next ``LOOKS`` - 1 frames, the looks pooled (``vision.looks``)."""
        if zone.read_thumb is None or motion(zone.read_thumb, thumb) >= REDETECT_LEVEL:
            zone.looks = []
            zone.read_thumb = thumb
        elif len(zone.looks) >= LOOKS:
            return
        image = draw()
        zone.looks.append(own_side(seat, detect_tiled(self.detector, image, conf=LOOK_FLOOR, upright=True)))
        pooled = pool(zone.looks, POOLED)
        if len(zone.looks) == LOOKS:  # each still zone's cards are learnt from once
            self.inks.learn(pooled, image)
        zone.detections = self.inks.settle(pooled, image)
        zone.laid = group_cards(zone.detections)
        zone.read_image = image

    def _watch_for_freeze(self, frame: Frame) -> None:
        """A camera or capture card that hangs can keep sending its last picture: the table
        would look still while the game goes on. Say so, and say when it moves again."""
        picture = frame.image[::23, ::23].tobytes()
        if picture != self._picture:
            self._picture, self._same_since = picture, frame.t
            if self._frozen:
                self._frozen = False
                self.alert(Alert.of("camera_moves_again"))
            return
        if not self._frozen and frame.t - self._same_since >= FROZEN_S:
            self._frozen = True
            self.alert(Alert.of("camera_frozen", seconds=FROZEN_S))

    def _watch_pace(self, frame: Frame) -> None:
        """A node too slow for its camera, or a camera sending too few frames, records plays
        late (``scorer.pace``): the operator hears so once, and when the node keeps up again."""
        report = self.pace.see(frame.number, frame.t)
        if report is not None:
            self.alert(Alert.of(report.code, fps=report.fps, camera_fps=report.camera_fps, seconds=report.seconds))

    def _covered(self, seat: str, zone: SeatZone, t: float, thumb: np.ndarray) -> bool:
        """No card read in a still zone that does not look empty either: a hand left over the
        cards, a cup, a sheet. That is not the trick being cleared away (which would make the
        cards count as new when it lifts); the zone waits, and the referee hears of it."""
        if zone.laid.cards:
            zone.covered_since = None
            return False
        if zone.bare is None or motion(zone.bare, thumb) < BARE_LEVEL:
            zone.bare, zone.covered_since = thumb, None  # empty: keep up with the light
            return False
        if zone.covered_since is None:
            zone.covered_since, zone.covered_told = t, False
        elif t - zone.covered_since >= COVERED_MAX_S:
            zone.bare, zone.covered_since = thumb, None
            self.alert(Alert.of("zone_new_bare", seat=seat, seconds=COVERED_MAX_S))
            return False
        elif t - zone.covered_since >= COVERED_ALERT_S and not zone.covered_told:
            zone.covered_told = True
            self.alert(Alert.of("zone_covered", seat=seat))
        return True

    def _unread(self, seat: str, zone: SeatZone, draw: Callable[[], np.ndarray]) -> bool:
        """A covered zone — still, not bare, its looks read nothing — when its seat may lay
        now: is it a card the reader cannot name (``vision.unread``)? If the zone's marks say
        which card (of those the hand has not seen twice), it is taken as laid there, for the
        tracker to commit as any play, and the referee is asked to check it. Each still look
        of the zone is searched once: a hand resting there, then lifting off a card, is two."""
        if len(zone.looks) < LOOKS or zone.unread_for is zone.read_thumb:
            return False
        zone.unread_for = zone.read_thumb
        hand = self.match.hand
        if hand is None or hand.outcome is not None or hand.phase != "play" or not self._may_lay(seat):
            return False
        seen = hand.tracker.seen
        card = unread_card(self.detector, draw(), [c for c in ALL_CARDS if seen[c] >= COPIES])
        if card is None:
            return False
        zone.detections = [card]
        zone.laid = group_cards(zone.detections)
        zone.covered_since = None
        self.alert(Alert.of("unread_card", seat=seat, card=card.card, confidence=card.conf))
        return True

    def _may_lay(self, seat: str) -> bool:
        """Whether ``seat`` may lay cards now: its turn, or the turn of a seat after the ones
        a camera would take as passing first — but not the seat whose play tops the trick
        while it still lies in its zone (what covers it there is a hand, not a new lead)."""
        hand = self.match.hand
        if hand.top is None:
            return hand.turn in (None, seat)
        if hand.top[0] == seat and self.zones[seat].tracker.on_table:
            return False
        trial = self._passes_for(seat, ())[1]
        return trial is not None and trial.turn == seat

    def _calibrated(self, frame: Frame) -> bool:
        due = frame.t - self._checked_at >= RECHECK_S
        if self.calibration is not None and not due:
            return True
        self._checked_at = frame.t
        if self.calibration is not None and not self.calibration.moved(frame.image):
            return True
        try:
            fresh = Calibration.from_image(frame.image)
        except CalibrationError as exc:
            if self.calibration is None:
                self.alert(Alert.of(exc.code, **exc.values))
                return False
            return True  # markers hidden for now: keep the last calibration
        if self.calibration is not None:
            self.alert(Alert.of("camera_moved"))
            for zone in self.zones.values():
                zone.previous = zone.read_image = zone.read_thumb = zone.bare = None
        self.calibration = fresh
        self._check_resolution()
        return True

    def _check_resolution(self) -> None:
        """A camera too far away or too coarse for its cards to be read: say so once per
        calibration, not on every misread play (``vision.calibration.MIN_PX_PER_CM``)."""
        resolution = self.calibration.zone_resolution()
        seat = min(resolution, key=resolution.get)
        if resolution[seat] < MIN_PX_PER_CM:
            self.alert(Alert.of("zone_coarse", seat=seat, px=resolution[seat], least=MIN_PX_PER_CM,
                                good=GOOD_PX_PER_CM))

    # --- committing ---------------------------------------------------------------------

    def zone(self, seat: str) -> dict | None:
        """For a clock press: the new cards in the seat's zone as a play's fields, or None."""
        with self.lock:
            cards = self.zones[seat].tracker.commit()
            return self._play_fields(seat, cards) if cards else None

    def deal(self, seat: str) -> bool:
        """For a clock press when no hand is in play: with cards newly laid in the seat's zone,
        the hand has begun (the first hand's leader is whoever lays first); record its deal."""
        with self.lock:
            hand = self.match.hand
            if (hand is not None and hand.outcome is None) or not self.zones[seat].tracker.new_cards():
                return False
            self.record(Deal, leader=seat if not self.match.hands else None)
            return True

    def _play_fields(self, seat: str, cards: tuple[str, ...]) -> dict:
        read = cards
        cards, doubts = self._recount(seat, read)  # may correct earlier plays: the match first
        hand = self.match.hand
        level = hand.level if hand else "2"
        seen = hand.tracker.seen if hand is not None and hand.outcome is None else Counter()
        cards, more = self._possible(seat, cards, level, seen)
        if self.count is not None:
            self.count.amend(cards)
        reading = reading_from_layout(cards, level)
        conf = [d.conf for d in self.zones[seat].detections if d.card in read] + doubts + more
        fields: dict = {"seat": seat, "cards": cards, "confidence": round(min(conf), 3) if conf else 0.0}
        if reading is not None:
            fields["reading"] = (reading.type, reading.rank)
        return fields

    def _possible(self, seat: str, read: tuple[str, ...], level: str, seen: Counter
                  ) -> tuple[tuple[str, ...], list[float]]:
        """The play as it can have been laid (``vision.deck``, ``vision.combination``), and
        the confidences of what was changed: a third copy of a card, a row that is no
        combination and a straight flush with a suit in doubt take the reader's runners-up;
        copies beyond two with none are left out (no record holds them). The referee is told
        of every change."""
        others = self.zones[seat].tracker.stable.others_of
        cards, rereads = within_deck(read, [others(c) for c in read], seen)
        for r in dict.fromkeys(rereads):  # two copies taken alike: told once
            self.alert(Alert.of("third_copy", seat=seat, read=r.read, taken=r.taken, confidence=r.confidence))
        doubts = [r.confidence for r in rereads]
        cards, dropped = at_most_copies(cards)
        if dropped:
            self.alert(Alert.of("too_many_copies", seat=seat, read=" ".join(read), dropped=" ".join(dropped)))
            doubts.append(0.0)  # the record does not say what lay there
        before = cards
        cards, mended = as_combination(cards, [others(c) for c in cards], level, seen)
        if mended:
            self.alert(Alert.of("no_combination", seat=seat, read=" ".join(before), taken=" ".join(cards),
                                confidence=min(r.confidence for r in mended)))
        before = cards
        cards, unflushed = as_plain_straight(cards, [others(c) for c in cards], level, seen)
        if unflushed:
            self.alert(Alert.of("unlikely_flush", seat=seat, read=" ".join(before), taken=" ".join(cards),
                                confidence=unflushed[0].confidence))
        before, on = cards, self._laid_on(seat, cards)
        cards, lifted = as_beating(cards, [others(c) for c in cards], level, seen, on)
        if lifted:
            self.alert(Alert.of("would_not_beat", seat=seat, read=" ".join(before), on=" ".join(on.cards),
                                taken=" ".join(cards), confidence=min(r.confidence for r in lifted)))
        return cards, doubts + [r.confidence for r in mended + unflushed + lifted]

    def _recount(self, seat: str, read: tuple[str, ...]) -> tuple[tuple[str, ...], list[float]]:
        """The hand's plays read again with this one as read (``vision.recount``): earlier
        plays whose likeliest cards changed are corrected in the record, and this play is
        taken as the hand reads it, with the confidences of what was changed. Every change
        is put to the referee."""
        if self.count is None:
            return read, []
        laid = self.zones[seat].tracker.stable
        choices = tuple(((name, laid.confidence_of(name)), *laid.others_of(name)) for name in read)
        self.count.add(ReadPlay(None, read, choices))
        cards, doubts = read, []
        for change in self.count.settle(self._harmless):
            if change.seq is None:
                self.alert(Alert.of("recount_now", seat=seat, was=" ".join(change.was), now=" ".join(change.now)))
                cards = change.now
                doubts = [dict(slot).get(now, 0.0)
                          for slot, was, now in zip(choices, change.was, change.now, strict=True) if now != was]
                continue
            target = next(e for e in self.events if e.seq == change.seq)
            self.record(Correction, target=change.seq, cards=change.now, by=BY_CAMERA, why="recount")
            self.alert(Alert.of("recount", target=change.seq, seat=target.seat, was=" ".join(change.was),
                                now=" ".join(change.now)))
        return cards, doubts

    def _harmless(self, target: int, cards: tuple[str, ...]) -> bool:
        """Whether event ``target`` of the hand in play, corrected to ``cards``, leaves the
        hand with no violation it did not have: the hand's events replayed, as corrected,
        on a copy of the hand as it was dealt (about a millisecond, where the match itself
        takes a correction by replaying every hand before it too)."""
        hand = self.match.hand
        if self._dealt is None or hand is None or self._dealt.number != hand.number:
            return False
        mine = [entry.event for entry in self.match.history if entry.hand == hand.number]
        fix = Correction(seq=self.match.next_seq, t=0.0, target=target, cards=cards, by=BY_CAMERA, why="recount")
        trial = copy.deepcopy(self._dealt)
        try:
            for event in with_corrections([*mine, fix]):
                if isinstance(event, HAND_EVENTS):
                    trial.push(event)
        except RecordError:
            return False
        return len(trial.violations) <= len(hand.violations)

    def _between_hands(self) -> bool:
        """Tribute and return are due, or a hand is over and the next one's tribute may come."""
        hand = self.match.hand
        return hand is not None and (hand.outcome is not None or hand.phase in (TRIBUTE, RETURN))

    def _commit(self, seat: str) -> None:
        self._take_in()  # the passes inferred before the play go on from the referee's story
        cards = self.zones[seat].tracker.commit()
        hand = self.match.hand
        if hand is None or hand.outcome is not None:
            self.record(Deal, leader=seat if not self.match.hands else None)
            hand = self.match.hand
        if hand.phase == TRIBUTE and seat in hand.tributers:
            self._tribute_seen(seat, cards)
            return
        if hand.phase == RETURN and seat in hand.receivers.values():
            self._return_seen(seat, cards)
            return
        fields = self._play_fields(seat, cards)
        self._passes_before(seat, fields["cards"])
        event = self.record(PlayCards, **fields)
        self._keep_evidence(seat, event.seq)

    def _tribute_seen(self, seat: str, cards: tuple[str, ...]) -> None:
        hand = self.match.hand
        self._shown[seat] = cards
        jokers = sum(c.count(BIG_JOKER) for c in self._shown.values())
        if jokers >= self.match.profile.tribute.resist_big_jokers:
            self.record(Resist, seats=tuple(hand.tributers))
            self._shown.clear()
            return
        if not self._one_card("tribute", seat, cards):
            del self._shown[seat]
            return
        if len(self._shown) < len(hand.tributers):
            return  # the other tributer has yet to show a card
        for giver, (card,) in list(self._shown.items()):
            event = self.record(Tribute, seat=giver, card=card)
            self._keep_evidence(giver, event.seq)
        self._shown.clear()

    def _return_seen(self, seat: str, cards: tuple[str, ...]) -> None:
        if self._one_card("return", seat, cards):
            event = self.record(GiveBack, seat=seat, card=cards[0])
            self._keep_evidence(seat, event.seq)

    def _one_card(self, what: str, seat: str, cards: tuple[str, ...]) -> bool:
        """A tribute or a return is one card; anything else is for a referee to enter."""
        if len(cards) == 1:
            return True
        self.alert(Alert.of("one_card_expected", act=what, seat=seat, n=len(cards), cards=" ".join(cards)))
        return False

    def _passes_before(self, seat: str, cards: tuple[str, ...]) -> None:
        """Seats the turn went past without laying anything knocked: record their passes.

        A camera cannot see a knock, so which seats passed is read from who lays next. Mostly
        that is the seats between; but cards laid by the seat that would lead once everyone
        had passed (the trick's winner, or its partner when the winner has just gone out:
        接风), after the trick was turned face down (the top play's zone cleared), came after
        a whole round of passes, whether or not they would beat the trick (game 102: the
        partner's lead of an ace after a king that went out was taken as played on the king,
        two passes short). With the trick still lying there, cards that cannot beat it are a
        play under it, for the engine to flag."""
        for turn in self._passes_for(seat, cards)[0]:
            self.record(Pass, seat=turn)

    def _passes_for(self, seat: str, cards: tuple[str, ...]) -> tuple[list[str], Hand | None]:
        """The seats ``_passes_before`` records as passing before ``seat`` lays ``cards``,
        and a copy of the hand once they have (None: no trick is on, nobody passes)."""
        hand = self.match.hand
        if hand is None or hand.phase != "play" or hand.top is None:
            return [], None
        if not self.zones[hand.top[0]].tracker.on_table:
            passed, trial = self._pass_on(hand, seat, whole_round=True)
            if trial.top is None and trial.turn == seat:
                return passed, trial
        return self._pass_on(hand, seat, whole_round=False)

    def _pass_on(self, hand: Hand, seat: str, whole_round: bool) -> tuple[list[str], Hand]:
        """A copy of ``hand`` with passes pushed by the seats whose turn comes before
        ``seat``'s (at most three), or with ``whole_round`` until the trick ends (at most
        four): the seats and the copy."""
        trial = copy.deepcopy(hand)
        seq = self.match.next_seq - 1
        passed: list[str] = []
        while trial.top is not None and trial.turn is not None and len(passed) < (4 if whole_round else 3):
            if not whole_round and trial.turn == seat:
                break
            passed.append(trial.turn)
            seq += 1
            trial.push(Pass(seq=seq, t=0.0, seat=trial.turn))
        return passed, trial

    def _laid_on(self, seat: str, cards: tuple[str, ...]) -> Play | None:
        """The play ``cards`` are judged against once the passes before them are recorded,
        when they do not beat the table as it lies (None: they beat it, or they lead)."""
        hand = self.match.hand
        if hand is None or hand.phase != "play" or hand.top is None or self._beats_table(cards):
            return None
        trial = self._passes_for(seat, cards)[1]
        return trial.top[1] if trial.top is not None else None

    def _beats_table(self, cards: tuple[str, ...]) -> bool:
        hand = self.match.hand
        try:
            readings = classify(cards, hand.level)
        except InvalidCard:
            return False
        return any(beats(play, hand.top[1], hand.level) for play in readings)

    def _keep_evidence(self, seat: str, seq: int) -> None:
        if self.evidence is None or self._frame is None:
            return
        zone = self.zones[seat]
        picture = self._frame.image.copy()
        if zone.read_image is not None:
            read = draw_detections(zone.read_image, zone.detections)
            h = min(read.shape[0], picture.shape[0])
            w = min(read.shape[1], picture.shape[1])
            picture[:h, :w] = read[:h, :w]  # the zone as read, in the corner of the frame
        ok, jpeg = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if ok:
            self.evidence(seq, jpeg.tobytes())
