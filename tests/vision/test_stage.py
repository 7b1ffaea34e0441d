"""The stage, the second rendered world (vision/stage): its table is seen as DESIGN §5 lays
it out, its cards lie where the markers' homography says, its arms cast shadows, and a
staged hand is a video with a truth record the engine replays. Real OpenGL (Mesa's
llvmpipe through EGL), no mocks."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import cv2
import numpy as np
import pytest

from engine.bots import self_play
from engine.events import PlayCards
from engine.record import dumps, parse_lines, replay
from rulebook import profiles
from vision.stage.body import SKINS, SLEEVES, arm_solids
from vision.stage.choreography import first_hand, stage
from vision.stage.faces import CARDS, PRINTED, faces, usable_heldout
from vision.stage.frame import Frame, Lamp, card_instance
from vision.stage.motion import ArmActor, Track
from vision.stage.setting import random_setting
from vision.stage.table import MARKER_CENTRES, OUT, marker_corners, zone_of
from vision.stage.world import Composer, render

SIZE = (1280, 720)


def plain_cards(n: int = 4) -> list[np.ndarray]:
    """Card pictures for tests that need no real faces: white, a number in the corner."""
    out = []
    for i in range(n):
        picture = np.full((402, 288, 4), 255, np.uint8)
        cv2.putText(picture, str(i), (16, 70), cv2.FONT_HERSHEY_SIMPLEX, 2.2, (30, 30, 180, 255), 5)
        out.append(picture)
    return out


@pytest.fixture(scope="module")
def clean():
    """A set with a perfect lens and no sensor noise, and its renderer."""
    setting = random_setting(7, SIZE, distortion=False, noise=False)
    renderer = setting.renderer(plain_cards())
    yield setting, renderer
    renderer.release()


def markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The ArUco markers found in a frame (corners refined to a fraction of a pixel)."""
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), parameters)
    corners, ids, _ = detector.detectMarkers(image)
    return {} if ids is None else {int(i): c[0] for c, i in zip(corners, ids.ravel(), strict=True)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_frame_shows_the_four_markers_where_the_camera_puts_them(seed):
    setting = random_setting(seed, SIZE)
    renderer = setting.renderer(plain_cards())
    try:
        image = renderer.draw(Frame(look=setting.look(0.0, 0)))
    finally:
        renderer.release()
    found = markers(image)
    assert sorted(found) == sorted(MARKER_CENTRES)
    for marker, corners in found.items():
        assert np.abs(corners - setting.camera.project(marker_corners(marker))).max() < 2.0, marker


def test_without_distortion_and_noise_a_seed_gives_the_same_frame_twice(clean):
    setting, renderer = clean
    first = renderer.draw(Frame(look=setting.look(3.0, 90)))
    again = setting.renderer(plain_cards())
    try:
        second = again.draw(Frame(look=setting.look(3.0, 90)))
    finally:
        again.release()
    assert np.array_equal(first, second)


def test_a_card_lies_where_the_markers_homography_puts_it(clean):
    setting, renderer = clean
    at = (12.0, -20.0)
    card = card_instance(at[0], at[1], 0.0, 0.3, 0.0, (0.15, 0.0), face=2, back=3)
    image = renderer.draw(Frame(cards=card[None], look=setting.look(0.0, 0)))
    found = markers(image)
    table = np.concatenate([marker_corners(m) for m in sorted(found)])
    pixels = np.concatenate([found[m] for m in sorted(found)])
    homography, _ = cv2.findHomography(table, pixels)
    expected = cv2.perspectiveTransform(np.array([[at]], np.float64), homography)[0, 0]
    bright = (cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) > 150).astype(np.uint8)
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    near = [c for c in contours if cv2.pointPolygonTest(c, tuple(float(v) for v in expected), False) >= 0]
    assert near, "no bright card where the homography points"
    moments = cv2.moments(near[0])
    centre = np.array([moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]])
    assert np.linalg.norm(centre - expected) < 1.5
    ends = cv2.perspectiveTransform(np.array([[(0.0, 0.0), (1.0, 0.0)]]), homography)[0]
    px_per_cm = float(np.linalg.norm(ends[1] - ends[0]))
    assert abs(moments["m00"] / px_per_cm ** 2 - 6.3 * 8.8) < 0.1 * 6.3 * 8.8  # a card's area, not a blob


def redness(picture: np.ndarray) -> float:
    """The share of a face's pixels inked red (RGBA)."""
    r, g, b = (picture[..., i].astype(int) for i in range(3))
    return float(((r > 150) & (g < 110) & (b < 110)).mean())


@pytest.mark.parametrize("design", [PRINTED, *usable_heldout()[:1]])
def test_the_faces_of_a_design_are_its_cards_in_order(design):
    pictures = faces(design)
    assert len(pictures) == len(CARDS) == 54
    assert {p.shape for p in pictures} == {(402, 288, 4)}
    red = {card: redness(p) for card, p in zip(CARDS, pictures, strict=True)}
    for rank in "2579T":  # hearts and diamonds are inked red, spades and clubs not: the sheet's rows are read right
        assert min(red["H" + rank], red["D" + rank]) > 4 * max(red["S" + rank], red["C" + rank], 0.001), rank
    assert red["HR"] > red["SB"]


def staged(seed: int, max_events: int | None = None):
    """A bots' first hand staged (no pictures drawn)."""
    events = first_hand(self_play(profiles.load("jiangsu"), random.Random(seed), max_hands=1, mistakes=0.1), max_events)
    return events, stage(events, profiles.load("jiangsu"), random.Random(seed), 30)


@pytest.mark.parametrize("seed", [4, 5])
def test_a_staged_hand_lays_each_play_and_turns_each_trick_onto_the_piles(seed):
    events, script = staged(seed)
    timed = script.events
    assert [e.seq for e in timed] == [e.seq for e in events]
    assert all(a.t <= b.t for a, b in zip(timed, timed[1:], strict=False))
    replay(parse_lines(dumps(timed).splitlines()), profiles.load)  # the re-timed record is a record
    by_seq = {}
    for card in script.cards:
        by_seq.setdefault(card.seq, []).append(card)
    for event in timed:
        if isinstance(event, PlayCards):
            cards = by_seq[event.seq]
            assert sorted(c.card for c in cards) == sorted(event.cards)
            # its time is when its last card came to lie in the row: each card lies still then, face up, in its zone
            for card in cards:
                x, y, _, _, flip = card.track.at(event.t)
                assert card.track.visible(event.t) and flip == 0 and zone_of(x, y) == event.seat
                assert card.track.at(event.t + 0.2)[:2] == (x, y) or card.track.moving(event.t + 0.2)
            assert any(card.track.at(event.t - 1 / 30) != card.track.at(event.t) or
                       not card.track.visible(event.t - 1 / 30) for card in cards)
    end = script.duration
    for card in script.cards:  # the hand is over: every card is face down on its owner's pile
        x, y, _, _, flip = card.track.at(end)
        assert flip == 1 and 35 <= max(abs(x), abs(y)) <= 46
        assert OUT[card.owner] == ((np.sign(x), 0.0) if abs(x) > abs(y) else (0.0, np.sign(y)))


def test_an_arm_casts_a_shadow_on_the_table(clean):
    setting, _ = clean
    lamp = Lamp((-60.0, -20.0, 110.0), (0.9, 0.9, 0.9), cone=(60.0, 85.0), radius=4.0)  # west of the table
    lit = dataclasses.replace(setting, lamps=(lamp,))
    renderer = lit.renderer(plain_cards())
    tip, yaw = np.array([12.0, -12.0, 3.0]), math.pi / 2  # reaching in from South, fingers North
    arm = ArmActor("S", (14.0, -65.0, 38.0), SKINS[2], SLEEVES[0], False, Track().key(0.0, (*tip, yaw, 0.0)))
    try:
        bare = renderer.draw(Frame(look=lit.look(0.0, 0))).astype(float) + 1
        solids = {kind: np.stack(rows) for kind, rows in arm_solids(arm, 0.0).items()}
        shaded = renderer.draw(Frame(solids=solids, look=lit.look(0.0, 0))).astype(float) + 1
    finally:
        renderer.release()
    # where the lamp throws the wrist and forearm onto the cloth, well east of the arm itself
    wrist = tip + np.array([0.0, -15.5, 2.8])
    elbow_way = np.array([14.0, -65.0, 38.0]) - wrist
    along = [wrist + elbow_way / np.linalg.norm(elbow_way) * s for s in range(0, 12, 2)]
    light = np.asarray(lamp.position)
    on_cloth = [light + (p - light) * light[2] / (light[2] - p[2]) for p in along]
    pixels = lit.camera.project(np.array(on_cloth)).round().astype(int)
    ratios = [shaded[v, u] / bare[v, u] for u, v in pixels]
    shadowed = [r for r in ratios if r.max() - r.min() < 0.15]  # darker alike in each channel: not the arm itself
    assert len(shadowed) >= 3
    assert np.mean([r.mean() for r in shadowed]) < 0.75


@pytest.mark.video
@pytest.mark.video
def test_a_short_staged_hand_is_a_video_and_a_record(tmp_path):
    meta = render(8, tmp_path, size=SIZE, fps=15, max_events=8)
    assert json.loads((tmp_path / "meta.json").read_text(encoding="utf-8")) == meta
    assert meta["world"] == "stage" and meta["fps"] == 15 and meta["size"] == list(SIZE)
    video = cv2.VideoCapture(str(tmp_path / "game.mp4"))
    frames, first = 0, None
    while True:
        ok, image = video.read()
        if not ok:
            break
        first = image if first is None else first
        frames += 1
    assert frames == meta["frames"] > 0
    assert sorted(markers(first)) == sorted(MARKER_CENTRES)  # through the codec too
    record = parse_lines((tmp_path / "truth.jsonl").read_text(encoding="utf-8").splitlines())
    assert len(record.events) == meta["events"] == 8
    match = replay(record, profiles.load)
    plays = [e for e in record.events if isinstance(e, PlayCards)]
    assert plays and all(0 < e.t < meta["frames"] / meta["fps"] for e in plays)
    assert match.hand is not None


def test_render_stage_refuses_a_bad_option_in_one_line_in_both_languages(tmp_path, capsys):
    from vision.__main__ import main

    assert main(["render-stage", "--out", str(tmp_path), "--fps", "24", "--lang", "en"]) == 2
    said = capsys.readouterr().err.strip()
    assert said == "guandan: --fps is 30, 25 or 15, not 24 / --fps 应为 30、25 或 15，不是 24"
    assert main(["render-stage", "--out", str(tmp_path), "--deck", "no-such-deck"]) == 2
    assert "no-such-deck" in capsys.readouterr().err and not (tmp_path / "game.mp4").exists()


@pytest.mark.slow
def test_drawing_only_what_moved_gives_the_frame_a_whole_drawing_gives():
    events, script = staged(6, max_events=6)
    setting = random_setting(6, (480, 270), noise=False)
    pictures = plain_cards(len(CARDS) + 2)
    boxed, whole = setting.renderer(pictures), setting.renderer(pictures)
    composer = Composer(script, setting)
    try:
        for number in range(0, min(150, int(script.duration * 30))):
            frame = composer.frame(number / 30, number)
            kept = boxed.draw(frame)
            if number % 6 == 0:
                whole._last = whole._drawn = None
                # a ghost of an arm or a card left behind differs by tens of levels over hundreds
                # of pixels; a frame drawn in parts may differ from one drawn whole by a level of
                # rounding at a few pixels where a card lies raised on others
                off = np.abs(kept.astype(int) - whole.draw(frame).astype(int)).max(axis=2)
                assert off.max() <= 1 and (off > 0).mean() < 0.001, (number, off.max(), (off > 0).sum())
    finally:
        boxed.release()
        whole.release()


@pytest.mark.parametrize("seed", [4, 5])
def test_no_card_of_a_play_passes_through_the_bent_card_below_it(seed):
    """A card bent up to 3 mm, laid under the next of its row 0.35 mm lower, showed its
    corner index through that card: an index a camera at a real table never sees. Each card
    of a play lies clear of the highest point of the card before it."""
    events, script = staged(seed)
    by_seq = {}
    for card in script.cards:
        by_seq.setdefault(card.seq, []).append(card)
    for event in script.events:
        if isinstance(event, PlayCards) and len(event.cards) > 1:
            cards = by_seq[event.seq]
            for below, above in zip(cards, cards[1:], strict=False):
                top = below.track.at(event.t)[2] + abs(below.bend[0]) + abs(below.bend[1])
                assert above.track.at(event.t)[2] >= top, (event.seq, below.card, above.card)
