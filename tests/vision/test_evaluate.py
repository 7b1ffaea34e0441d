"""The detector's figures (vision/training/evaluate.py): COCO-style AP and card-level matching."""

import numpy as np
import pytest

from vision.live.detector import Detection
from vision.training.evaluate import (
    LEGIBLE,
    ImageResult,
    Legibility,
    average_precision,
    by_index_size,
    by_sharpness,
    by_suit_size,
    by_turn,
    card_level,
    classify_confusion,
    label_sharpness,
    map_scores,
    sharp_suit_signs,
)


def image(truth: list[tuple[str, tuple]], dets: list[tuple[str, float, tuple]]) -> ImageResult:
    return ImageResult([c for c, _ in truth], np.array([b for _, b in truth], float).reshape(-1, 4),
                       [Detection(c, p, b) for c, p, b in dets])


def test_average_precision_of_perfect_and_of_half_found():
    assert average_precision([0.9, 0.8], [True, True], 2) == pytest.approx(1.0)
    assert average_precision([0.9], [True], 2) == pytest.approx(51 / 101)  # recall 0.5: 51 of 101 points
    # a false positive ranked first halves the precision everywhere
    assert average_precision([0.9, 0.8], [False, True], 1) == pytest.approx(0.5)
    assert average_precision([], [], 3) == 0.0


def test_map_over_cards_counts_misreads_and_loose_boxes():
    box = (10, 10, 30, 50)
    perfect = [image([("S5", box), ("HR", (60, 10, 80, 50))], [("S5", 0.9, box), ("HR", 0.8, (60, 10, 80, 50))])]
    assert map_scores(perfect)["map50"] == pytest.approx(1.0) and map_scores(perfect)["map50_95"] == pytest.approx(1.0)
    misread = [image([("S5", box), ("HR", (60, 10, 80, 50))], [("S3", 0.9, box), ("HR", 0.8, (60, 10, 80, 50))])]
    assert map_scores(misread)["map50"] == pytest.approx(0.5)  # S5 never found, HR perfect
    loose = [image([("S5", box)], [("S5", 0.9, (12, 14, 30, 50))])]  # IoU 0.81: counts at 0.5-0.8, not above
    scores = map_scores(loose)
    assert scores["map50"] == pytest.approx(1.0) and scores["map50_95"] == pytest.approx(0.7)


def test_card_level_names_wrong_missed_duplicate_and_false_readings():
    box = (10, 10, 30, 50)
    results = [image([("S6", box), ("H2", (60, 10, 80, 50)), ("DK", (100, 10, 120, 50))],
                     [("S9", 0.9, box), ("H2", 0.8, (60, 10, 80, 50)), ("H2", 0.7, (61, 10, 81, 50)),
                      ("CA", 0.6, (200, 10, 220, 50)), ("DK", 0.1, (100, 10, 120, 50))])]
    level = card_level(results, conf=0.25)
    assert (level.labelled, level.correct, level.wrong, level.duplicates, level.false_positives, level.missed) == \
        (3, 1, 1, 1, 1, 1)
    assert level.confusions["6/9 (180° rotation)"] == 1
    assert classify_confusion("SB", "HR") == "jokers" and classify_confusion("H4", "D4") == "heart/diamond"


def test_illegible_labels_become_ignore_regions_not_misses_or_false_readings():
    sharp, hidden = (10, 10, 30, 50), (60, 10, 80, 50)
    meta = {"sharp_px_per_cm": 9.0, "visible": [1.0, 0.7]}
    result = ImageResult(["S5", "H3"], np.array([sharp, hidden], float),
                         [Detection("S5", 0.9, sharp), Detection("H8", 0.8, hidden),
                          Detection("CA", 0.7, (200, 10, 220, 50))], meta)
    legible = result.only(Legibility(min_sharp=8, min_visible=0.95))
    assert legible.truth == ["S5"] and [d.card for d in legible.detections] == ["S5", "CA"]
    level = card_level([legible], conf=0.25)
    assert (level.labelled, level.correct, level.wrong, level.false_positives) == (1, 1, 0, 1)
    # the same image photographed too coarsely: nothing in it is asked of the reader
    blurred = ImageResult(result.truth, result.truth_boxes, result.detections, {**meta, "sharp_px_per_cm": 5.0})
    assert card_level([blurred.only(Legibility(min_sharp=8))], conf=0.25).labelled == 0
    # without a sidecar every label counts
    bare = ImageResult(result.truth, result.truth_boxes, result.detections)
    assert bare.only() is bare


def test_in_an_oblique_picture_each_label_is_as_sharp_as_the_picture_is_there():
    """A leaning camera's picture (sidecar ``view_scale``): a near index keeps more pixels of
    the table than a far one, so one may be legible and the other not; its suit sign too."""
    meta = {"sharp_px_per_cm": 10.0, "visible": [1.0, 1.0], "view_scale": [0.9, 0.6], "suit_cm": [0.5, 0.5]}
    assert label_sharpness(meta, 2).tolist() == pytest.approx([9.0, 6.0])
    assert Legibility(min_sharp=8).mask(meta, 2).tolist() == [True, False]
    result = ImageResult(["S5", "H3"], np.array([(10, 10, 30, 50), (60, 10, 80, 50)], float), [], meta)
    assert sharp_suit_signs(result).tolist() == pytest.approx([4.5, 3.0])
    with pytest.raises(ValueError, match="1 view scales"):
        label_sharpness({**meta, "view_scale": [0.9]}, 2)


def test_a_sidecar_that_disagrees_with_its_labels_is_an_error():
    with pytest.raises(ValueError, match="sidecar lists 1 labels"):
        Legibility().mask({"sharp_px_per_cm": 9.0, "visible": [1.0]}, 2)


def test_accuracy_by_sharpness_puts_each_image_in_its_band():
    box = (10, 10, 30, 50)
    coarse = ImageResult(["S5"], np.array([box], float), [Detection("S3", 0.9, box)],
                         {"sharp_px_per_cm": 5.0, "visible": [1.0]})
    fine = ImageResult(["S5"], np.array([box], float), [Detection("S5", 0.9, box)],
                       {"sharp_px_per_cm": 16.0, "visible": [1.0]})
    rows = {tuple(r["sharp_px_per_cm"]): r for r in by_sharpness([coarse, fine], conf=0.25)}
    assert rows[(4, 6)]["labelled"] == 1 and rows[(4, 6)]["wrong"] == 1 and rows[(4, 6)]["accuracy"] == 0
    assert rows[(15, None)]["correct"] == 1 and rows[(15, None)]["accuracy"] == 1
    assert sum(r["labelled"] for r in rows.values()) == 2


def test_accuracy_by_index_size_bands_each_label_by_its_sharp_pixels():
    small, big, hidden = (10, 10, 20, 22), (60, 10, 80, 50), (100, 10, 120, 50)
    # 12 and 40 pixels long, in a photograph whose blur leaves half its pixels sharp: 6 and 20
    result = ImageResult(["S5", "H3", "DK"], np.array([small, big, hidden], float),
                         [Detection("S3", 0.9, small), Detection("H3", 0.8, big), Detection("DK", 0.8, hidden)],
                         {"px_per_cm": 16.0, "sharp_px_per_cm": 8.0, "visible": [1.0, 1.0, 0.5]})
    rows = {tuple(r["sharp_px"]): r for r in by_index_size([result], conf=0.25)}
    assert (rows[(0, 10)]["labelled"], rows[(0, 10)]["wrong"]) == (1, 1)
    assert (rows[(18, 22)]["labelled"], rows[(18, 22)]["correct"]) == (1, 1)
    assert sum(r["labelled"] for r in rows.values()) == 2  # the half-hidden index is in no band
    assert all(r["labelled"] == 0 for k, r in rows.items() if k not in ((0, 10), (18, 22)))
    # a sidecar without the zone's px/cm (or none at all) puts nothing in the table
    older = ImageResult(result.truth, result.truth_boxes, result.detections,
                        {"sharp_px_per_cm": 8.0, "visible": [1.0, 1.0, 0.5]})
    assert sum(r["labelled"] for r in by_index_size([older], conf=0.25)) == 0


def test_accuracy_by_suit_sign_bands_each_label_by_its_printed_sign_and_the_sharpness():
    a, b, c = (10, 10, 20, 22), (60, 10, 80, 50), (100, 10, 120, 50)
    # suit signs printed 0.3 and 0.9 cm tall, photographed at 10 sharp px/cm: 3 and 9 pixels
    result = ImageResult(["C5", "S3", "DK"], np.array([a, b, c], float),
                         [Detection("S5", 0.9, a), Detection("S3", 0.8, b)],
                         {"px_per_cm": 12.0, "sharp_px_per_cm": 10.0, "visible": [1.0, 1.0, 1.0],
                          "rank_cm": [1.2, 1.0, 1.0], "suit_cm": [0.3, 0.9, 0.45]})
    rows = {tuple(r["sharp_px"]): r for r in by_suit_size([result], conf=0.25)}
    assert (rows[(3, 4)]["labelled"], rows[(3, 4)]["wrong"]) == (1, 1)
    assert (rows[(8, None)]["labelled"], rows[(8, None)]["correct"]) == (1, 1)
    assert (rows[(4, 5)]["labelled"], rows[(4, 5)]["missed"]) == (1, 1)
    assert sum(r["labelled"] for r in rows.values()) == 3
    # only the legible set (LEGIBLE: 8 sharp px/cm and more): the same photograph at 6 is in no band
    assert sum(r["labelled"] for r in by_suit_size([result], conf=0.25, legibility=LEGIBLE)) == 3
    blurred = ImageResult(result.truth, result.truth_boxes, result.detections, {**result.meta, "sharp_px_per_cm": 6.0})
    assert sum(r["labelled"] for r in by_suit_size([blurred], conf=0.25, legibility=LEGIBLE)) == 0
    assert sum(r["labelled"] for r in by_suit_size([blurred], conf=0.25)) == 3
    # sidecars written before the sign heights were recorded put nothing in the table
    older = ImageResult(result.truth, result.truth_boxes, result.detections,
                        {"px_per_cm": 12.0, "sharp_px_per_cm": 10.0, "visible": [1.0, 1.0, 1.0]})
    assert sum(r["labelled"] for r in by_suit_size([older], conf=0.25)) == 0


def test_accuracy_by_turn_bands_each_label_by_how_far_it_lies_off_square():
    a, b, c = (10, 10, 20, 22), (60, 10, 80, 50), (100, 10, 120, 50)
    # upright, sideways-and-a-bit (turned 97°: 7° off square) and at a slant (-140°: 40° off)
    result = ImageResult(["C5", "S3", "DK"], np.array([a, b, c], float),
                         [Detection("C5", 0.9, a), Detection("S5", 0.8, b)],
                         {"px_per_cm": 12.0, "sharp_px_per_cm": 10.0, "visible": [1.0, 1.0, 1.0],
                          "turn_deg": [0.0, 97.0, -140.0]})
    rows = {tuple(r["degrees"]): r for r in by_turn([result], conf=0.25)}
    assert (rows[(0, 5)]["labelled"], rows[(0, 5)]["correct"]) == (1, 1)
    assert (rows[(5, 15)]["labelled"], rows[(5, 15)]["wrong"]) == (1, 1)
    assert (rows[(30, None)]["labelled"], rows[(30, None)]["missed"]) == (1, 1)
    assert rows[(15, 30)]["labelled"] == 0
    # sidecars written before the turns were recorded put nothing in the table
    older = ImageResult(result.truth, result.truth_boxes, result.detections,
                        {"px_per_cm": 12.0, "sharp_px_per_cm": 10.0, "visible": [1.0, 1.0, 1.0]})
    assert sum(r["labelled"] for r in by_turn([older], conf=0.25)) == 0
