"""Teaching the reader an enrolled deck: besides its indices, the patches of no index are
cut around the deck's own printing away from the corners — a lone pip at a zone's edge can
be read surely as a joker's corner star by a reader that has only seen felt and random
pieces of faces as "no index"."""

import cv2
import numpy as np

from engine.cards import ALL_CARDS
from vision.enroll import adapt
from vision.enroll.adapt import IndexedFace, deck_patches, ink_off_the_corners, pip_patch, play_row
from vision.live.reader import NOT_AN_INDEX, PATCH


def _face(card: str, pips: int) -> IndexedFace:
    """A plain face at the zones' scale: its index in the top-left corner and turned in the
    bottom-right one, ``pips`` pips down its middle, red for hearts and diamonds."""
    h, w = 86, 57
    ink = (40, 40, 200) if card[0] in "HD" else (30, 30, 30)
    face = np.full((h, w, 3), 238, np.uint8)
    cv2.rectangle(face, (0, 0), (w - 1, h - 1), (150, 150, 150), 1)
    cv2.putText(face, card[1], (3, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, ink, 1, cv2.LINE_AA)
    cv2.circle(face, (7, 18), 3, ink, -1)
    face[h - 24:, w - 14:] = np.rot90(face[:24, :14], 2)
    for i in range(pips):
        cv2.circle(face, (w // 2 + (i % 2) * 12 - 6, 22 + (i // 2) * 12), 4, ink, -1)
    return IndexedFace(card, face.astype(np.float32), (2.0, 2.0, 12.0, 23.0))


def _faces(cards) -> list[IndexedFace]:
    return [_face(card, 2 + n % 6) for n, card in enumerate(cards)]


def test_the_ink_of_a_face_is_its_pips_and_never_its_corner_indices():
    face = _faces(["S9"])[0]
    mask = ink_off_the_corners(face)
    h, w = mask.shape
    x1, y1, x2, y2 = (int(v) for v in face.index)
    assert mask[h // 2 - h // 4:h // 2 + h // 4, w // 4:3 * w // 4].sum() > 10  # the pips between
    for corner in (mask[:y2 + 1, :x2 + 1], mask[:y2 + 1, w - x2 - 1:],
                   mask[h - y2 - 1:, :x2 + 1], mask[h - y2 - 1:, w - x2 - 1:]):
        assert corner.sum() == 0
    blank = IndexedFace("SB", np.full((90, 60, 3), 235, np.float32), (2, 2, 10, 18))
    assert ink_off_the_corners(blank).sum() == 0  # plain paper has no ink


def test_a_play_row_says_where_its_faces_show_ink_off_their_indices():
    faces = _faces(["H8", "C5", "DK"])
    picture, boxes, ink = play_row(faces, (40, 110, 60), np.random.default_rng(3))
    assert [card for card, _ in boxes] == ["H8", "C5", "DK"]
    assert len(ink) > 100
    grey = picture.astype(np.int16).mean(axis=2)
    paper = np.median([grey[int(b[3]) + 6, int(b[0]) + 3] for _, b in boxes])
    inked = grey[ink[:, 1], ink[:, 0]]
    assert np.median(inked) < paper - 40  # the points are printing, not paper
    for _, (x1, y1, x2, y2) in boxes:
        inside = (ink[:, 0] >= x1) & (ink[:, 0] < x2) & (ink[:, 1] >= y1) & (ink[:, 1] < y2)
        assert not inside.any()


def test_the_patches_of_no_index_add_one_a_card_cut_around_the_decks_printing(monkeypatch):
    faces = _faces(ALL_CARDS[:12])
    light_cloth = (180, 200, 185)
    patches = deck_patches(faces, light_cloth, 0.2, rows=30, seed=1)
    indices = int((patches.classes != NOT_AN_INDEX).sum())
    assert patches.images.shape[1:] == (PATCH, PATCH, 3)
    laid = adapt.play_row
    monkeypatch.setattr(adapt, "play_row", lambda *args: (*laid(*args)[:2], np.empty((0, 2), np.int64)))
    anywhere = deck_patches(faces, light_cloth, 0.2, rows=30, seed=1)
    assert int((anywhere.classes == NOT_AN_INDEX).sum()) <= int((anywhere.classes != NOT_AN_INDEX).sum())
    assert int((patches.classes == NOT_AN_INDEX).sum()) >= 1.6 * indices  # and one more a card on printing


def test_a_pip_patch_holds_the_pip_it_was_cut_around_even_at_the_pictures_edge():
    picture = np.full((120, 160, 3), 235, np.uint8)
    cv2.circle(picture, (80, 6), 4, (30, 30, 30), -1)  # a pip by the top edge, as a zone's edge cuts a card
    rng = np.random.default_rng(0)
    for _ in range(40):
        cut = pip_patch(picture, (80.0, 6.0), 20.0, 0.2, rng)
        assert cut.shape == (PATCH, PATCH, 3)
        assert (cut.mean(axis=2) < 120).mean() > 0.01
