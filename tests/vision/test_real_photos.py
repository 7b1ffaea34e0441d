"""Scoring the detector on real photographs labelled by whole card and rank (Pascal VOC)."""

from pathlib import Path

import cv2
import numpy as np

from vision.live.detector import Detection
from vision.training.real_photos import CardsRead, LabelledCard, labelled_photos, read_voc

VOC = """<annotation><filename>a.jpg</filename>
<object><name>ace</name><bndbox><xmin>10</xmin><ymin>10</ymin><xmax>110</xmax><ymax>160</ymax></bndbox></object>
<object><name>Nine</name><bndbox><xmin>200</xmin><ymin>10</ymin><xmax>300</xmax><ymax>160</ymax></bndbox></object>
<object><name>joker</name><bndbox><xmin>0</xmin><ymin>0</ymin><xmax>5</xmax><ymax>5</ymax></bndbox></object>
</annotation>"""


def test_a_voc_file_gives_each_ranked_card_with_its_whole_box(tmp_path: Path):
    (tmp_path / "a.xml").write_text(VOC)
    cv2.imwrite(str(tmp_path / "a.jpg"), np.zeros((200, 320, 3), np.uint8))
    (tmp_path / "b.xml").write_text(VOC)  # no photo beside it: left out
    cards = read_voc(tmp_path / "a.xml")
    assert cards == [LabelledCard("A", (10.0, 10.0, 110.0, 160.0)), LabelledCard("9", (200.0, 10.0, 300.0, 160.0))]
    assert labelled_photos(tmp_path) == [(tmp_path / "a.jpg", cards)]


def test_a_card_is_read_when_an_index_inside_it_has_its_rank_and_wrong_ranks_inside_cards_are_counted():
    ace, nine = LabelledCard("A", (10, 10, 110, 160)), LabelledCard("9", (200, 10, 300, 160))
    found = [Detection("SA", 0.9, (12, 12, 22, 40)),  # the ace's index, read right
             Detection("H9", 0.8, (95, 130, 105, 158)),  # inside the ace, a rank it has not
             Detection("C9", 0.7, (500, 10, 510, 30)),  # outside every card: no reading counted
             Detection("ST", 0.6, (205, 12, 215, 40))]  # the nine read as a ten
    tally = CardsRead()
    tally.add([ace, nine], found)
    assert (tally.cards, tally.read, tally.readings, tally.wrong) == (2, 1, 3, 2)
    assert tally.share == 0.5
    tally.add([nine], [Detection("D9", 0.9, (250, 50, 260, 80))])
    assert (tally.cards, tally.read, tally.readings, tally.wrong) == (3, 2, 4, 2)
