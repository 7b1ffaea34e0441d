"""A deck folder: what ``guandan enroll`` learnt of one deck, for ``--deck DIR``.

``deck.json`` says what it is (format, the cards' size, the camera's resolution, the pictures
it was learnt from, the doubts left for the operator, the confidence below which its readings
go to the referee: ``doubt``, ``vision.enroll.doubt``); ``reader.onnx`` (with ``reader.pt``,
its weights) is the index reader taught this deck; ``finder_int8_openvino_model/`` the index
finder taught it (absent where enrollment left the committed finder); ``design/`` the faces
as a design the renderer lays (what the finder was taught from); ``faces/`` holds each card
as the camera saw it, ``contact-sheet.png`` all of them with their names, for the operator
to check.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from rulebook.tournament_live import Refusal
from vision.enroll.pictures import LayoutPicture
from vision.live.detector import ZONE, CardDetector, committed_finder
from vision.live.finder import WHOLE

FORMAT = "guandan-deck/1"
READER = "reader.onnx"
SHEET = "contact-sheet.png"


#: with an enrolled deck, a finder's box this sure is an index and the reader alone names the
#: card and says how sure (``CardDetector``'s ``finder_sure``): on a design it never saw the
#: finder's confidence is low even where the index is plain, and a play read right would be
#: flagged for the referee
FINDER_SURE = 0.3
#: and a box the finder taught the deck is this sure of is an index even where the reader
#: says none (``CardDetector``'s ``index_sure``): a reader taught that a lone pip is no
#: index doubts plain indices a little too, and can lose a card between its neighbours
INDEX_SURE = 0.5


class DeckError(Refusal, ValueError):
    """A deck folder that cannot be used (``--deck DIR``): named by a code and the values its
    words need, worded by the rule books in both languages (``rulebook.command_words``)."""


@dataclass(frozen=True)
class Deck:
    folder: Path
    reader: Path
    finder: Path | None = None  # the finder taught this deck, where enrollment taught one
    #: readings below this go to the referee (None: decks enrolled before it was measured,
    #: whose plays the console weighs as it does the zero-shot models')
    doubt: float | None = None

    @classmethod
    def open(cls, folder: str | Path) -> Deck:
        """The deck enrolled in ``folder`` (``DeckError`` if it is not one)."""
        folder = Path(folder)
        try:
            about = json.loads((folder / "deck.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DeckError("deck_not_folder", folder=folder) from None
        except (OSError, ValueError) as exc:
            raise DeckError("deck_unreadable", folder=folder, why=exc) from None
        if about.get("format") != FORMAT:
            raise DeckError("deck_format", folder=folder, format=about.get("format"), reads=FORMAT)
        reader = folder / about.get("reader", READER)
        if not reader.exists():
            raise DeckError("deck_reader_missing", reader=reader)
        finder = None
        if about.get("finder"):
            finder = folder / about["finder"]
            if not (finder / WHOLE).is_dir():
                raise DeckError("deck_finder_missing", finder=finder)
        doubt = about.get("doubt")
        if doubt is not None and (isinstance(doubt, bool) or not isinstance(doubt, int | float) or not 0 < doubt <= 1):
            raise DeckError("deck_doubt", folder=folder, doubt=doubt)
        return cls(folder, reader, finder, doubt)

    def detector(self, weights: Path | None = None, **options) -> CardDetector:
        """The detector with this deck's reader (and no suit reader: the deck's reader learnt
        this deck's suits; the committed one, heard where it is sure, misreads some designs'
        pips and so raises their doubt thresholds),
        trusted over the finder (``FINDER_SURE``), knowing its deck (``own_deck``), and the finder
        ``weights`` — by default the one taught this deck where enrollment taught one (it
        looks at zones, 320), else the committed one of the size asked for."""
        options.setdefault("finder_sure", FINDER_SURE)
        options.setdefault("doubt", self.doubt)
        imgsz = options.get("imgsz", ZONE)
        if weights is None:
            taught = self.finder is not None and imgsz == ZONE
            weights = self.finder if taught else committed_finder(imgsz)
            if taught:
                options.setdefault("index_sure", INDEX_SURE)
        return CardDetector(weights, reader=self.reader, suits=False, own_deck=True, **options)


def _emptied(folder: Path) -> None:
    """``folder`` made empty to enroll into (whether an existing one may be replaced is the
    caller's to ask before the work: ``guandan enroll --force``)."""
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "faces").mkdir(parents=True)


def enroll(folder: Path, layouts: list[LayoutPicture], detector: CardDetector, rows: int | None = None,
           scenes: int | None = None, log=print, progress: bool = True) -> dict:
    """The deck of ``layouts`` (pictures of its layout, read and checked) learnt into
    ``folder`` (emptied first): the reader taught it (``rows`` rows of cards a picture, by
    default ``adapt.ROWS``), the finder taught it from ``scenes`` scenes of it (by default
    ``finder.SCENES``; 0: the committed finder is kept), its doubt threshold measured, the
    faces, the contact sheet and ``deck.json``; returns the reader's training figures, the
    finder's under ``finder``, the threshold's under ``doubt``."""
    # the training and the scene renderer: imported here, not when a table opens its deck
    from vision.enroll.adapt import ROWS, indexed_faces, teach_reader
    from vision.enroll.doubt import calibrate
    from vision.enroll.finder import DESIGN, FOLDER, SCENES, enrolled_design, teach_finder

    rows = ROWS if rows is None else rows
    scenes = SCENES if scenes is None else scenes
    per_layout = [indexed_faces(layout.cards, detector) for layout in layouts]
    faces = [face for found in per_layout for face in found]
    _emptied(folder)
    figures = teach_reader(faces, layouts[0].felt, folder / READER, rows=rows * len(layouts), log=log)
    design = enrolled_design(layouts[0].cards, per_layout[0], folder / DESIGN)
    if scenes > 0:
        log(f"# the reader is taught; now the finder, from {scenes} scenes of this deck")
        figures["finder"] = teach_finder(design, folder, scenes=scenes, log=log, progress=progress)
    finder = FOLDER if scenes > 0 else None
    taught = Deck(folder, folder / READER, folder / finder if finder else None)
    figures["doubt"] = calibrate(design, taught.detector(boxes=False))
    log(f"# readings below {figures['doubt']['doubt']:.2f} will go to the referee "
        f"({figures['doubt']['readings']} readings of {figures['doubt']['zones']} zones of this deck checked)")
    write(folder, layouts[0], [layout.source for layout in layouts], figures, finder)
    return figures


def write(folder: Path, layout: LayoutPicture, sources: list[str], figures: dict, finder: str | None) -> None:
    """``deck.json`` (naming ``finder``, the folder of the finder taught the deck, if one was), the
    faces and the contact sheet (the reader and the finder are written by their trainings)."""
    for card in layout.cards:
        cv2.imwrite(str(folder / "faces" / f"{card.name}.png"), card.face)
    cv2.imwrite(str(folder / SHEET), contact_sheet(layout))
    about = {"format": FORMAT, "reader": READER, "sources": sources,
             "card_cm": [round(float(np.median([c.found.width_cm for c in layout.cards])), 1),
                         round(float(np.median([c.found.height_cm for c in layout.cards])), 1)],
             "camera_px_per_cm": round(layout.camera_px_per_cm, 1),
             "doubts": [{"place": c.place, "card": c.name, "read": c.reading[0], "confidence": round(c.reading[1], 3)}
                        for c in layout.doubts],
             "reader_val_accuracy": round(figures.get("best_val_accuracy", 0.0), 4)}
    if finder is not None:
        about["finder"] = finder
        about["finder_training"] = figures["finder"]
    if "doubt" in figures:
        about["doubt"] = figures["doubt"]["doubt"]
        about["doubt_check"] = {k: v for k, v in figures["doubt"].items() if k != "doubt"}
    (folder / "deck.json").write_text(json.dumps(about, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def contact_sheet(layout: LayoutPicture, width: int = 110) -> np.ndarray:
    """Every card as the camera saw it, in the layout's rows, its name below it (red where
    the camera's present models read it otherwise: a doubt to look at)."""
    doubtful = {c.place for c in layout.doubts}
    cells = []
    for card in layout.cards:
        h = round(card.face.shape[0] * width / card.face.shape[1])
        face = cv2.resize(card.face, (width, h), interpolation=cv2.INTER_AREA)
        cell = np.full((h + 34, width + 10, 3), 255, np.uint8)
        cell[5:5 + h, 5:5 + width] = face
        label = card.name if card.place not in doubtful else f"{card.name}? {card.reading[0]}"
        colour = (0, 0, 200) if card.place in doubtful else (0, 0, 0)
        cv2.putText(cell, label, (8, h + 26), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 1, cv2.LINE_AA)
        cells.append(cell)
    tallest = max(c.shape[0] for c in cells)
    cells = [cv2.copyMakeBorder(c, 0, tallest - c.shape[0], 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
             for c in cells]
    return np.vstack([np.hstack(cells[i:i + 9]) for i in range(0, len(cells), 9)])
