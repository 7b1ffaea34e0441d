"""Where a zone changed, measured against its own noise (vision.live.zone_change), and the
live loop's zone states that rest on it (vision.live.seat_reading): cards that move with no
hand seen, and a trick cleared onto a pile that reaches into the zone under a light that
changed meanwhile."""

from pathlib import Path

import cv2
import numpy as np

from vision.live.calibration import Calibration
from vision.live.camera import Frame
from vision.live.seat_reading import SeatReading
from vision.live.tracker import Cleared, Settled
from vision.live.zone_change import LEAST_FLOOR, NoiseFloor, changed_cells

DATA = Path(__file__).parent / "data"


def test_a_change_is_found_cell_by_cell_and_a_brighter_picture_is_no_change():
    rng = np.random.default_rng(3)
    cloth = rng.normal(90, 2, (32, 64)).astype(np.int16)
    brighter = (cloth * 1.15).astype(np.int16)  # the camera's exposure went up
    assert not changed_cells(cloth, brighter, LEAST_FLOOR).any()
    card = cloth.copy()
    card[10:20, 30:33] = 230  # a strip of a card slid in: a mean of 4 over the zone
    assert abs(card - cloth).mean() < 4 and changed_cells(cloth, card, LEAST_FLOOR).sum() == 30
    assert changed_cells(None, card, LEAST_FLOOR).all()


def test_flicker_bands_rolling_over_a_zone_are_no_change_and_a_card_under_them_is():
    """Mains flicker through a rolling shutter lights a zone in bands, one end brighter than
    the other and swapping from frame to frame (the corruption suite's flicker at ±4 %: 5 of
    12 plays read, the zones never still). At 1080p a band is about 650 image rows, 80–90 of
    a zone's cells along the axis that crosses the image rows, and from one frame to the next
    it rolls a third of a period on. One gain for the whole zone left a band's cells changed."""
    rng = np.random.default_rng(5)
    rows, cols = np.mgrid[0:32, 0:64]
    scene = np.where((rows > 8) & (rows < 24) & (cols > 20) & (cols < 44), 215.0, 70.0)  # a row of cards
    scene += rng.normal(0, 1.0, scene.shape)
    for along in (rows, cols):  # a North or South zone, an East or West one
        band = 2 * np.pi * along / 85.0
        before = (scene * (1 + 0.04 * np.sin(band))).astype(np.int16)
        after = (scene * (1 + 0.04 * np.sin(band + 2.1))).astype(np.int16)
        assert not changed_cells(before, after, LEAST_FLOOR).any()
        laid = after.copy()
        laid[2:6, 50:53] = 230  # a corner of a card slid in beside the row, in the same light
        assert changed_cells(before, laid, LEAST_FLOOR).sum() == 12


def test_a_codecs_noisy_cloth_does_not_set_the_light_for_the_cards():
    """The loop's own thumbnails of South's zone (render game 120 under the suite's flicker at
    ±4 %, through a second MPEG-4 generation), three pairs of consecutive frames: the cloth's
    cells, dark and noisy from the codec, say little of the light, the cards' white cells
    much. Weighed alike, the cloth set the field and 8–12 of the cards' cells lay 6–9 levels
    off it: the zone moved every third frame, never lay still long enough, and South's 大王
    laid there was never recorded. A card's corner slid in meanwhile is still a change."""
    from vision.live.seat_reading import MOVE_CELLS

    strip = cv2.imread(str(DATA / "flicker-south-thumbs.png"), cv2.IMREAD_GRAYSCALE).astype(np.int16)
    thumbs = strip.reshape(6, 32, 64)
    for before, after in zip(thumbs[0::2], thumbs[1::2], strict=True):
        assert changed_cells(before, after, LEAST_FLOOR).sum() < MOVE_CELLS // 2
        laid = after.copy()
        laid[2:6, 2:5] = 235  # on the cloth at the zone's corner
        assert changed_cells(before, laid, LEAST_FLOOR)[2:6, 2:5].all()


def test_a_white_card_at_the_sensors_top_under_a_brighter_light_is_no_change():
    """Seen in the corruption suite's flicker at ±8 %: cards at 244 in one frame, the light
    6 % brighter in the next, read 251 (the top, after the codec): 6–7 levels short of what
    the light alone predicts, and a zone that never lay still."""
    rows, cols = np.mgrid[0:32, 0:64]
    card = (rows > 8) & (rows < 24) & (cols > 20) & (cols < 44)
    before = np.where(card, 244, 70).astype(np.int16)
    after = np.where(card, 251, 74).astype(np.int16)  # the cloth 6 % brighter, the card clipped
    assert not changed_cells(before, after, LEAST_FLOOR).any()
    dimmer = np.where(card, 236, 66).astype(np.int16)  # ... and back: the card was brighter than it showed
    assert not changed_cells(after, dimmer, LEAST_FLOOR).any()
    gone = np.where(card, 74, 74).astype(np.int16)  # the cards taken away: changed however bright they were
    assert changed_cells(after, gone, LEAST_FLOOR).sum() == card.sum()
    laid = after.copy()
    laid[2:6, 50:53] = 251  # a card slid in onto the cloth
    assert changed_cells(before, laid, LEAST_FLOOR).sum() == 12


def test_the_noise_floor_is_learnt_from_the_zones_own_still_frames():
    rng = np.random.default_rng(4)
    scene = rng.uniform(60, 200, (32, 64))
    clean, noisy = NoiseFloor(), NoiseFloor()
    for floor, sigma in ((clean, 0.3), (noisy, 4.0)):
        previous = None
        for _ in range(60):
            frame = (scene + rng.normal(0, sigma, scene.shape)).astype(np.int16)
            floor.observe(previous, frame)
            previous = frame
    assert clean.level == LEAST_FLOOR  # a clean camera: the least a cell must change
    assert noisy.level > 2 * LEAST_FLOOR  # a noisy one: well above its wander
    a = (scene + rng.normal(0, 4.0, scene.shape)).astype(np.int16)
    b = (scene + rng.normal(0, 4.0, scene.shape)).astype(np.int16)
    assert changed_cells(a, b, noisy.level).sum() == 0  # its noise alone is no change


class Table:
    """A rendered table shown to a ``SeatReading`` ten frames a second; South's settled
    plays are committed as they come (no clock)."""

    def __init__(self, detector, seed: int = 5) -> None:
        from vision.synth.render_game import Renderer

        self.renderer = Renderer(seed, (1920, 1080))
        self.seats = SeatReading(detector)
        self.t, self.n = 0.0, 0

    def show(self, state, seconds: float, exposure: float = 1.0, mark=None) -> list:
        view = self.renderer.view(self.renderer.table(state)) * exposure
        image = self.renderer.camera(view)
        if mark is not None:  # something drawn on the table in table cm: (x1, y1, x2, y2), colour
            (x1, y1, x2, y2), colour = mark
            corners = Calibration.from_image(image).to_image(np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]))
            cv2.fillConvexPoly(image, corners.round().astype(np.int32), colour)
        changes = []
        for _ in range(int(seconds * 10)):
            for seat, change in self.seats.frame(Frame(image, self.t, self.n)).changes():
                if seat == "S":
                    changes.append(change)
                    if isinstance(change, Settled) and change.new:
                        self.seats.zones["S"].tracker.commit()
            self.t, self.n = self.t + 0.1, self.n + 1
        return changes


def south(row, pile: int = 0):
    from vision.synth.render_game import TableState

    state = TableState()
    state.rows["S"], state.piles["S"] = list(row), pile
    return state


def test_a_card_added_to_a_row_with_no_hand_seen_is_a_play(detector):
    """One more card appears at the end of South's row between two frames, no hand over it
    (a fast hand the camera missed): the zone's mean changes by under 3 grey levels, dozens
    of its cells a lot. It is read, and it is a play."""
    table = Table(detector)
    table.show(south([]), 1.0)
    assert [c.new for c in table.show(south(["H9"]), 1.5) if isinstance(c, Settled)] == [("H9",)]
    assert [c.new for c in table.show(south(["H9", "S5"]), 1.5) if isinstance(c, Settled)] == [("S5",)]


def test_a_trick_cleared_onto_a_pile_reaching_into_the_zone_under_a_changed_light_is_cleared(detector, monkeypatch):
    """South's single is turned face down onto its pile, which reaches into the zone's far
    edge (laid 33 cm out), and the camera's exposure rises as it is: the zone no longer looks
    as it did empty, but where the card lay it does. That is the trick cleared — not a
    covered zone, which would hold the card as committed, and South's next single (as many
    cards as were committed) would be no play."""
    import vision.synth.render_game as render_game

    monkeypatch.setattr(render_game, "PILE_CM", 33.0)
    table = Table(detector)
    table.show(south([]), 1.0)
    assert [c.new for c in table.show(south(["S5"]), 1.5) if isinstance(c, Settled)] == [("S5",)]
    assert any(isinstance(c, Cleared) for c in table.show(south([], pile=1), 1.5, exposure=1.1))
    assert [c.new for c in table.show(south(["HK"], pile=1), 1.5, exposure=1.1)
            if isinstance(c, Settled)] == [("HK",)]


def test_a_passing_frame_of_the_sweep_is_not_taken_for_the_empty_table(detector):
    """South's card is turned over and taken away: for a moment no card is read and the
    cells it lay on look empty, but the card, edge on, still stands beside them as a dark
    strip. That moment is not how the zone lies empty — taken for it, the cloth where the
    strip stood differed from the 'empty' look once it went, the zone was held covered over
    the committed card, and South's next single was no play."""
    table = Table(detector)
    table.show(south([]), 1.0)
    assert [c.new for c in table.show(south(["S5"]), 1.5) if isinstance(c, Settled)] == [("S5",)]
    edge_on = ((4.0, -30.0, 5.2, -16.0), (40, 40, 40))  # the card's edge, beside where it lay
    table.show(south([]), 0.2, mark=edge_on)
    assert any(isinstance(c, Cleared) for c in table.show(south([]), 1.5))
    assert [c.new for c in table.show(south(["HK"]), 1.5) if isinstance(c, Settled)] == [("HK",)]


def test_a_flickering_lamp_is_no_motion_and_a_passing_shadow_is_not_the_empty_look():
    """A lamp flickering 8 % from frame to frame lights every cell of a still zone alike:
    not motion (else no play ever lay still to be read). A shadow over part of an empty zone
    is not taken into its empty look: only cells that changed within the noise follow the
    light (else the cloth, lit again, differed from that look where cards later lay, and the
    trick cleared from there looked covered)."""
    from vision.live.seat_reading import SeatZone
    from vision.live.tracker import ZoneTracker

    rng = np.random.default_rng(9)
    cloth = rng.normal(90, 2, (32, 64)).clip(0, 255).astype(np.int16)
    zone = SeatZone(ZoneTracker("S"), previous=cloth)
    assert not SeatReading._moving(zone, (cloth * 1.08).astype(np.int16))
    seats = SeatReading(detector=None)
    zone = seats.zones["S"]
    zone.bare = cloth
    shaded = cloth.copy()
    shaded[0:3, 0:3] = cloth[0:3, 0:3] // 2  # a soft shadow's corner over nine cells, fewer than covers it
    drifted = (shaded + 1).astype(np.int16)
    assert not seats._covered("S", zone, 1.0, drifted, [])
    assert (zone.bare[0:3, 0:3] == cloth[0:3, 0:3]).all() and (zone.bare[5:, 5:] == drifted[5:, 5:]).all()
