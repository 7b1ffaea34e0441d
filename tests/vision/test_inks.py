"""The deck's inks (vision.live.inks): measured on drawn and rendered indices, learnt per table."""

import cv2
import numpy as np
import pytest

from engine.cards import suit_of
from vision.live.calibration import Calibration, rectify_zone
from vision.live.detector import CardDetector, committed_finder, detect_tiled
from vision.live.grouping import own_side
from vision.live.inks import DeckInks, Split, black_split, hue, hue_apart, ink, red_split, two_inks
from vision.synth.render_game import Renderer, TableState
from vision.synth.style import styles

PAPER = (236, 240, 244)  # BGR, a cool white


def index(ink_bgr, light=(1.0, 1.0, 1.0), thick=2, blur=0.8) -> np.ndarray:
    """A drawn corner index: a rank and a blot in ``ink_bgr`` on paper, lit and blurred."""
    img = np.full((40, 24, 3), PAPER, np.uint8)
    cv2.putText(img, "7", (3, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, ink_bgr, thick, cv2.LINE_AA)
    cv2.circle(img, (11, 30), 4, ink_bgr, -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), blur)
    return np.clip(img.astype(np.float32) * np.array(light), 0, 255).astype(np.uint8)


BOX = (0.0, 0.0, 24.0, 40.0)
HUES = {"red": ((40, 20, 200), 0), "orange": ((20, 140, 245), 35), "green": ((50, 130, 30), 120),
        "blue": ((190, 90, 20), 215)}


@pytest.mark.parametrize("name", list(HUES))
def test_an_inks_hue_whatever_the_light_and_stroke(name):
    bgr, want = HUES[name]
    for light in ((1, 1, 1), (0.7, 0.8, 1.0), (1.0, 0.9, 0.6)):  # daylight, warm lamp, cool lamp
        for thick, blur in ((1, 0.6), (2, 1.2)):
            colour = ink(index(bgr, light, thick, blur), BOX)
            assert colour is not None
            assert hue_apart(hue(colour), want) < 25, (name, light, thick, hue(colour))


def test_black_ink_is_no_colour_and_an_empty_box_no_ink():
    for light in ((1, 1, 1), (0.7, 0.8, 1.0)):
        colour = ink(index((25, 25, 25), light), BOX)
        assert np.linalg.norm(colour) < 0.05
    assert ink(np.full((40, 24, 3), PAPER, np.uint8), BOX) is None
    assert ink(index((25, 25, 25)), (30.0, 50.0, 40.0, 60.0)) is None  # outside the image


def cloud(rng, centre, n, spread=0.015) -> np.ndarray:
    return np.array(centre) + rng.normal(0, spread, (n, 3))


def test_two_inks_only_with_a_clear_gap():
    rng = np.random.default_rng(1)
    black, green = (-0.02, 0.03, -0.01), (-0.01, -0.12, 0.13)
    assert two_inks(cloud(rng, black, 60)) is None  # one ink, however it falls
    assert two_inks(cloud(rng, black, 60, spread=0.04)) is None
    found = two_inks(np.vstack([cloud(rng, black, 20), cloud(rng, green, 20)]))
    assert found is not None
    low, high = sorted(found, key=lambda c: float(np.linalg.norm(c)))
    assert np.allclose(low, black, atol=0.02) and np.allclose(high, green, atol=0.02)
    # two indices of another colour among many of one are no second ink
    assert two_inks(np.vstack([cloud(rng, black, 40), cloud(rng, (0.17, 0.03, -0.2), 2)])) is None
    # nor are a few: each ink needs three indices
    assert two_inks(np.vstack([cloud(rng, black, 2), cloud(rng, green, 2)])) is None


def test_which_ink_is_which_suit():
    rng = np.random.default_rng(2)
    black, green, blueish = (-0.02, 0.03, -0.01), (-0.01, -0.12, 0.13), (0.15, -0.02, -0.13)
    split = black_split(np.vstack([cloud(rng, green, 15), cloud(rng, black, 15)]))
    assert split is not None and split.suits == ("S", "C")
    assert split.suit(np.array(black)) == "S" and split.suit(np.array(green)) == "C"
    assert split.suit((np.array(black) + np.array(green)) / 2) is None  # in between: not decided
    assert split.suit(np.array((0.6, 0.2, -0.8))) is None  # a red index misread: neither ink
    # a second black-suit ink that is no green is not a four-colour deck's clubs
    assert black_split(np.vstack([cloud(rng, blueish, 15), cloud(rng, black, 15)])) is None
    red, pale_red, orange = (0.1, 0.35, -0.45), (0.05, 0.17, -0.22), (0.8, -0.15, -0.65)
    split = red_split(np.vstack([cloud(rng, orange, 10), cloud(rng, red, 10)]))
    assert split is not None and split.suit(np.array(red)) == "H" and split.suit(np.array(orange)) == "D"
    assert red_split(np.vstack([cloud(rng, pale_red, 10), cloud(rng, red, 10)])) is None  # one red, thin and bold


def deck_seed(four_colour: bool, first: int) -> int:
    """The first game seed from ``first`` whose held-out deck style (as the game renderer
    draws them) prints its clubs in another ink than its spades, or in the same."""
    def inks(seed: int):
        return styles(seed, 1, "heldout")[0].inks

    return next(s for s in range(first, first + 100) if (inks(s)[2] != inks(s)[0]) == four_colour)


def rendered(seed: int, rows: dict[str, list[str]]):
    """The zones of a 1080p camera frame of ``rows`` in a game renderer's deck and their detections."""
    renderer = Renderer(seed, (1920, 1080))
    frame = renderer.camera(renderer.view(renderer.table(TableState(rows={s: rows.get(s, []) for s in "ESWN"}))))
    calibration = Calibration.from_image(frame)
    detector = CardDetector(committed_finder(), boxes=False)  # as the live loop runs it
    for seat in rows:
        zone = rectify_zone(frame, calibration, seat)
        yield zone, own_side(seat, detect_tiled(detector, zone, upright=True))


ROWS = {"S": ["C7", "S7", "C5", "S5", "CA", "SA"], "N": ["S2", "C2", "SK", "CK", "S9", "C9"],
        "E": ["C4", "S4", "C8", "S8", "ST", "CT"]}


def test_a_four_colour_deck_is_learnt_and_mends_a_misread_suit():
    inks = DeckInks()
    zones = list(rendered(deck_seed(True, 100), ROWS))
    for zone, detections in zones:
        inks.learn(detections, zone)
    split = inks.splits[black_split]
    assert isinstance(split, Split)
    mended = 0
    for zone, detections in zones:
        sure = [d for d in detections if d.conf >= 0.5 and suit_of(d.card) in "SC"]
        assert sure
        for d in sure:
            # the reader's spade read as a club, its club as a spade: the ink puts each right
            wrong = ("C" if d.card[0] == "S" else "S") + d.card[1]
            misread = d.__class__(wrong, 0.4, d.box, ((d.card, 0.3),))
            (settled,) = inks.settle([misread], zone)
            assert settled.card == d.card and settled.conf == pytest.approx(0.7)
            assert settled.others[0] == (wrong, 0.4)
            mended += 1
    assert mended >= 8


def test_a_two_colour_deck_changes_nothing():
    inks = DeckInks()
    zones = list(rendered(deck_seed(False, 300), ROWS))
    for zone, detections in zones:
        inks.learn(detections, zone)
    assert sum(len(c) for c in inks.colours.values()) >= 12
    assert not any(inks.splits.values())
    for zone, detections in zones:
        assert inks.settle(detections, zone) == detections


def test_a_jokers_ink_says_which_joker_it_is():
    """The big joker is printed in colour, the small one in black: a joker read as the other
    is told by its ink, as strongly coloured as the deck's red suits or as black as its black
    ones on this camera; an ink in between is left as read."""
    from vision.live.detector import Detection
    from vision.live.inks import joker_of

    red, black = ink(index((40, 20, 200)), BOX), ink(index((30, 30, 30)), BOX)
    blue = ink(index((190, 90, 20)), BOX)
    assert joker_of(red) == joker_of(blue) == "HR" and joker_of(black) == "SB"
    assert joker_of(np.array([0.1, -0.1, 0.0]), 0.05, 0.3) is None  # neither clearly
    drawn = np.hstack([index((190, 90, 20)), index((30, 30, 30))])
    read = [Detection("SB", 0.7, BOX, (("HR", 0.2),)), Detection("HR", 0.6, (24.0, 0.0, 48.0, 40.0))]
    settled = {d.box: d for d in DeckInks().settle(read, drawn)}
    assert settled[BOX].card == "HR" and settled[BOX].conf == pytest.approx(0.9)
    assert settled[BOX].others[0] == ("SB", 0.7)
    assert settled[(24.0, 0.0, 48.0, 40.0)].card == "SB"


def test_the_demo_decks_blue_big_jokers_are_not_read_as_small_ones():
    """The demo recording's deck prints its big joker's star blue and its small joker's grey;
    the reader, never taught that deck, reads both as the small joker: East's pair of 大王
    was recorded as a pair of 小王, and the two real 小王 after it as third and fourth copies."""
    from pathlib import Path

    from vision.live.camera import VideoFile

    video = VideoFile(str(Path(__file__).parents[2] / "scorer" / "data" / "demo-table.mp4"))
    calibration, zone = None, None
    while (frame := video.read()) is not None and frame.t < 33.6:
        calibration = calibration or Calibration.from_image(frame.image)
        zone = frame.image
    video.close()
    image = rectify_zone(zone, calibration, "E")
    detector = CardDetector(committed_finder(), boxes=False)
    found = own_side("E", detect_tiled(detector, image, conf=0.1, upright=True))
    jokers = [d.card for d in DeckInks().settle(found, image) if d.card in ("SB", "HR")]
    assert jokers and set(jokers) == {"HR"}
