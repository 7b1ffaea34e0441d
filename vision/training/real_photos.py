"""Real photographs of cards, labelled by card, and how many of those cards the detector reads.

The only real photographs the project has (``../shared/realphotos/edje``) are phone photos
labelled in Pascal VOC with a box round each **whole visible card** and its **rank** only
(nine to ace; the suit is not labelled). The detector finds corner indices, so the fair
question is per card: is an index found inside the card's box read at the card's rank? And
how many index readings inside a card's box have a rank that card does not have?
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from vision.live.detector import Detection

#: the labels' rank names, as the cards' rank letters
RANK_OF_LABEL = {"nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "ace": "A"}
IMAGE_SUFFIXES = (".jpg", ".JPG", ".jpeg", ".JPEG", ".png", ".PNG")


@dataclass(frozen=True)
class LabelledCard:
    rank: str
    box: tuple[float, float, float, float]  # x1 y1 x2 y2, the whole visible card

    def holds(self, detection: Detection) -> bool:
        """Whether the detection's centre lies in the card's box."""
        x1, y1, x2, y2 = self.box
        cx, cy = (detection.box[0] + detection.box[2]) / 2, (detection.box[1] + detection.box[3]) / 2
        return x1 <= cx <= x2 and y1 <= cy <= y2


def read_voc(path: Path) -> list[LabelledCard]:
    """The labelled cards of one Pascal VOC file (labels other than the six ranks left out)."""
    cards = []
    for obj in ET.parse(path).getroot().iter("object"):
        rank = RANK_OF_LABEL.get((obj.findtext("name") or "").strip().lower())
        box = obj.find("bndbox")
        if rank is not None and box is not None:
            cards.append(LabelledCard(rank, tuple(float(box.findtext(k)) for k in ("xmin", "ymin", "xmax", "ymax"))))
    return cards


def labelled_photos(folder: Path) -> list[tuple[Path, list[LabelledCard]]]:
    """Each photo in ``folder`` that has a VOC file beside it, with its cards."""
    out = []
    for xml in sorted(folder.glob("*.xml")):
        image = next((xml.with_suffix(s) for s in IMAGE_SUFFIXES if xml.with_suffix(s).exists()), None)
        if image is not None:
            out.append((image, read_voc(xml)))
    return out


@dataclass
class CardsRead:
    """Cards read at the right rank, of how many, and index readings inside a card that name
    a rank no card around them has."""

    cards: int = 0
    read: int = 0
    readings: int = 0
    wrong: int = 0

    def add(self, cards: list[LabelledCard], found: list[Detection]) -> None:
        """One photo's cards and what the detector found in it (jokers have no rank here)."""
        ranked = [d for d in found if len(d.card) == 2]
        self.cards += len(cards)
        self.read += sum(any(d.card[1] == c.rank and c.holds(d) for d in ranked) for c in cards)
        for d in ranked:
            around = {c.rank for c in cards if c.holds(d)}
            if around:
                self.readings += 1
                self.wrong += d.card[1] not in around

    @property
    def share(self) -> float:
        return self.read / self.cards if self.cards else 0.0
