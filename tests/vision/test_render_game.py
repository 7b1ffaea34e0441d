"""The game renderer: a real video, its truth, and frames the calibration can read."""

import cv2
import numpy as np
import pytest

from engine.record import parse_lines, replay
from rulebook import profiles
from vision.live.calibration import Calibration, rectify_zone
from vision.synth.render_game import Renderer, render


@pytest.mark.video
def test_a_short_clip_has_its_truth_and_a_readable_table(tmp_path):
    meta = render(5, tmp_path, size=(1280, 720), max_events=5)
    assert meta["fps"] == 30
    truth = parse_lines((tmp_path / "truth.jsonl").read_text(encoding="utf-8").splitlines())
    match = replay(truth, profiles.load)
    assert match.violations == [] and len(truth.events) == meta["events"] == 6
    first_play = next(e for e in truth.events if e.type == "play")
    video = cv2.VideoCapture(str(tmp_path / "game.mp4"))
    assert int(video.get(cv2.CAP_PROP_FRAME_COUNT)) == meta["frames"]
    assert (video.get(cv2.CAP_PROP_FRAME_WIDTH), video.get(cv2.CAP_PROP_FRAME_HEIGHT)) == (1280, 720)
    frame_at = int((first_play.t + 0.3) * meta["fps"])
    for _ in range(frame_at + 1):
        ok, frame = video.read()
    assert ok
    calibration = Calibration.from_image(frame)
    assert calibration.markers == (0, 1, 2, 3)
    zone = rectify_zone(frame, calibration, first_play.seat)
    others = [rectify_zone(frame, calibration, s) for s in "ESWN" if s != first_play.seat]
    bright = lambda z: float((cv2.cvtColor(z, cv2.COLOR_BGR2GRAY) > 170).mean())  # noqa: E731  white card paper
    assert bright(zone) > 0.05 and all(bright(z) < 0.01 for z in others)


def test_later_hands_show_their_tribute_return_and_resistance_on_the_table():
    import random

    from engine.bots import self_play
    from engine.events import Deal, GiveBack, Resist, Tribute
    from engine.record import dumps
    from vision.synth.render_game import hide, stage

    rules = profiles.load("jiangsu")
    seen = {"tribute": 0, "return": 0, "resist": 0}
    for seed in (0, 1, 7):  # 7: one player holds both big jokers; 0: one each in a double tribute
        events, jokers = hide(self_play(rules, random.Random(seed), max_hands=3, table="t"), rules)
        assert all(e.hands is None for e in events if isinstance(e, Deal))
        staging = stage(events, rules, None, jokers)
        match = replay(parse_lines(dumps(staging.events).splitlines()), profiles.load)
        assert match.violations == [] and len(match.hands) == 3
        for i, event in enumerate(events):
            if not isinstance(event, (Tribute, GiveBack, Resist)):
                continue
            seen[event.type] += 1
            timed = next(e for e in staging.events if e.type == event.type and e.t > 0
                         and getattr(e, "seat", None) == getattr(event, "seat", None)
                         and getattr(e, "card", None) == getattr(event, "card", None))
            laid = [state for t, state in staging.keys if abs(t - timed.t) < 0.01][-1]
            if isinstance(event, Resist):
                assert sum(laid.rows[s].count("HR") for s in event.seats) == 2 == sum(jokers[i].values())
            else:
                assert laid.rows[event.seat] == [event.card]  # face up in the zone, alone, when it counts
            later = [state for t, state in staging.keys if t > timed.t + 0.5][0:8]
            assert any(not any(state.rows.values()) for state in later)  # then taken back up
    assert seen["tribute"] >= 3 and seen["return"] >= 3 and seen["resist"] == 2


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_table_is_drawn_finer_than_the_camera_resolves_it(size):
    """A 1080p video must hold 1080p detail: every play zone is drawn at least twice as
    fine as the camera sees it, whatever the camera's tilt and zoom."""
    renderer = Renderer(5, size)
    camera = Calibration(renderer.homography @ renderer.t2c, (0, 1, 2, 3), 0.0)  # the truth, not markers
    resolution = camera.zone_resolution()
    assert set(resolution) == set("ESWN")
    assert all(renderer.ppc >= 1.9 * px_per_cm for px_per_cm in resolution.values())


def test_each_camera_pixel_gathers_the_light_of_the_print_under_it():
    """Stripes finer than a camera pixel come out as an even grey, as a sensor sees them,
    not as the stripes' colours picked at a point each (what a plain warp does)."""
    renderer = Renderer(5, (1280, 720))
    stripes = np.zeros_like(renderer.base)
    stripes[:, 0::4] = stripes[:, 1::4] = 255  # a period of about one camera pixel
    view = renderer.view(stripes) / renderer.light[..., None]
    picked = cv2.warpPerspective(stripes, renderer.homography, (1280, 720), flags=cv2.INTER_LINEAR)
    middle = np.s_[310:410, 590:690, 0]
    assert abs(float(view[middle].mean()) - 127.5) < 10
    assert float(view[middle].std()) < 0.75 * float(picked[middle].std())
