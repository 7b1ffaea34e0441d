"""The four seats' zones read frame by frame: what lies in each, and when it has settled.

camera frame → calibration from the markers (checked every ``RECHECK_S`` for a bumped
camera) → each seat's zone rectified (``vision.live.calibration``) → the detector, run only
on zones that changed and then lie still, in ``LOOKS`` frames whose readings are pooled
(``vision.live.looks``; in a four-colour deck a club's green ink tells it from a spade:
``vision.live.inks``) → corner indices grouped into cards (``vision.live.grouping``) → the
zone tracker (``vision.live.tracker``: settled, new cards, cleared).

A still zone where nothing is read but which does not look empty is covered (a hand, a
cup): it waits, and after ``COVERED_ALERT_S`` the referee hears of it. On its seat's turn
such a zone may hold a card the reader cannot name (``vision.live.unread``): whoever runs
the table says which cards it may not be. What the camera itself notices — markers lost,
a coarse camera, a frozen feed, a covered zone — is an ``Alert`` (a code and values, worded
by whoever prints it).

It returns what it saw and decides nothing about the game: each step hands back a small
value (``TableSight``, ``ZoneLook``, ``ZoneReading``) with the camera's alerts in it, and
whoever keeps the record acts on it seat by seat — a play recorded for one seat is seen by
the next seat's reading in the same frame, and only it says whether a covered zone's seat
may lay now (``SeatReading.settle``). ``SeatReading.frame`` reads a whole frame for callers
with no record to keep (the camera check).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from engine.seats import PLAY_ORDER, Seat
from rulebook.alerts import Alert
from vision.live.annotate import draw_detections
from vision.live.beside import DeckBeside
from vision.live.blur import Sharpening, measure, sharpened_zone
from vision.live.calibration import (
    GOOD_PX_PER_CM,
    MIN_PX_PER_CM,
    Calibration,
    CalibrationError,
    fine_scale,
    rectify_zone,
    zone_size,
)
from vision.live.camera import Frame
from vision.live.detector import CardDetector, Detection, detect_tiled
from vision.live.grouping import Laid, group_cards, own_side
from vision.live.inks import DeckInks
from vision.live.looks import pool
from vision.live.reader import PATCH
from vision.live.trace import ZoneTrace
from vision.live.tracker import MOTION_LEVEL, Cleared, Settled, ZoneTracker, thumbnail
from vision.live.unread import unread_card
from vision.live.zone_change import NoiseFloor, changed_cells, gain_matched_difference

RECHECK_S = 1.0  # how often the markers are checked for a bumped camera
#: cells of a zone's thumbnail (vision.live.zone_change) that must change between two frames
#: for the zone to be moving: a tenth of a card, which no still scene's noise reaches
MOVE_CELLS = 8
#: ... and that must differ from the zone's last read for it to be read again: about a corner
#: index (a card slid into a row with no hand seen changes dozens; the zone's mean barely moves)
READ_CELLS = 4
#: a zone where nothing is read, and less than this share of where its committed cards lay
#: still differs from the empty table, has been cleared, whatever lies elsewhere in it (the
#: seat's face-down pile reaching into its far edge, a neighbour's card at its corner)
GONE_SHARE = 0.25
#: with nothing committed in it, a zone where nothing is read is covered when this many cells
#: differ from the empty table (a card's eighth: an unreadable card, a hand, a cup)
COVER_CELLS = 10
COVERED_ALERT_S = 3.0  # a zone covered this long is worth a word to the referee
COVERED_MAX_S = 30.0  # covered this long, it is the new look of the empty zone (a cloth, a lamp moved)
# A still zone is read in LOOKS frames, pooled (vision.live.looks); each look keeps readings from
# LOOK_FLOOR, and a pooled reading counts from POOLED, lower than one look's threshold
# (vision.live.detector.CONFIDENCE) because three looks agreeing are surer than one; three
# looks and these floors read the most plays with the fewest false alerts on rendered games
# (docs/experiments/benchmarks-history.md).
LOOKS = 3
LOOK_FLOOR = 0.1
POOLED = 0.15
FROZEN_S = 5.0  # a live camera's sensor noise makes every frame differ: this long the same is a frozen feed


@dataclass(frozen=True)
class TableSight:
    """What a frame showed of the table as a whole: whether its zones can be read (the
    markers give a calibration) and what the camera noticed (markers lost, the camera
    bumped, or too coarse for its cards)."""

    calibrated: bool
    alerts: tuple[Alert, ...] = ()


@dataclass(frozen=True)
class ZoneLook:
    """A seat's zone in one frame before its tracker hears of it: moving, or still and
    ``covered`` (nothing read, yet not bare), and what the camera noticed there (a zone
    covered too long). ``searchable``: covered on a still look not yet searched for a card
    the reader cannot name; whether its seat may lay now, and which cards the zone cannot
    hold, is for whoever keeps the record to say (``SeatReading.settle``). The frame, the
    zone's thumbnail and its picture are kept for that step."""

    seat: Seat
    moving: bool
    covered: bool
    searchable: bool
    alerts: tuple[Alert, ...]
    frame: Frame = field(repr=False, compare=False)
    thumb: np.ndarray = field(repr=False, compare=False)
    draw: Callable[..., np.ndarray] = field(repr=False, compare=False)


@dataclass(frozen=True)
class ZoneReading:
    """What one frame made of a seat's zone: its tracker's changes (``Settled``: cards lie
    still; ``Cleared``: the trick was turned over) and what the camera noticed in settling
    it (a card the reader cannot name, taken from its marks)."""

    seat: Seat
    changes: tuple[Settled | Cleared, ...]
    alerts: tuple[Alert, ...] = ()


@dataclass(frozen=True)
class FrameReading:
    """A whole frame read with no record kept (``SeatReading.frame``): what the camera
    noticed, and each seat's zone in the order of play (none while it is not calibrated)."""

    alerts: tuple[Alert, ...]
    zones: tuple[ZoneReading, ...]

    def changes(self) -> Iterator[tuple[str, Settled | Cleared]]:
        """Each zone's changes with its seat, in the order of play."""
        for zone in self.zones:
            for change in zone.changes:
                yield zone.seat, change


@dataclass
class SeatZone:
    """One seat's zone as the camera follows it."""

    tracker: ZoneTracker
    previous: np.ndarray | None = None  # the last frame's thumbnail (vision.live.tracker.thumbnail)
    read_image: np.ndarray | None = None  # the zone as last read by the detector
    #: ... and as drawn plain, not sharpened: what the tracker compares from look to look
    plain_image: np.ndarray | None = None
    read_thumb: np.ndarray | None = None
    laid: Laid = field(default_factory=lambda: Laid((), ()))
    detections: list[Detection] = field(default_factory=list)
    looks: list[list[Detection]] = field(default_factory=list)  # this still zone's reads (vision.live.looks)
    bare: np.ndarray | None = None  # the thumbnail of the zone when it last lay empty
    floor: NoiseFloor = field(default_factory=NoiseFloor)  # how much its still cells wander
    #: the cells where the cards read in it lie (differing from ``bare`` when they were read)
    footprint: np.ndarray | None = None
    changed: int = 0  # cells changed since the last frame
    covered_since: float | None = None  # no card read, yet not bare: a hand or an object over it
    covered_told: bool = False  # the referee has been told
    unread_for: np.ndarray | None = None  # the still look last searched for a card the reader cannot name


class SeatReading:
    """The table's four zones over time, read with ``detector``. Zone trackers do not commit
    by themselves: whoever keeps the record commits a zone (``zones[seat].tracker.commit()``)
    when a play is due. A frame is read in steps — ``calibrate``, then for each seat in the
    order of play ``look`` and ``settle`` — or whole, with nobody to decide, by ``frame``."""

    def __init__(self, detector: CardDetector) -> None:
        self.detector = detector
        self.calibration: Calibration | None = None
        #: the camera's blur, measured on the markers at each calibration, and whether zones
        #: are read sharpened (``vision.live.blur``)
        self.sharpening = Sharpening()
        self.zones = {s: SeatZone(ZoneTracker(s, auto_commit=False)) for s in PLAY_ORDER}
        self.inks = DeckInks()  # the deck's inks, learnt from its reads (vision.live.inks)
        self.beside = DeckBeside()  # whether the deck prints pips beside its indices (vision.live.beside)
        self._checked_at = -RECHECK_S
        self._picture: bytes = b""  # a sample of the last frame's pixels, to notice a frozen feed
        self._same_since = 0.0
        self._frozen = False
        self.trace: ZoneTrace | None = None  # where the zones' states are traced (``--trace``)

    def warm_up(self) -> None:
        """Run the detector once on a blank zone: its first run compiles the models (seconds),
        which would otherwise happen on the first frames of the game."""
        width, height = zone_size()
        detect_tiled(self.detector, np.full((height, width, 3), 128, np.uint8), upright=True)
        self.detector.reader.probabilities(np.full((1, PATCH, PATCH, 3), 128, np.uint8))  # no box on grey
        suits = getattr(self.detector, "suits", None)
        if suits is not None:
            suits.probabilities(np.full((1, suits.view.height, suits.view.width, 3), 128, np.uint8))

    def frame(self, frame: Frame) -> FrameReading:
        """Read one whole frame for a caller that keeps no record (the camera check): every
        step, seat by seat, with no covered zone searched for a card the reader cannot name
        (nobody says whose turn it is)."""
        sight = self.calibrate(frame)
        if not sight.calibrated:
            return FrameReading(sight.alerts, ())
        alerts, zones = list(sight.alerts), []
        for seat in PLAY_ORDER:
            look = self.look(frame, seat)
            reading = self.settle(look)
            alerts += [*look.alerts, *reading.alerts]
            zones.append(reading)
        return FrameReading(tuple(alerts), tuple(zones))

    def look(self, frame: Frame, seat: Seat) -> ZoneLook:
        """The seat's zone in ``frame`` (the table calibrated): whether it moves, its cards
        read where it lies still, and whether it is covered."""
        zone = self.zones[seat]
        image = rectify_zone(frame.image, self.calibration, seat)
        thumb = thumbnail(image)
        moving = self._moving(zone, thumb)
        zone.previous = thumb
        draw = self._drawer(frame, seat, image)
        if not moving:
            self._read(seat, zone, draw, thumb, frame)
        alerts: list[Alert] = []
        covered = not moving and self._covered(seat, zone, frame.t, thumb, alerts)
        return ZoneLook(seat, moving, covered, covered and self._searchable(zone), tuple(alerts), frame, thumb, draw)

    def settle(self, look: ZoneLook, ruled_out: list[str] | None = None) -> ZoneReading:
        """The seat's tracker told of ``look``: a zone covered on a still look not yet
        searched (``look.searchable``) may hold a card the reader cannot name — searched
        when ``ruled_out`` says which cards it cannot be (None: its seat may not lay now;
        ``unread``) — and the tracker's changes come back. A cleared zone's look now is its
        empty look."""
        seat, zone, frame = look.seat, self.zones[look.seat], look.frame
        covered, alerts = look.covered, ()
        if covered:
            named = self.unread(seat, look.draw, ruled_out)
            if named is not None:
                covered, alerts = False, (named,)
        if self.trace is not None:
            state = "moving" if look.moving else "covered" if covered else "cards" if zone.laid.cards else "empty"
            self.trace.look(seat, frame.t, frame.number, state, zone.laid.cards, zone.laid.confidence,
                            zone.changed, zone.floor.level,
                            lambda draw=look.draw, zone=zone: draw_detections(draw(), zone.detections))
        changes = tuple(zone.tracker.update(frame.t, zone.laid, look.moving or covered, zone.plain_image))
        for change in changes:
            if isinstance(change, Cleared):  # how it lies empty now, a pile at its edge and all
                zone.bare, zone.footprint = look.thumb, None
        return ZoneReading(seat, changes, alerts)

    def _drawer(self, frame: Frame, seat: str, image: np.ndarray) -> Callable[..., np.ndarray]:
        """The seat's zone as it is read, drawn when first asked for in this frame: ``image``
        (the plain warp every frame gets, for the motion checks), or, from a camera finer than
        the zone, the zone warped finer and shrunk (``rectify_zone``'s ``fine``) — a plain warp
        of a 4K frame aliases, and the reading is worth the few milliseconds it costs, the
        motion checks are not. ``draw(True)``: the same from the frame sharpened against the
        camera's blur (``vision.live.blur``)."""
        drawn: dict[bool, np.ndarray] = {}

        def draw(sharp: bool = False) -> np.ndarray:
            if sharp not in drawn:
                fine = fine_scale(self.calibration.zone_resolution()[seat])
                if sharp:
                    part, calibration = sharpened_zone(frame.image, self.calibration, seat, self.sharpening.blur)
                    drawn[sharp] = rectify_zone(part, calibration, seat, fine=fine)
                else:
                    drawn[sharp] = image if fine is None else rectify_zone(frame.image, self.calibration, seat,
                                                                           fine=fine)
            return drawn[sharp]

        return draw

    def _read(self, seat: str, zone: SeatZone, draw: Callable[..., np.ndarray], thumb: np.ndarray,
              frame: Frame) -> None:
        """Read a still zone (``draw`` gives its picture): once when it has changed, then again
        in the next ``LOOKS`` - 1 frames, the looks pooled (``vision.live.looks``). A blurred
        camera on trial has it read sharpened too, and the better read kept."""
        if changed_cells(zone.read_thumb, thumb, zone.floor.level).sum() >= READ_CELLS:
            zone.looks = []
            zone.read_thumb = thumb
        elif len(zone.looks) >= LOOKS:
            return
        mode = self.sharpening.mode
        image = draw(mode == "on")
        found = detect_tiled(self.detector, image, conf=LOOK_FLOOR, upright=True)
        if mode == "trial":
            sharp = draw(True)
            found_sharp = detect_tiled(self.detector, sharp, conf=LOOK_FLOOR, upright=True)
            if self.sharpening.weigh(found, found_sharp):
                image, found = sharp, found_sharp
            if self.sharpening.mode != "trial" and self.trace is not None:  # the trial has settled
                self.trace.camera(frame.t, frame.number, **self.sharpening.to_json())
        zone.looks.append(own_side(seat, found))
        pooled = pool(zone.looks, POOLED)
        if len(zone.looks) == LOOKS:  # each still zone's cards are learnt from once
            self.inks.learn(pooled, image)
            self.beside.learn(pooled, image)
        zone.detections = self.beside.settle(self.inks.settle(pooled, image), image)
        zone.laid = group_cards(zone.detections)
        zone.read_image, zone.plain_image = image, draw()

    @staticmethod
    def _moving(zone: SeatZone, thumb: np.ndarray) -> bool:
        """Whether the zone moved since the last frame: once the two frames' overall
        brightness is matched (a lamp's flicker, the exposure hunting), its mean changed a
        lot (a hand, an arm), or ``MOVE_CELLS`` of its cells changed beyond its noise floor
        (a card slid in with no hand seen). The frames where it did not teach it its noise
        floor."""
        if zone.previous is None or zone.previous.shape != thumb.shape:
            zone.changed = thumb.size
            return True
        difference = gain_matched_difference(zone.previous, thumb)
        zone.changed = int((difference > zone.floor.level).sum())
        if difference.mean() >= MOTION_LEVEL or zone.changed >= MOVE_CELLS:
            return True
        zone.floor.observe(zone.previous, thumb)
        return False

    def watch_for_freeze(self, frame: Frame) -> Alert | None:
        """A camera or capture card that hangs can keep sending its last picture: the table
        would look still while the game goes on. Say so, and say when it moves again."""
        picture = frame.image[::23, ::23].tobytes()
        if picture != self._picture:
            self._picture, self._same_since = picture, frame.t
            if self._frozen:
                self._frozen = False
                return Alert.of("camera_moves_again")
            return None
        if not self._frozen and frame.t - self._same_since >= FROZEN_S:
            self._frozen = True
            return Alert.of("camera_frozen", seconds=FROZEN_S)
        return None

    def _covered(self, seat: str, zone: SeatZone, t: float, thumb: np.ndarray, alerts: list[Alert]) -> bool:
        """No card read in a still zone that does not look empty either: a hand left over the
        cards, a cup, the trick turned face down where it lay. That is not the trick being
        cleared (which would make the cards count as new when it lifts); the zone waits, and
        where it hides cards committed there the referee hears of it.

        Empty is judged where it matters: with cards committed in the zone, whether the cells
        they lay on (``footprint``) look as they did before the cards came; a pile at the
        zone's edge or a neighbour's card in its corner leaves a cleared zone cleared. Once it
        has lain so long enough for the tracker to call it cleared, how it looks then is its
        empty look (``settle``), not a passing frame of the cards being swept away. What the
        referee should hear of goes into ``alerts``."""
        floor = zone.floor.level
        if zone.laid.cards:
            zone.covered_since = None
            if zone.bare is not None:
                zone.footprint = changed_cells(zone.bare, thumb, floor)
            return False
        if zone.bare is None:
            zone.bare = thumb
            return False
        differs = changed_cells(zone.bare, thumb, floor)
        hides = bool(zone.tracker.on_table)
        if hides and zone.footprint is not None and zone.footprint.any():
            covered = (differs & zone.footprint).sum() > GONE_SHARE * zone.footprint.sum()
        else:
            covered = differs.sum() >= COVER_CELLS
        if not covered:
            zone.covered_since = None
            if not hides:  # empty, nothing committed: its cells that only drifted keep up with the light
                zone.bare = np.where(differs, zone.bare, thumb)
            return False
        if zone.covered_since is None:
            zone.covered_since, zone.covered_told = t, False
        elif t - zone.covered_since >= COVERED_MAX_S:
            zone.bare, zone.covered_since, zone.footprint = thumb, None, None
            alerts.append(Alert.of("zone_new_bare", seat=seat, seconds=COVERED_MAX_S))
            return False
        elif hides and t - zone.covered_since >= COVERED_ALERT_S and not zone.covered_told:
            zone.covered_told = True
            alerts.append(Alert.of("zone_covered", seat=seat, seconds=COVERED_ALERT_S,
                                   cards=" ".join(sorted(zone.tracker.on_table.elements()))))
        return True

    @staticmethod
    def _searchable(zone: SeatZone) -> bool:
        """Whether the zone's still look, read ``LOOKS`` times, is yet to be searched for a
        card the reader cannot name."""
        return len(zone.looks) >= LOOKS and zone.unread_for is not zone.read_thumb

    def unread(self, seat: str, draw: Callable[..., np.ndarray], ruled_out: list[str] | None) -> Alert | None:
        """A covered zone — still, not bare, its looks read nothing — when its seat may lay
        now (``ruled_out`` not None): is it a card the reader cannot name
        (``vision.live.unread``)? If the zone's marks say which card (not one of
        ``ruled_out``: the hand has shown both copies), it is taken as laid there, for the
        tracker to commit as any play, and the referee is to be asked to check it (the alert
        returned). Each still look of the zone is searched once, its seat's turn or not: a
        hand resting there, then lifting off a card, is two."""
        zone = self.zones[seat]
        if not self._searchable(zone):
            return None
        zone.unread_for = zone.read_thumb
        if ruled_out is None:
            return None
        # what its seat laid there before lies under it still, unread (tigullio's 小王 over E's
        # C7, whose index read 0.08): never named (a card the reader named once is no unreadable
        # one), and counted, so that the card named is one beyond them
        under = tuple(zone.tracker.on_table.elements())
        picture = draw(True) if self.sharpening.mode == "on" else draw()
        card = unread_card(self.detector, picture, seat, [*ruled_out, *under])
        if card is None:
            return None
        zone.detections = [card]
        named = group_cards(zone.detections)
        zone.laid = Laid(under + named.cards, (1.0,) * len(under) + named.confidences, named.stray,
                         ((),) * len(under) + named.others)
        zone.covered_since = None
        return Alert.of("unread_card", seat=seat, card=card.card, confidence=card.conf)

    def evidence(self, seat: str, image: np.ndarray) -> np.ndarray:
        """A frame as evidence of ``seat``'s play: the seat's zone as last read, its readings
        drawn, in the frame's top-left corner."""
        zone = self.zones[seat]
        picture = image.copy()
        if zone.read_image is not None:
            read = draw_detections(zone.read_image, zone.detections)
            h = min(read.shape[0], picture.shape[0])
            w = min(read.shape[1], picture.shape[1])
            picture[:h, :w] = read[:h, :w]
        return picture

    def calibrate(self, frame: Frame) -> TableSight:
        """The table's calibration for ``frame``: found from the markers on the first frames,
        checked again every ``RECHECK_S`` for a bumped camera, kept while the markers are
        hidden for a moment. After a bump every zone is read afresh, but keeps its empty look
        and its cards' footprint: the zones are cut from the table by its markers, so the
        table under them looks as it did. Taking the first frame after the bump with no card
        read as the empty look instead would take a hand over committed cards for a cleared
        zone, and the cards for new ones when it lifts."""
        due = frame.t - self._checked_at >= RECHECK_S
        if self.calibration is not None and not due:
            return TableSight(True)
        self._checked_at = frame.t
        if self.calibration is not None and not self.calibration.moved(frame.image):
            return TableSight(True)
        try:
            fresh = Calibration.from_image(frame.image)
        except CalibrationError as exc:
            if self.calibration is None:
                return TableSight(False, (Alert.of(exc.code, **exc.values),))
            return TableSight(True)  # markers hidden for now: keep the last calibration
        alerts = []
        if self.calibration is not None:
            alerts.append(Alert.of("camera_moved"))
            for zone in self.zones.values():
                zone.previous = zone.read_image = zone.read_thumb = None
        self.calibration = fresh
        self.sharpening = Sharpening(measure(frame.image, fresh), frame.image.shape[0])
        if self.trace is not None:
            self.trace.camera(frame.t, frame.number, **self.sharpening.to_json())
        coarse = self._coarse()
        return TableSight(True, tuple(alerts) + ((coarse,) if coarse is not None else ()))

    def _coarse(self) -> Alert | None:
        """A camera too far away or too coarse for its cards to be read: said once per
        calibration, not on every misread play (``vision.live.calibration.MIN_PX_PER_CM``)."""
        resolution = self.calibration.zone_resolution()
        seat = min(resolution, key=resolution.get)
        if resolution[seat] < MIN_PX_PER_CM:
            return Alert.of("zone_coarse", seat=seat, px=resolution[seat], least=MIN_PX_PER_CM,
                            good=GOOD_PX_PER_CM)
        return None
