"""Real deck designs: the manifest's splits, faces cut from the packaged SVGs, index boxes
measured on them, and scenes, games and layouts rendered with them."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.cards import ALL_CARDS
from vision.live.detector import MODELS
from vision.live.reader import IndexReader
from vision.synth.art_decks import MANIFEST, ArtDeck, by_name, draw_deck, entries, face, installed, load_manifest
from vision.synth.art_faces import ArtError, IndexBox, element_for, element_ids, find_index
from vision.synth.build import build
from vision.synth.deck import card_image, marks_cm, prints
from vision.synth.labels import CLASS_OF
from vision.synth.render_game import render

# make check leaves these out: real decks drawn from their SVGs
pytestmark = pytest.mark.slow

PPC = 40.0  # faces are kept at 40 px/cm


def synthetic_face(frame: bool) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A white card 252×352 with an outline, a rank bar and a suit blot in its corner (the
    index, whose box is returned), a big pip in the middle and, if ``frame``, a court's frame
    starting just right of the index and running down into the middle."""
    face = np.full((352, 252, 4), 255, np.uint8)
    cv2.rectangle(face, (0, 0), (251, 351), (0, 0, 0, 255), 2)
    cv2.rectangle(face, (12, 14), (30, 48), (0, 0, 0, 255), -1)  # the rank
    cv2.circle(face, (21, 64), 8, (0, 0, 200, 255), -1)  # its suit sign, 8 px under it
    cv2.circle(face, (126, 176), 30, (0, 0, 0, 255), -1)  # the centre pip
    if frame:
        cv2.rectangle(face, (40, 20), (212, 332), (0, 0, 0, 255), 2)
        cv2.rectangle(face, (46, 26), (60, 40), (40, 40, 200, 255), -1)  # art inside the frame, near the index
    return face, (12, 14, 31, 73)


@pytest.mark.parametrize("frame", [False, True])
def test_the_index_is_the_corner_ink_without_the_outline_the_frame_or_the_art(frame: bool) -> None:
    image, (x0, y0, x1, y1) = synthetic_face(frame)
    found = find_index(image, PPC)
    assert found is not None
    assert found.box == pytest.approx((x0, y0, x1, y1), abs=1)
    assert found.rank_cm == pytest.approx(35 / PPC, abs=0.03)  # rows 14..48
    assert found.suit_cm == pytest.approx(17 / PPC, abs=0.03)


def test_a_face_with_nothing_in_its_corner_has_no_index() -> None:
    image = np.full((352, 252, 4), 255, np.uint8)
    cv2.rectangle(image, (0, 0), (251, 351), (0, 0, 0, 255), 2)
    cv2.ellipse(image, (126, 176), (100, 160), 0, 0, 360, (0, 0, 200, 255), -1)  # a picture-only joker
    assert find_index(image, PPC) is None


def test_the_manifest_keeps_families_whole_and_leaves_out_what_guandan_is_not_played_with() -> None:
    decks = load_manifest()
    train = {d.family for d in decks if d.split == "train"}
    heldout = {d.family for d in decks if d.split == "heldout"}
    assert train and heldout and not train & heldout
    assert {"anglo", "paris", "tigullio", "oxygen"} <= heldout
    excluded = {d.name: d.reason for d in decks if d.split == "excluded"}
    assert {"swiss-xvii", "tarocco", "xskat-german"} <= set(excluded) and all(excluded.values())
    assert all(d.licence for d in decks)
    assert not any("knoll" in (d.name + d.credit).lower() for d in decks)


def test_a_manifest_splitting_a_family_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "decks.toml"
    bad.write_text(MANIFEST.read_text(encoding="utf-8").replace(
        'name = "paris"\npackage = "gnome-cards-data"\nfile = "paris.svgz"\nfamily = "paris"\nsplit = "heldout"',
        'name = "paris"\npackage = "gnome-cards-data"\nfile = "paris.svgz"\nfamily = "paris"\nsplit = "train"'),
        encoding="utf-8")
    with pytest.raises(ArtError, match="family paris is split"):
        load_manifest(bad)


def _installed_or_skip(name: str):
    entry = next(e for e in load_manifest() if e.name == name)
    if not installed(entry):
        pytest.skip(f"{entry.package} is not installed (scripts/system-packages.sh installs it)")
    return entry


@pytest.mark.parametrize("name", ["anglo", "kde-standard"])
def test_both_packages_name_every_card_and_the_back(name: str) -> None:
    entry = _installed_or_skip(name)
    ids = element_ids(entry.svg)
    assert all(element_for(card, ids) for card in [*ALL_CARDS[:52], "back"])


@pytest.fixture(scope="module")
def anglo(tmp_path_factory) -> ArtDeck:
    _installed_or_skip("anglo")
    cache = tmp_path_factory.mktemp("art")
    entry = next(e for e in entries("heldout") if e.name == "anglo")
    draw_deck(entry, cache)
    from vision.synth.art_decks import art_deck
    return art_deck(entry, cache)


def test_a_deck_is_drawn_once_into_its_folder_with_every_face_and_index(anglo: ArtDeck) -> None:
    meta = json.loads((anglo.folder / "index.json").read_text(encoding="utf-8"))
    assert set(meta["faces"]) == set(ALL_CARDS) and meta["split"] == "heldout"
    assert anglo.size_cm == pytest.approx((5.7, 8.8), abs=0.5)
    assert prints(anglo, "HR") and prints(anglo, "SB")
    image, index = face(anglo, "S7")
    assert image.shape[2] == 4 and isinstance(index, IndexBox)
    assert not any(p.name.startswith(".") for p in anglo.folder.parent.iterdir())  # no half-drawn folder left


def test_the_index_boxes_of_a_real_deck_are_where_the_present_reader_reads_the_card(anglo: ArtDeck) -> None:
    """The boxes are measured, not typed: the committed reader, cutting its patch round each
    box at a seat zone's scale, must read most of this never-trained deck's cards right — a
    box off the index would read as no index."""
    reader = IndexReader(MODELS / "reader.onnx")
    right = 0
    for card in ALL_CARDS[:52]:
        image = card_image(card, anglo, 12.0)
        (read, _probability), = reader.read(np.ascontiguousarray(image.bgr), [image.boxes[0]])[0]
        right += read == CLASS_OF[card]
    assert right >= 40, right


def test_an_art_card_is_boxed_at_both_corners_and_its_marks_measured(anglo: ArtDeck) -> None:
    image = card_image("D9", anglo, 20.0)
    h, w = image.alpha.shape
    (a0, b0, a1, b1), (c0, d0, c1, d1) = image.boxes
    assert a1 < w / 3 and b1 < h / 3 and c0 > 2 * w / 3 and d0 > 2 * h / 3
    assert (c0, d0, c1, d1) == pytest.approx((w - a1, h - b1, w - a0, h - b0))
    top = image.bgr[int(b0):int(b1), int(a0):int(a1)]
    bottom = np.rot90(image.bgr[int(d0):int(d1), int(c0):int(c1)], 2)
    assert top.min() < 120 and bottom.min() < 120  # ink in both boxes
    rank, suit = marks_cm(anglo, "D9")
    assert 0.3 < suit < rank < 1.5


def test_a_recipe_with_art_lays_real_designs_and_labels_them(tmp_path: Path, anglo: ArtDeck,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vision.synth.build.art_decks", lambda split: [anglo] if split == "heldout" else [])
    recipe = tmp_path / "r.yaml"
    recipe.write_text("name: t\nseed: 3\nimage_size: 320\nstyles: 4\nstyle_block: 1\nart: 1.0\n"
                      "splits:\n  val: {images: 2, styles: heldout}\nscene: {px_per_cm: [12, 14], rows: [1, 1]}\n",
                      encoding="utf-8")
    summary = build(recipe, tmp_path / "out", progress=False, workers=1)
    assert summary.images["val"] == 2 and summary.labels["val"] > 0
    metas = [json.loads(p.read_text()) for p in (tmp_path / "out" / "meta" / "val").glob("*.json")]
    assert all(0 < s < 1.5 for m in metas for s in m["suit_cm"])
    image = cv2.imread(str(next((tmp_path / "out" / "images" / "val").glob("*.jpg"))))
    assert image.shape == (320, 320, 3)


def test_a_game_needs_a_design_that_prints_jokers(tmp_path: Path) -> None:
    _installed_or_skip("oxygen")
    with pytest.raises(ArtError, match="prints no jokers"):
        render(1, tmp_path, art=by_name("oxygen"), max_events=3)


def test_a_layout_of_a_framed_design_with_court_art_to_its_edge_is_read_whole() -> None:
    """The paris design prints a dark frame round each face and court art out to it: by its
    white alone a court card would fall apart and enrollment would miss cards."""
    from vision.enroll.layout import LAYOUT, find_cards, in_reading_order, table_picture
    from vision.live.calibration import Calibration
    from vision.synth.layout_photo import layout_photo

    _installed_or_skip("paris")
    image = layout_photo(105, list(LAYOUT), (1920, 1080), art=by_name("paris"))
    cards = find_cards(table_picture(image, Calibration.from_image(image)))
    assert len(in_reading_order(cards)) == 54
