"""Zone scenes and their labels (vision.synth.scene / labels): labels follow the pixels."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import ALL_CARDS
from vision.synth import plays
from vision.synth.camera import local_scale, oblique_homography
from vision.synth.deck import card_image, styles
from vision.synth.labels import OCCLUDER, Placed, index_polygon, parse_yolo, scene_labels, visible_fraction, yolo_text
from vision.synth.preview import draw_labels
from vision.synth.raster import paste_affine, rotation
from vision.synth.scene import SceneConfig, render_scene

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
DECKS = styles(8, 12, "train")


def _scene(seed: int, **cfg):
    config = SceneConfig.from_dict(cfg)
    return render_scene(np.random.default_rng(seed), [DECKS[seed % len(DECKS)], DECKS[(seed + 1) % len(DECKS)]],
                        config)


def _box_share(ids: np.ndarray, box, ident: int) -> float:
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    region = ids[y0:y1, x0:x1]
    return float((region == ident).mean()) if region.size else 0.0


def test_each_box_covers_its_own_index_upright():
    """Upright rows: the ID mask inside every labelled box is mostly that card."""
    n = 0
    for seed in range(12):
        sc = _scene(seed, upright_prob=1.0, upright_deg=0.0, jitter_deg=0.0, hand_prob=0.5, distractors=[1, 3])
        for lab in sc.labels:
            assert lab.visible >= 0.6
            assert _box_share(sc.ids, lab.box, lab.ident) >= 0.55
            assert ALL_CARDS[lab.cls] == sc.placed[lab.ident - 1].card
            n += 1
    assert n > 40


def test_labels_are_exactly_the_visible_indices_at_any_angle():
    seen_hidden = 0
    for seed in range(100, 112):
        sc = _scene(seed, upright_prob=0.0, hand_prob=0.6, distractors=[0, 4])
        labelled = {(lab.ident, lab.corner) for lab in sc.labels}
        for lab in sc.labels:
            assert _box_share(sc.ids, lab.box, lab.ident) >= 0.3
            x0, y0, x1, y1 = lab.box
            assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 320
        for p in sc.placed:
            for k, box in enumerate(p.boxes):
                frac = visible_fraction(sc.ids, p.ident, index_polygon(p.m, box))
                if frac < 0.6:
                    assert (p.ident, k) not in labelled
                    seen_hidden += 1
                elif (p.ident, k) not in labelled:  # only a sliver at the border may go unlabelled
                    poly = index_polygon(p.m, box)
                    clipped = np.clip(poly, 0, 320)
                    assert np.ptp(clipped[:, 0]) < 2 or np.ptp(clipped[:, 1]) < 2
    assert seen_hidden > 10  # overlapping rows always hide bottom-right indices


def _one_card_canvas(cover: float) -> tuple[np.ndarray, np.ndarray, Placed]:
    """A single upright card at 12 px/cm with the left ``cover`` of its top-left index covered."""
    style = DECKS[0]
    img = card_image("D7", style, 12.0)
    canvas = np.full((200, 200, 3), (40, 110, 40), np.float32)
    ids = np.zeros((200, 200), np.uint16)
    m = rotation(0.0, 1.0, (0, 0), (40, 30))
    paste_affine(canvas, ids, img.bgr, img.alpha, m, 1)
    placed = Placed(1, "D7", m, img.boxes)
    if cover > 0:
        x0, y0, x1, y1 = index_polygon(m, img.boxes[0])[[0, 2]].ravel()
        xe = int(round(x0 + (x1 - x0) * cover))
        ids[int(y0) - 2:int(np.ceil(y1)) + 2, int(x0) - 2:xe] = OCCLUDER
        canvas[int(y0) - 2:int(np.ceil(y1)) + 2, int(x0) - 2:xe] = (120, 160, 210)  # a thumb
    return canvas, ids, placed


def test_a_fully_covered_index_gets_no_box():
    canvas, ids, placed = _one_card_canvas(0.0)
    labels = scene_labels(ids, [placed])
    assert [(lab.corner, lab.cls) for lab in labels] == [(0, ALL_CARDS.index("D7")), (1, ALL_CARDS.index("D7"))]
    # the labelled pixels really are the printed index: ink darker than the paper
    x0, y0, x1, y1 = (int(round(v)) for v in labels[0].box)
    crop = canvas[y0:y1, x0:x1]
    assert crop.min() < 150 and crop.max() > 200

    _, ids, placed = _one_card_canvas(1.0)
    assert [lab.corner for lab in scene_labels(ids, [placed])] == [1]
    _, ids, placed = _one_card_canvas(0.25)  # a quarter hidden: still readable, still labelled
    labels = scene_labels(ids, [placed])
    assert [lab.corner for lab in labels] == [0, 1]
    assert labels[0].visible == pytest.approx(0.75, abs=0.12)
    _, ids, placed = _one_card_canvas(0.65)  # most of it hidden: no label
    assert [lab.corner for lab in scene_labels(ids, [placed])] == [1]


def test_index_outside_the_image_gets_no_box():
    style = DECKS[1]
    img = card_image("SA", style, 12.0)
    canvas = np.zeros((120, 120, 3), np.float32)
    ids = np.zeros((120, 120), np.uint16)
    m = rotation(0.0, 1.0, (0, 0), (-30, 5))  # the left half of the card hangs off the image
    paste_affine(canvas, ids, img.bgr, img.alpha, m, 1)
    labels = scene_labels(ids, [Placed(1, "SA", m, img.boxes)])
    assert [lab.corner for lab in labels] == [1]


def test_same_seed_same_bytes():
    a, b = _scene(5), _scene(5)
    assert a.image.tobytes() == b.image.tobytes()
    assert yolo_text(a.labels, 320, 320) == yolo_text(b.labels, 320, 320)
    c = _scene(6)
    assert a.image.tobytes() != c.image.tobytes()


def test_yolo_label_format():
    for seed in range(6):
        sc = _scene(seed)
        text = yolo_text(sc.labels, 320, 320)
        rows = parse_yolo(text)
        assert len(rows) == len(sc.labels) == text.count("\n")
        for line in text.splitlines():
            fields = line.split(" ")
            assert len(fields) == 5 and fields[0].isdigit()
            assert all(len(f.split(".")[1]) == 6 for f in fields[1:])
    with pytest.raises(ValueError):
        parse_yolo("54 0.5 0.5 0.1 0.1\n")
    with pytest.raises(ValueError):
        parse_yolo("3 0.5 0.5 0.1\n")


def test_image_size_scale_and_config():
    for size in (320, 640):
        sc = _scene(3, px_per_cm=[6, 20]) if size == 320 else render_scene(
            3, DECKS[:2], SceneConfig.from_dict({"size": 640, "rows": [2, 5]}))
        assert sc.image.shape == (size, size, 3) and sc.image.dtype == np.uint8
        assert sc.ids.shape == (size, size)
        assert 6 <= sc.px_per_cm <= 20
    with pytest.raises(ValueError, match="unknown scene setting"):
        SceneConfig.from_dict({"px_per_cn": [6, 20]})
    with pytest.raises(ValueError):
        SceneConfig.from_dict({"px_per_cm": [6, 99]})


def test_rows_cover_every_class():
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(600):
        seen.update(plays.random_row(rng))
    assert seen == set(ALL_CARDS)


def test_joker_rows_always_hold_a_joker_and_every_kind_occurs():
    rng = np.random.default_rng(1)
    rows = [plays.joker_row(rng) for _ in range(400)]
    assert all({"SB", "HR"} & set(row) for row in rows)
    assert ["SB", "SB", "HR", "HR"] in rows and ["HR"] in rows and ["SB", "SB"] in rows
    assert any(len(set(row) - {"SB", "HR"}) > 0 for row in rows)  # jokers beside other cards too


def test_a_joker_share_of_one_lays_jokers_in_every_scene():
    deck = styles(3, 1, "train")[0]
    rich = SceneConfig(size=320, px_per_cm=(10, 12), joker_share=1.0, empty_prob=0.0)
    scenes = [render_scene(seed, [deck], rich) for seed in range(12)]
    assert all({"SB", "HR"} & {p.card for p in scene.placed} for scene in scenes)
    with pytest.raises(ValueError, match="joker_share"):
        SceneConfig(joker_share=1.5).check()


def test_save_sample_zones():
    ARTIFACTS.mkdir(exist_ok=True)
    tiles = [draw_labels(_scene(seed).image, _scene(seed).labels, 1) for seed in range(20, 28)]
    grid = np.vstack([np.hstack(tiles[:4]), np.hstack(tiles[4:])])
    assert cv2.imwrite(str(ARTIFACTS / "synth-zones-320.png"), grid)
    held = styles(8, 4, "heldout")
    big = render_scene(31, held[:2], SceneConfig.from_dict({"size": 640, "rows": [2, 5]}))
    assert cv2.imwrite(str(ARTIFACTS / "synth-zone-640-heldout.png"), draw_labels(big.image, big.labels, 1))


def _index_upright(canvas: np.ndarray, box, turn_deg: float, side: float) -> np.ndarray:
    """The index in ``box`` cut turned back by ``turn_deg``, in a patch ``side`` pixels wide."""
    from vision.live.reader import patch

    scale = side / max(box[2] - box[0], box[3] - box[1])
    return patch(canvas.astype(np.uint8), box, angle=turn_deg, scale=scale, pad=0.3).astype(np.float64).mean(axis=2)


@pytest.mark.parametrize("angle", [0.0, 35.0, -120.0, 90.0])
def test_a_labels_turn_is_how_far_its_index_is_turned_from_upright(angle: float):
    """A card laid at ``angle`` (degrees clockwise as seen): its top-left index is turned by
    that much and its bottom-right one, printed upside down, half a turn more; cut turned
    back by its ``turn_deg`` each index looks like the upright card's top-left index."""
    style = DECKS[1]
    img = card_image("S8", style, 12.0)
    h, w = img.alpha.shape[:2]

    def laid(deg: float) -> tuple[np.ndarray, list]:
        canvas = np.full((240, 240, 3), (40, 110, 40), np.float32)
        ids = np.zeros((240, 240), np.uint16)
        m = rotation(deg, 1.0, (w / 2, h / 2), (120, 120))
        paste_affine(canvas, ids, img.bgr, img.alpha, m, 1)
        return canvas, scene_labels(ids, [Placed(1, "S8", m, img.boxes)])

    canvas, labels = laid(angle)
    turns = {lab.corner: lab.turn_deg for lab in labels}
    assert turns[0] == pytest.approx(angle, abs=1e-3)
    assert abs((turns[1] - turns[0]) % 360 - 180) < 1e-3
    upright_canvas, upright = laid(0.0)
    side = max(upright[0].box[2] - upright[0].box[0], upright[0].box[3] - upright[0].box[1])
    reference = _index_upright(upright_canvas, upright[0].box, 0.0, side)
    for lab in labels:
        back = _index_upright(canvas, lab.box, lab.turn_deg, side)
        wrong = _index_upright(canvas, lab.box, lab.turn_deg + 90.0, side)
        same = np.corrcoef(back.ravel(), reference.ravel())[0, 1]
        assert same > 0.6 and same > np.corrcoef(wrong.ravel(), reference.ravel())[0, 1] + 0.2


def _half_crossings(profile: np.ndarray) -> tuple[float, float]:
    """Where a row of coverage (0 paper … 1 ink) first rises through one half and last
    falls through it, in edge coordinates (pixel i's centre at i + 0.5), interpolated."""
    inside = np.flatnonzero(profile >= 0.5)
    a, b = inside[0], inside[-1]
    rise = a - 0.5 + (0.5 - profile[a - 1]) / (profile[a] - profile[a - 1])
    fall = b + 0.5 + (profile[b] - 0.5) / (profile[b] - profile[b + 1])
    return float(rise), float(fall)


@pytest.mark.parametrize("angle,scale", [(0.0, 0.7), (180.0, 0.7), (90.0, 1.0), (-90.0, 0.8)])
def test_a_label_box_lies_on_its_ink_to_a_fraction_of_a_pixel(angle: float, scale: float):
    """A black block printed on a white card, pasted turned and shrunk as scenes paste
    cards: its label box and the block's edges in the scene (where the painted coverage
    crosses one half, through the block's middle) agree within a fifth of a pixel. Labels
    once mixed pixel edges with pixel centres and lay up to 0.9 pixel off at a half turn."""
    card = np.full((60, 40, 3), 255.0, np.float32)
    card[10:30, 6:20] = 0.0
    canvas = np.full((120, 120, 3), 255.0, np.float32)
    ids = np.zeros((120, 120), np.uint16)
    m = rotation(angle, scale, (20, 30), (60.3, 59.6))
    paste_affine(canvas, ids, card, np.full((60, 40), 255, np.uint8), m, 1)
    (label,) = scene_labels(ids, [Placed(1, "S5", m, ((6.0, 10.0, 20.0, 30.0),))])
    ink = 1.0 - canvas.mean(axis=2) / 255.0
    x0, y0, x1, y1 = label.box
    left, right = _half_crossings(ink[int((y0 + y1) / 2)])
    top, bottom = _half_crossings(ink[:, int((x0 + x1) / 2)])
    assert np.allclose(label.box, (left, top, right, bottom), atol=0.2), (label.box, (left, top, right, bottom))


def test_an_oblique_pictures_labels_lie_on_their_cards_as_the_picture_shows_them():
    """A picture left in a leaning camera's perspective (``camera: {tilt: …}``): each label
    box lies on its own card as the picture shows it (the ID mask taken through the same
    homography), and the far cards are drawn smaller than the near ones."""
    n, spreads = 0, []
    for seed in range(200, 206):
        sc = _scene(seed, camera={"tilt": [30, 50]}, hand_prob=0.3)
        assert sc.view is not None and sc.image.shape == (320, 320, 3)
        seen = cv2.warpPerspective(sc.ids, sc.view, (320, 320), flags=cv2.INTER_NEAREST)
        for lab in sc.labels:
            assert _box_share(seen, lab.box, lab.ident) >= 0.3
            x0, y0, x1, y1 = lab.box
            assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 320 and 0.2 < lab.scale < 1.0
        if len(sc.labels) > 1:
            spreads.append(max(lab.scale for lab in sc.labels) / min(lab.scale for lab in sc.labels))
        n += len(sc.labels)
    assert n > 30 and max(spreads) > 1.1
    assert _scene(200).view is None and all(lab.scale == 1.0 for lab in _scene(200).labels)


def test_an_oblique_label_box_lies_on_its_ink():
    """A black block on a white card, laid turned, then photographed by a camera leaning 40°:
    the label box is the block's extent in the picture, to the pixel."""
    card = np.full((60, 40, 3), 255.0, np.float32)
    card[10:30, 6:20] = 0.0
    canvas = np.full((120, 120, 3), 255.0, np.float32)
    ids = np.zeros((120, 120), np.uint16)
    m = rotation(25.0, 0.9, (20, 30), (60.3, 59.6))
    paste_affine(canvas, ids, card, np.full((60, 40), 255, np.uint8), m, 1)
    view = oblique_homography(np.random.default_rng(3), 120, (40.0, 40.0))
    picture = cv2.warpPerspective(canvas, view, (120, 120), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                  borderValue=(255, 255, 255))
    (label,) = scene_labels(ids, [Placed(1, "S5", m, ((6.0, 10.0, 20.0, 30.0),))], view=view)
    ys, xs = np.nonzero(1.0 - picture.mean(axis=2) / 255.0 >= 0.5)
    inked = (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)  # pixels at least half ink, in edge coordinates
    assert np.allclose(label.box, inked, atol=0.8), (label.box, inked)
    # its turn is the way the card's top edge runs in the picture, not the 25° it was laid at
    assert label.turn_deg != pytest.approx(25.0, abs=0.5) and abs(label.turn_deg) < 90
    assert label.scale == pytest.approx(local_scale(view, (60.3 - 20 * 0.9 + 13 * 0.9, 59.6)), rel=0.2)
