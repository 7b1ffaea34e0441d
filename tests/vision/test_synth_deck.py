"""Deck styles and card faces (vision.synth.deck / style / fonts / shapes)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import ALL_CARDS
from vision.synth import fonts
from vision.synth.deck import card_image, card_size_px, render_back, render_card, styles
from vision.synth.faces import index_block, index_marks_cm
from vision.synth.preview import contact_sheet
from vision.synth.shapes import SuitShape, suit_mask
from vision.synth.style import (
    COURT_ARTS,
    INDEX_LAYOUTS,
    JOKER_ARTS,
    JOKER_CORNERS,
    JOKER_ICONS,
    JOKER_WORDS,
    PIP_LAYOUTS,
    DeckStyle,
)

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PPC = 12.0


def _grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.int16)


def _family_styles() -> list[DeckStyle]:
    """One style per font family of both splits, cycling every other categorical choice."""
    out = []
    for split in ("train", "heldout"):
        base = styles(11, 8, split)
        choices = [
            INDEX_LAYOUTS[split], PIP_LAYOUTS[split], COURT_ARTS[split], JOKER_CORNERS, JOKER_ARTS,
        ]
        for k, family in enumerate(fonts.families(split, "extra")):
            font = next(f for f in fonts.fonts_for(split, "extra") if f.family == family)
            style = base[k % len(base)]
            joker = dataclasses.replace(style.joker, corner=choices[3][k % 3], art=choices[4][k % 3],
                                        centre_cjk=bool(k % 2))
            out.append(dataclasses.replace(
                style, font=font, index_layout=choices[0][k % len(choices[0])],
                pip_layout=choices[1][k % len(choices[1])], court=choices[2][k % len(choices[2])],
                joker=joker, four_index=bool(k % 3 == 0)))
    return out


FAMILY_STYLES = _family_styles()


def test_styles_are_deterministic_and_named_uniquely():
    a, b = styles(5, 30, "train"), styles(5, 30, "train")
    assert a == b
    assert len({s.name for s in a}) == 30
    assert styles(6, 30, "train") != a
    with pytest.raises(ValueError):
        styles(5, 3, "test")


def test_wide_styles_are_their_standard_twins_with_suit_proportions_stretched():
    standard, wide = styles(7, 400, "train"), styles(7, 400, "train", "wide")
    for a, b in zip(standard, wide, strict=True):  # the same draws: the same deck but for its suits
        assert dataclasses.replace(b, suit_scale=a.suit_scale, suit_shape=a.suit_shape) == a
    stacked = [s.suit_scale for s in wide if s.index_layout == "stacked"]
    assert min(stacked) < 0.5 and min(s.suit_scale for s in standard) >= 0.6  # smaller suits only in wide
    assert min(s.suit_shape.stem_width for s in wide) < 0.15 < 0.18 <= min(s.suit_shape.stem_width for s in standard)
    with pytest.raises(ValueError, match="variety"):
        styles(7, 1, "train", "huge")


def test_wide_jokers_write_the_word_both_ways_and_draw_three_icons_and_change_nothing_else():
    standard, wide = styles(7, 300, "train"), styles(7, 300, "train", jokers="wide")
    first, twin = standard[0], wide[0]  # the joker's own draws come last: its twin is the same deck
    assert dataclasses.replace(twin, joker=dataclasses.replace(twin.joker, word="JOKER", icon="star")) == first
    assert {s.joker.word for s in standard} == {"JOKER"} and {s.joker.icon for s in standard} == {"star"}
    assert {s.joker.word for s in wide} == set(JOKER_WORDS) and {s.joker.icon for s in wide} == set(JOKER_ICONS)
    with pytest.raises(ValueError, match="joker variety"):
        styles(7, 1, "train", jokers="odd")


@pytest.mark.parametrize("icon", JOKER_ICONS)
def test_each_joker_icon_is_drawn_in_the_corner_at_its_mark_height(icon: str):
    style = next(s for s in styles(7, 300, "train", jokers="wide") if s.joker.corner == "icon")
    style = dataclasses.replace(style, joker=dataclasses.replace(style.joker, icon=icon))
    (mask, colour, _, _), = index_block(style, "HR", 40.0)
    assert colour == style.joker.big_colour
    tall, _ = index_marks_cm(style, "HR")
    assert abs(mask.shape[0] - tall * 40.0) <= 1.0
    centre = mask[mask.shape[0] // 2, mask.shape[1] // 2]
    # a plain star is inked at its centre; the ring's star is cut out of its disc, the wheel's hub inked
    assert (centre < 64) if icon == "ring" else (centre > 192)
    left_edge = mask[mask.shape[0] // 2, 0]  # a disc reaches its box's edge, a star's arms do not
    assert (left_edge < 64) if icon == "star" else (left_edge > 128)
    assert (mask > 128).mean() > 0.2


def test_mixed_case_joker_words_are_written_downwards_letter_by_letter():
    style = next(s for s in styles(7, 300, "train", jokers="wide") if s.joker.corner == "word")
    upper = index_block(dataclasses.replace(style, joker=dataclasses.replace(style.joker, word="JOKER")), "SB", 40.0)
    mixed = index_block(dataclasses.replace(style, joker=dataclasses.replace(style.joker, word="Joker")), "SB", 40.0)
    (u, _, _, _), (m, _, _, _) = upper[0], mixed[0]
    assert m.shape[0] < u.shape[0]  # small letters are shorter than capitals
    assert m.shape[0] > 3 * m.shape[1] * 0.5  # still a column, not a line


def test_heldout_styles_are_disjoint_from_training_styles():
    train, held = styles(3, 300, "train"), styles(3, 300, "heldout")
    train_fams, held_fams = {s.family for s in train}, {s.family for s in held}
    assert not train_fams & held_fams  # no held-out deck prints its ranks in a training font
    assert set(fonts.families("train")).isdisjoint(fonts.families("heldout"))
    assert len(held_fams) >= 3 and len(train_fams) >= 3
    # and choices training never makes appear in held-out decks
    assert "jumbo" in {s.index_layout for s in held} and "jumbo" not in {s.index_layout for s in train}
    assert "mosaic" in {s.court for s in held} and "mosaic" not in {s.court for s in train}
    assert {s.back.pattern for s in held}.isdisjoint({s.back.pattern for s in train})
    assert not {s.name for s in train} & {s.name for s in held}
    # writing on props (score sheets, mats) never uses a held-out family either
    assert {f.family for f in fonts.script_fonts()} <= set(fonts.families("train"))


def test_extra_fonts_only_where_a_recipe_asks_and_never_a_held_out_look_alike():
    extra = set(fonts.families("train", "extra")) - set(fonts.families("train"))
    assert extra and extra <= fonts.EXTRA_TRAIN_FAMILIES  # scripts/system-packages.sh installs them
    base, more = styles(9, 300, "train"), styles(9, 300, "train", font_set="extra")
    assert not {s.family for s in base} & fonts.EXTRA_TRAIN_FAMILIES  # the older recipes draw as they did
    assert len({s.family for s in more} & extra) >= 10
    everywhere = set(fonts.families("train", "extra")) | set(fonts.families("heldout", "extra"))
    assert not everywhere & fonts.LOOKALIKE_FAMILIES
    assert "Nimbus Roman" in {f.family for f in fonts.catalogue()}  # installed, yet in neither split
    assert fonts.families("heldout", "extra") == fonts.families("heldout")
    with pytest.raises(ValueError, match="font set"):
        styles(9, 1, "train", font_set="all")


def test_style_variety():
    ss = styles(1, 200, "train")
    assert {s.index_layout for s in ss} == set(INDEX_LAYOUTS["train"])
    assert {s.pip_layout for s in ss} == set(PIP_LAYOUTS["train"])
    assert {s.court for s in ss} == set(COURT_ARTS["train"])
    assert {s.size_cm for s in ss} == {(6.3, 8.8), (5.7, 8.8)}
    assert any(s.four_colour for s in ss) and not all(s.four_colour for s in ss)
    assert any(s.four_index for s in ss)
    assert len({s.joker.corner for s in ss}) >= 2
    kinds = {s.font.kind for s in ss}
    assert "ttf" in kinds and kinds & {"cv2", "hershey"}


def _hsv(bgr) -> tuple[float, float, float]:
    import colorsys

    h, s, v = colorsys.rgb_to_hsv(*(c / 255 for c in reversed(bgr)))
    return h * 360, s, v


def test_many_inks_spread_training_decks_inks_and_nothing_else():
    """``inks: many`` draws the same decks with the same random numbers, only their inks
    spread wide; held-out decks are untouched and no training ink is their orange."""
    plain, many = styles(5, 400, "train"), styles(5, 400, "train", inks="many")
    same_but_inks = [dataclasses.replace(s, inks=m.inks, frame_colour=m.frame_colour)
                     for s, m in zip(plain, many, strict=True)]
    assert same_but_inks == many
    assert [s.four_colour for s in plain] == [m.four_colour for m in many]
    four = [m for m in many if m.four_colour]
    club_hues = [_hsv(m.ink("C"))[0] for m in four]
    diamond_hues = [_hsv(m.ink("D"))[0] for m in four]
    assert min(club_hues) < 100 and max(club_hues) > 170  # yellow-green ... teal and cyan
    assert min(diamond_hues) < 215 and max(diamond_hues) > 270  # sky blue ... violet
    heart_hues = [_hsv(m.ink("H"))[0] for m in many]
    assert all(h >= 330 or h <= 15 for h in heart_hues) and max(diamond_hues) <= 290  # no diamond near a heart
    standard_clubs = [_hsv(s.ink("C"))[0] for s in plain if s.four_colour]
    lo, hi = min(standard_clubs), max(standard_clubs)
    assert sum(not lo <= h <= hi for h in club_hues) >= 0.3 * len(club_hues)  # hues no standard deck prints
    for m in many:
        for suit in "SHCD":
            hue, sat, value = _hsv(m.ink(suit))
            assert not (20 <= hue <= 50 and sat > 0.5 and value > 0.5), (m.name, suit)  # the held-out orange
    assert styles(5, 50, "heldout", inks="many") == styles(5, 50, "heldout")
    with pytest.raises(ValueError, match="inks"):
        styles(5, 1, "train", inks="all")


def test_card_sizes_follow_the_deck():
    poker = dataclasses.replace(styles(1, 1)[0], size_cm=(6.3, 8.8))
    bridge = dataclasses.replace(poker, size_cm=(5.7, 8.8))
    assert render_card("S5", poker, 10)[0].shape == (88, 63, 3)
    assert render_card("S5", bridge, 10)[0].shape == (88, 57, 3)
    assert card_size_px(poker, 20) == (126, 176)


@pytest.mark.parametrize("style", FAMILY_STYLES, ids=lambda s: f"{s.split}-{s.family}")
def test_all_54_cards_render_in_every_style_family(style: DeckStyle):
    crops = {}
    for card in ALL_CARDS:
        img, boxes = render_card(card, style, PPC)
        h, w = img.shape[:2]
        assert len(boxes) == (4 if style.four_index else 2)
        paper = float(np.mean(_grey(np.array([[style.paper]], np.uint8))))
        for k, (x0, y0, x1, y1) in enumerate(boxes):
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            crop = _grey(img[int(y0):int(np.ceil(y1)), int(x0):int(np.ceil(x1))])
            assert crop.min() < paper - 40, f"{card} index {k} has no ink"
        # top-left and bottom-right indices are the same print turned 180°
        tl = boxes[0]
        br = boxes[1]
        assert br == pytest.approx((w - tl[2], h - tl[3], w - tl[0], h - tl[1]), abs=1.01)
        x0, y0, x1, y1 = (int(round(v)) for v in tl)
        crops[card] = img[y0:y1, x0:x1].tobytes() + bytes(str((x1 - x0, y1 - y0)), "ascii")
    # every card's index differs from every other's (jokers by colour or characters)
    assert len(set(crops.values())) == len(ALL_CARDS)


def test_index_boxes_lie_in_the_corners():
    for style in styles(2, 10):
        img, boxes = render_card("HQ", style, 20)
        h, w = img.shape[:2]
        x0, y0, x1, y1 = boxes[0]
        assert x0 < 0.5 * 20 and y0 < 0.6 * 20  # within about 5 mm of the corner
        assert x1 < w / 2 and y1 < h / 2


def test_suit_masks_differ_and_fill_their_box():
    shape = SuitShape()
    masks = {s: suit_mask(s, 40, shape) for s in "SHCD"}
    for s, m in masks.items():
        cover = (m > 127).mean()
        assert 0.3 < cover < 0.85, s
    assert len({m.tobytes() for m in masks.values()}) == 4


@pytest.mark.parametrize("style", FAMILY_STYLES[::4], ids=lambda s: s.font.family)
def test_index_marks_are_the_heights_the_index_is_drawn_at(style: DeckStyle):
    """The sidecars' rank_cm and suit_cm (what eval-detector's by-suit-sign table uses) are
    the heights the renderer draws the index's two marks at, not a second guess at them."""
    ppc = 40.0
    for card in ("S5", "CK", "HT", "DA"):
        rank_cm, suit_cm = index_marks_cm(style, card)
        rank, sign = index_block(style, card, ppc)
        assert rank_cm == style.rank_cap_cm and suit_cm <= rank_cm
        assert abs(sign[0].shape[0] - 2 - suit_cm * ppc) <= 1.0, card  # the mask has a pixel of margin
    for joker in ("SB", "HR"):
        tall, same = index_marks_cm(style, joker)
        assert tall == same and tall >= style.joker.letter_cm


def test_text_masks_have_the_requested_cap_height():
    for font in fonts.catalogue()[:6]:
        m = fonts.text_mask(font, "K", 30)
        assert 26 <= m.shape[0] <= 34, font
        assert not m.flags.writeable


def test_hershey_faces_render_where_opencv_has_them():
    # OpenCV 4 draws these as stroke fonts; OpenCV 5 maps them onto its built-in faces
    for name in ("simplex", "duplex", "complex", "triplex", "italic"):
        m = fonts.text_mask(fonts.FontSpec(f"hershey-{name}", "hershey", name, weight=500), "10", 24)
        assert 20 <= m.shape[0] <= 30 and m.max() > 200


def test_cjk_jokers_when_a_cjk_font_exists():
    if fonts.cjk_font() is None:
        pytest.skip("no CJK font on this machine")
    style = styles(4, 1)[0]
    style = dataclasses.replace(style, joker=dataclasses.replace(style.joker, corner="cjk", centre_cjk=True))
    big, small = card_image("HR", style, PPC), card_image("SB", style, PPC)
    assert big.boxes[0][3] - big.boxes[0][1] > 1.5 * (big.boxes[0][2] - big.boxes[0][0])  # written downwards
    assert big.bgr.tobytes() != small.bgr.tobytes()
    # the big joker is coloured, the small one grey
    def colourfulness(img: np.ndarray) -> float:
        return float(np.abs(img.astype(int) - img.mean(axis=2, keepdims=True)).mean())
    assert colourfulness(big.bgr) > colourfulness(small.bgr)


def test_backs_render():
    for style in styles(9, 6, "train") + styles(9, 4, "heldout"):
        back = render_back(style, PPC)
        assert back.shape[:2] == card_size_px(style, PPC)[::-1]
        assert back.std() > 5


def test_save_contact_sheets():
    ARTIFACTS.mkdir(exist_ok=True)
    cards = ["SA", "H5", "CT", "D9", "S7", "HJ", "CQ", "DK", "SB", "HR"]
    for split in ("train", "heldout"):
        sheet = contact_sheet(styles(21, 6, split), cards, 16.0)
        assert cv2.imwrite(str(ARTIFACTS / f"synth-cards-{split}.png"), sheet)
