"""The table runtime on rendered frames with the committed detector: what it does when the
camera misbehaves, and how its frame loop reads the zones. (How well it reads cards depends
on the detector: models/README.md.) The record it keeps: test_table_runtime_record.py; how it
judges what it reads: test_table_runtime_readings.py."""

import numpy as np
import pytest

from engine.events import PlayCards
from rulebook import profiles
from rulebook.alerts import Alert
from table.runtime import TableRuntime
from tests.vision.table_rig import frames_of, runtime, said
from vision.live.calibration import zone_size
from vision.live.camera import Frame
from vision.live.detector import CardDetector
from vision.synth.table_canvas import camera_homography, camera_view, table_canvas


def test_black_and_noise_frames_are_reported_and_survived(detector):
    alerts: list[Alert] = []
    rt = runtime(detector, alerts)
    black = Frame(np.zeros((720, 1280, 3), np.uint8), 0.0, 0)
    noise = Frame(np.random.default_rng(1).integers(0, 255, (720, 1280, 3), dtype=np.uint8), 0.1, 1)
    assert rt.process(black) == [] and rt.process(noise) == []
    assert any("found 0 of the 4 table markers" in a for a in said(alerts))
    assert any("只找到0个桌面标记" in a for a in said(alerts, "zh"))
    for frame in frames_of(table_canvas(8.0), 3.0, 1.2, 3, first=2):
        rt.process(frame)
    assert rt.seats.calibration is not None and rt.seats.calibration.markers == (0, 1, 2, 3)


def test_a_bumped_camera_is_recalibrated_and_hidden_markers_keep_the_last_calibration(detector):
    alerts: list[Alert] = []
    rt = runtime(detector, alerts)
    canvas = table_canvas(8.0)
    for frame in frames_of(canvas, 2.0, 0.0, 5):
        rt.process(frame)
    first = rt.seats.calibration.homography.copy()
    for frame in frames_of(canvas, 9.0, 2.0, 5, first=5):  # knocked: turned 7 degrees
        rt.process(frame)
    assert "camera moved: recalibrated" in said(alerts) and "摄像头位置变了：已重新标定" in said(alerts, "zh")
    assert not np.allclose(first, rt.seats.calibration.homography)
    covered = Frame(np.zeros((720, 1280, 3), np.uint8), 4.0, 20)  # a hand over the lens
    rt.process(covered)
    assert rt.seats.calibration is not None  # the last good calibration stands


def test_an_empty_table_commits_nothing_and_zones_are_read_upright(detector):
    alerts: list[Alert] = []
    recorded = []
    rt = runtime(detector, alerts, recorded)
    for frame in frames_of(table_canvas(8.0), 0.0, 0.0, 20):
        rt.process(frame)
    assert [e.type for e in recorded] == ["header"]
    assert not any(isinstance(e, PlayCards) for e in rt.events)
    assert all(z.read_image is not None and z.read_image.shape[1::-1] == zone_size() for z in rt.seats.zones.values())


class CountingDetector:
    """The committed detector, counting the looks (whole zones or tiles) it is asked to find indices in."""

    def __init__(self, inner: CardDetector) -> None:
        self.inner, self.conf, self.reader, self.suits, self.calls = inner, inner.conf, inner.reader, inner.suits, 0
        self.doubt, self.own_deck = inner.doubt, inner.own_deck

    @property
    def looks_whole(self):
        return self.inner.looks_whole

    def find(self, image, floor, quarters=None, whole=False):
        self.calls += 1
        return self.inner.find(image, floor, quarters, whole=whole)

    def read(self, image, found, floor, upright=False):
        return self.inner.read(image, found, floor, upright=upright)

    def detect(self, image, conf=None, upright=False, quarters=None):
        self.calls += 1
        return self.inner.detect(image, conf, upright=upright, quarters=quarters)


def test_a_still_zone_is_read_in_a_few_frames_pooled_then_left_until_it_changes(detector):
    from vision.live.looks import pool
    from vision.live.seat_reading import LOOKS, POOLED
    from vision.synth.render_game import Renderer, TableState

    counting = CountingDetector(detector)
    rt = TableRuntime(counting, profiles.load("jiangsu"))
    renderer = Renderer(5, (1280, 720))
    clock = {"t": 0.0, "n": 0}

    def show(state: TableState, frames: int) -> list[int]:
        image = renderer.camera(renderer.view(renderer.table(state)))
        calls = []
        for _ in range(frames):
            rt.process(Frame(image, clock["t"], clock["n"]))
            clock["t"] += 0.1
            clock["n"] += 1
            calls.append(counting.calls)
        return calls

    one_row = TableState(rows={"S": ["S5", "H9"], "E": [], "W": [], "N": []})
    calls = show(one_row, 10)  # the first frame calibrates: every zone is new, so moving
    per_look = calls[1]  # the four zones' tiles, read once
    assert per_look > 0 and per_look % 4 == 0
    assert calls[1:] == [per_look * min(n, LOOKS) for n in range(1, 10)]
    tiles = per_look // 4
    south = rt.seats.zones["S"]
    assert len(south.looks) == LOOKS and south.detections == pool(south.looks, POOLED)
    longer = TableState(rows={"S": ["S5", "H9", "CK"], "E": [], "W": [], "N": []})
    before = counting.calls
    calls = show(longer, 10)  # South's zone changes, and only it is read again
    assert calls[-1] - before == tiles * LOOKS and len(south.looks) == LOOKS


def test_a_hand_left_over_a_zone_and_a_card_knocked_askew_are_not_new_plays(detector):
    """A hand resting over a played row hides every card: that is not the trick being
    cleared (its cards would come back as a second play when the hand lifts). A card knocked
    askew afterwards is the same card. Clearing the zone still ends the trick."""
    from vision.synth.render_game import Renderer, TableState

    renderer = Renderer(5, (1920, 1080))
    alerts: list[Alert] = []
    rt = TableRuntime(detector, profiles.load("jiangsu"), alert=alerts.append)
    clock = {"t": 0.0, "n": 0}

    def show(state: TableState, seconds: float) -> list:
        image = renderer.camera(renderer.view(renderer.table(state)))
        made = []
        for _ in range(int(seconds * 10)):  # 10 frames a second is plenty for a still scene
            made += rt.process(Frame(image, clock["t"], clock["n"]))
            clock["t"] += 0.1
            clock["n"] += 1
        return made

    row = ["S5", "H9", "CK"]
    assert show(TableState(), 1.0) == []
    laid = show(TableState(rows={"S": row, "E": [], "W": [], "N": []}), 1.5)
    assert [e.type for e in laid] == ["deal", "play"] and len(laid[1].cards) == 3
    covered = TableState(rows={"S": row, "E": [], "W": [], "N": []}, hand=("S", 1.0))
    told = show(covered, 4.0)  # no play: a note for the referee's queue, nothing else
    assert [(e.type, e.code, e.seat) for e in told] == [("camera_note", "zone_covered", "S")]
    assert any("seat S: something lies over the play zone" in a for a in said(alerts))
    assert any(a.endswith("held as covered for 3 s, over the recorded CK H9 S5") for a in said(alerts))
    assert any(a.startswith("南家：出牌区上有东西，既不是空桌面，也认不出牌") for a in said(alerts, "zh"))
    knocked = TableState(rows={"S": row, "E": [], "W": [], "N": []}, knocked={"S": (1, 0.9, 0.6)})
    assert show(knocked, 2.0) == []
    assert rt.seats.zones["S"].tracker.on_table  # the played cards still count as lying there
    show(TableState(), 1.0)  # turned face down and taken away: the trick is over in that zone
    assert not rt.seats.zones["S"].tracker.on_table


def test_a_single_court_card_taken_away_unseen_by_the_motion_check_still_empties_the_zone(detector):
    """A court card whose art leaves it about as grey as the cloth changes the zone's
    thumbnail's mean by little when the trick is cleared without a hand over it, but the
    cells it lay on a lot: it is read again and the card is gone (else the seat's next
    single card, no more cards than were committed, was no play at all: four singles missed
    in one hand of a real design)."""
    from vision.live.calibration import rectify_zone
    from vision.live.seat_reading import READ_CELLS
    from vision.live.tracker import motion, thumbnail
    from vision.live.zone_change import LEAST_FLOOR, changed_cells
    from vision.synth.art_decks import by_name, entries, installed
    from vision.synth.render_game import Renderer, TableState

    if not all(installed(e) for e in entries("heldout") if e.name == "paris"):
        pytest.skip("gnome-cards-data is not installed (scripts/system-packages.sh installs it)")
    renderer = Renderer(5, (1920, 1080), art=by_name("paris"))
    rt = TableRuntime(detector, profiles.load("jiangsu"))
    clock = {"t": 0.0, "n": 0}

    def picture(state: TableState) -> np.ndarray:
        return renderer.camera(renderer.view(renderer.table(state)))

    def show(state: TableState, seconds: float) -> list:
        image, made = picture(state), []
        for _ in range(int(seconds * 10)):
            made += rt.process(Frame(image, clock["t"], clock["n"]))
            clock["t"] += 0.1
            clock["n"] += 1
        return made

    queen = {"S": ["DQ"], "E": [], "W": [], "N": []}
    show(TableState(), 1.0)
    laid = show(TableState(rows=queen, hand=("S", 1.0)), 0.5) + show(TableState(rows=queen), 1.5)
    assert [(e.type, getattr(e, "cards", None)) for e in laid] == [("deal", None), ("play", ("DQ",))]
    calibration = rt.seats.calibration
    with_card, without = (thumbnail(rectify_zone(picture(s), calibration, "S")) for s in (TableState(rows=queen),
                                                                                         TableState()))
    assert motion(with_card, without) < 3  # the zone's mean alone would hardly say it changed
    assert changed_cells(with_card, without, LEAST_FLOOR).sum() >= 10 * READ_CELLS
    show(TableState(), 1.0)  # the trick turned face down, no hand seen doing it
    assert rt.seats.zones["S"].laid.cards == () and not rt.seats.zones["S"].tracker.on_table


def test_a_frozen_feed_is_told_and_so_is_its_recovery(detector):
    alerts: list[Alert] = []
    rt = runtime(detector, alerts)
    still = frames_of(table_canvas(8.0), 0.0, 0.0, 1)[0].image
    for n in range(70):  # 7 s of one picture, to the pixel
        rt.process(Frame(still, n / 10, n))
    assert sum("feed looks frozen" in a for a in said(alerts)) == 1
    moved = still.copy()
    moved[0, 0] ^= 1  # a live sensor never repeats a frame exactly
    rt.process(Frame(moved, 7.0, 70))
    assert said(alerts)[-1] == "camera: the picture moves again" and said(alerts, "zh")[-1] == "摄像头：画面恢复变化"


def test_a_camera_too_coarse_to_read_the_cards_is_told_once(detector):
    canvas = table_canvas(8.0)
    size = (960, 540)  # the whole table in 540 rows: about 5 px/cm
    image = camera_view(canvas, camera_homography(canvas.shape[0], size, tilt=0.1, turn_deg=2.0), size)
    alerts: list[Alert] = []
    rt = runtime(detector, alerts)
    for i in range(40):
        rt.process(Frame(image, i / 30, i))
    coarse = [a for a in said(alerts) if "too coarse to read most cards" in a]
    assert len(coarse) == 1 and "use 1080p" in coarse[0]
    assert [a for a in said(alerts, "zh") if "大多数牌认不出" in a][0].startswith("摄像头：")
    fine: list[Alert] = []
    rt = runtime(detector, fine)
    for frame in frames_of(canvas, 2.0, 0.0, 40):  # 720p: coarse for the reader, but not that coarse
        rt.process(frame)
    assert rt.seats.calibration is not None and not any(a.code == "zone_coarse" for a in fine)


def test_the_table_learns_a_four_colour_decks_inks_from_what_it_reads(detector):
    """The runtime feeds every still zone's reading to the deck's inks (vision.live.inks): on a
    four-colour deck (green clubs) it learns the two black-suit inks, and the cards it
    reads are the cards laid."""
    from tests.vision.test_inks import ROWS, deck_seed
    from vision.live.inks import black_split
    from vision.synth.render_game import Renderer, TableState

    renderer = Renderer(deck_seed(True, 100), (1920, 1080))
    rt = TableRuntime(detector, profiles.load("jiangsu"))
    empty, laid = (renderer.view(renderer.table(state)) for state in (TableState(), TableState(rows={**ROWS, "W": []})))
    assert rt.seats.inks.splits[black_split] is None
    for n, view in enumerate([empty] * 5 + [laid] * 10):
        rt.process(Frame(renderer.camera(view), n / 10, n))
    assert rt.seats.inks.splits[black_split] is not None
    for seat in ROWS:
        assert rt.seats.zones[seat].laid.cards == tuple(ROWS[seat])


def test_a_card_the_reader_cannot_name_is_taken_from_its_marks_and_the_cards_not_yet_out(detector):
    """A still zone whose looks read nothing, yet is not bare, is covered; on its seat's turn
    the runtime asks ``vision.live.unread`` whether its marks name a card the hand has not seen
    twice, lays that card there for the tracker to commit as any play, and asks the referee to
    check it. Not on the seat's turn, or with no such card left to be, it is left.

    The scene: game 115's 小王 seen by a 720p camera, which no single look names
    (``tests/vision/test_unread.py``). The runtime's pooled looks, from a lower floor, do
    read it, so the zone is handed over as the frame loop hands a covered one over: its three
    still looks, which read nothing."""
    from engine.events import Deal, Header, Pass
    from vision.live.calibration import Calibration, rectify_zone
    from vision.live.seat_reading import LOOKS
    from vision.live.tracker import Settled, thumbnail
    from vision.synth.render_game import Renderer, TableState

    profile = profiles.load("jiangsu")

    def record_until(plays: list[tuple[str, tuple[str, ...]]]) -> list:
        events = [Header(seq=0, t=0.0, profile="jiangsu", table="115"), Deal(seq=1, t=0.0, leader="N")]
        for seat, cards in plays:
            seq = len(events)
            events.append(PlayCards(seq=seq, t=seq, seat=seat, cards=cards) if cards
                          else Pass(seq=seq, t=seq, seat=seat))
        return events

    both_out = [("N", ("HR",)), ("W", ()), ("S", ()), ("E", ()), ("N", ("S3",)), ("W", ("HR",)),
                ("S", ()), ("E", ()), ("N", ()), ("W", ("D4",))]  # South's turn, on West's 4
    renderer = Renderer(115, (1280, 720))
    image = renderer.camera(renderer.view(renderer.table(TableState(rows={"S": ["SB"], "E": [], "W": [], "N": []}))))
    drawn = rectify_zone(image, Calibration.from_image(image), "S")

    def covered(stored: list, under: tuple[str, ...] = ()) -> tuple[TableRuntime, list[Alert], Alert | None, int]:
        """South's zone covered, as the frame loop finds it (``under``: cards South laid there
        before, committed): whether the runtime named a card, and how many events the record
        held before."""
        alerts: list[Alert] = []
        rt = TableRuntime(detector, profile, alert=alerts.append, resume=stored)
        before = len(rt.events)
        zone = rt.seats.zones["S"]
        zone.tracker.count_as_laid(under)
        zone.looks, zone.read_thumb = [[] for _ in range(LOOKS)], thumbnail(drawn)
        named = rt.seats.unread("S", lambda: drawn, rt._ruled_out("S"))
        if named is not None:  # told as the frame loop tells it: a camera note for the referee too
            rt.alert(named)
        assert not rt.seats.unread("S", lambda: drawn, rt._ruled_out("S"))  # each still look is searched once
        return rt, alerts, named, before

    rt, alerts, named, before = covered(record_until(both_out))
    assert named and rt.seats.zones["S"].laid.cards == ("SB",)
    for n in range(40):  # the frame loop goes on: the laid card settles and is committed
        for change in rt.seats.zones["S"].tracker.update(100.0 + n / 10, rt.seats.zones["S"].laid, False):
            if isinstance(change, Settled) and change.new:
                rt._commit("S")
    made = rt.events[before:]
    assert [(e.seat, e.cards) for e in made if isinstance(e, PlayCards)] == [("S", ("SB",))]
    assert [(e.code, e.seat) for e in made if e.type == "camera_note"] == [("unread_card", "S")]
    assert any("南家：出牌区有一张认不出的牌" in a and "小王" in a for a in said(alerts, "zh"))
    assert any("seat S: a card lies in the play zone that the camera cannot read" in a and "small joker" in a
               for a in said(alerts))
    # laid over a card South laid before in the trick, which it hides: that card still
    # lies under it, and the 小王 is the play
    rt, _, named, _ = covered(record_until(both_out), under=("D9",))
    assert named and rt.seats.zones["S"].laid.cards == ("D9", "SB")
    changes = [c for n in range(10) for c in rt.seats.zones["S"].tracker.update(100.0 + n / 10,
                                                                                rt.seats.zones["S"].laid, False)]
    assert [c.new for c in changes if isinstance(c, Settled)] == [("SB",)]
    # both 小王 out as well: no card the marks could be is left, and nothing is laid
    rt, _, named, _ = covered(record_until(both_out[:9] + [("W", ("SB",)), ("S", ()), ("E", ()), ("N", ()),
                                                        ("W", ("SB",))]))
    assert not named and rt.seats.zones["S"].laid.cards == ()
    # not South's turn (East's, after West's lead and South's pass): left for the referee
    rt, _, named, _ = covered(record_until(both_out + [("S", ())]))
    assert not named and rt.seats.zones["S"].laid.cards == ()


def test_a_4k_cameras_zones_are_read_drawn_finer_and_shrunk_not_aliased(detector):
    """A camera that sees the zones finer than they are drawn (4K: about 19 px/cm) has each
    still zone warped twice as fine and shrunk by area before it is read; warped straight to
    10 px/cm this deck's rows of spades and clubs read more cards wrong. The committed reader
    reads this generated deck's ace of clubs as the ace of spades: one card of the rows may
    be wrong, no more."""
    from tests.vision.test_inks import ROWS
    from vision.live.calibration import fine_scale, rectify_zone
    from vision.synth.render_game import Renderer, TableState

    renderer = Renderer(107, (3840, 2160))
    rt = TableRuntime(detector, profiles.load("jiangsu"))
    laid = renderer.camera(renderer.view(renderer.table(TableState(rows={**ROWS, "W": []}))))
    for n in range(6):
        rt.process(Frame(laid, n / 10, n))
    resolution = rt.seats.calibration.zone_resolution()
    wrong = 0
    for seat in ROWS:
        fine = fine_scale(resolution[seat])
        assert fine is not None and fine >= 1.75
        read = rt.seats.zones[seat].laid.cards
        assert len(read) == len(ROWS[seat])
        wrong += sum(a != b for a, b in zip(read, ROWS[seat], strict=True))
        zone = rt.seats.zones[seat]
        assert np.array_equal(zone.read_image, rectify_zone(laid, rt.seats.calibration, seat, fine=fine))
    assert wrong <= 1


def test_a_node_too_slow_for_its_camera_tells_the_operator_not_the_record(detector):
    """Every sixth frame of a 30 fps camera taken (five read a second, the rest dropped):
    the operator hears it once a whole window shows it, in both languages; the referee's
    record gets nothing (it is the node's state, not the game's)."""
    alerts: list[Alert] = []
    recorded: list = []
    rt = runtime(detector, alerts, recorded)
    picture = np.zeros((72, 128, 3), np.uint8)  # no table in view: nothing read, only watched
    for n in range(0, 30 * 15, 6):
        rt.process(Frame(picture, n / 30, n))
    behind = [a for a in alerts if a.code == "camera_behind"]
    assert len(behind) == 1
    assert "read 5 frames a second of the camera's 30" in behind[0].text("en")
    assert behind[0].text("zh").startswith("本机跟不上摄像头：最近10秒每秒只读了5帧（摄像头每秒30帧")
    assert not [e for e in recorded if e.type == "camera_note"]


def test_a_bumped_camera_keeps_each_zones_empty_look(detector):
    """After a bump a hand still over committed cards is a hand, not the zone's empty look:
    taken for it, the zone would read as cleared and the cards as new when the hand lifts."""
    import cv2

    from vision.live.calibration import Calibration, zone_point_to_table
    from vision.live.grouping import Laid

    alerts: list[Alert] = []
    rt = runtime(detector, alerts)
    canvas = table_canvas(8.0)
    for frame in frames_of(canvas, 2.0, 0.0, 8):
        rt.process(frame)
    east = rt.seats.zones["E"].tracker
    for t in (0.3, 0.7):  # a play settled there and committed
        east.update(t, Laid(("H6",), (0.9,)))
    assert east.commit() == ("H6",)
    knocked = frames_of(canvas, 9.0, 1.0, 20, first=8)
    moved = Calibration.from_image(knocked[0].image)
    w, h = zone_size()
    corners = zone_point_to_table("E", np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    hand = moved.to_image(corners).astype(np.int32)
    for frame in knocked:  # the bump comes with a hand resting over East's zone
        cv2.fillPoly(frame.image, [hand], (120, 160, 210))
        rt.process(frame)
    assert "camera moved: recalibrated" in said(alerts)
    assert east.on_table == {"H6": 1}
