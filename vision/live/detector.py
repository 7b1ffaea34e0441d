"""The card detector: corner indices found in an image and read, whatever backend runs the model.

Two steps. The *finder*, a one-class YOLO, boxes every corner index; the *reader*
(``vision.live.reader``) says which card each box shows, or that it shows none. ``CardDetector``
loads the finder as PyTorch weights (``.pt``, for training), ONNX (``.onnx``) or OpenVINO
(a ``*_openvino_model`` folder, the fastest on a table node's CPU) and returns the same ``Detection``
values from each: the card's platform name, the confidence and the box in pixels of the
image given.

Settings (documented in models/README.md): the finder proposes boxes from confidence
``FIND`` with non-maximum suppression at IoU 0.5 (two indices never overlap on a real
table); a detection's confidence is the finder's times the reader's, and it counts from
``CONFIDENCE``. A reader taught the table's own deck (``guandan enroll``) is trusted more
than a finder that never saw the deck: there a finder's box from ``finder_sure`` up is an
index for certain, and the card's confidence is the reader's alone.

ultralytics is imported inside the functions that use it: heavy to load, and needed only
when a model is trained, quantized or run through it, not for ``guandan --help`` or at a
table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from engine.cards import ALL_CARDS
from vision.live.box_refiner import BoxRefiner
from vision.live.boxes import iou_matrix
from vision.live.finder import FinderError, OpenVinoFinder
from vision.live.places import committed_models
from vision.live.reader import NOT_AN_INDEX, IndexReader, ReaderError, fingerprint, made_from
from vision.live.suit_reader import SuitReader
from vision.live.turns import VIEWS, boxes_back, merge, turned
from vision.live.yolo_env import prepare

CONFIDENCE = 0.25
FIND = 0.05
IOU = 0.5
#: the committed models' referee threshold: a play they read below it goes to the referee. It
#: is where, on rendered hands of held-out real deck designs, lowering it further would let
#: wrong plays into the record unflagged, and raising it asks about plays read right
#: (``benchmarks/table.py`` prints both counts per threshold; docs/benchmarks.md). An
#: enrolled deck measures its own (``vision.enroll.doubt``).
COMMITTED_DOUBT = 0.5
#: two read indices whose boxes overlap this much (IoU) are one index read twice — the finder
#: boxed it twice, say the rank alone and the whole index — and only the surer is kept: two
#: different labelled indices of the rendered zones almost never overlap this much
SAME_INDEX = 0.3
#: the longest side of a zone looked at whole (``find_tiled``): a seat zone at 10 px/cm is
#: about 260×560; a bigger image is a photograph, searched in tiles
WHOLE = 1024
RUNNERS_UP = 3  # how many other readings of an index a detection keeps
RUNNER_UP_FLOOR = 0.01  # a runner-up less likely than this is no candidate
#: the committed models: the checkout's ``models/``, or an installed wheel's copy (``vision.live.places``)
MODELS = committed_models()
#: the index reader's files by preference: the 8-bit one (``guandan quantize-reader``; it reads
#: the held-out decks as the full-precision one does, in less time) while it was made from
#: the ONNX one, then the ONNX one (what training goes on from; ``reader_in``)
READERS = ("reader_int8.xml", "reader.onnx")
#: the suit reader (``vision.live.suit_reader``, used on upright cards) by the same preference: the
#: 8-bit one (``guandan quantize-suits``) while it was made from the ONNX one, then that
SUIT_READERS = ("suits_int8.xml", "suits.onnx")
#: the box refiner (``vision.live.box_refiner``, drawing each read index's box again) by the same
#: preference: the 8-bit one (``guandan quantize-boxes``) while it was made from the ONNX one
BOX_REFINERS = ("boxes_int8.xml", "boxes.onnx")
#: the box refiner's second look (the box drawn once more, framed closer, from the first
#: look's; ``vision.live.box_refiner``) by the same preference
SECOND_LOOKS = ("boxes_second_int8.xml", "boxes_second.onnx")
#: the size the live loop's finder looks at seat zones at (a zone finder's exports have a
#: free-shape ``whole/`` twin; photos are searched at 640)
ZONE = 320
#: the committed finder by input size, fastest backend first: 320 for zones, 640 for photos
FINDERS = {ZONE: (MODELS / "finder_int8_openvino_model", MODELS / "finder_openvino_model", MODELS / "finder.onnx",
                 MODELS / "finder.pt"),
           640: (MODELS / "finder_640_int8_openvino_model", MODELS / "finder_640_openvino_model",
                 MODELS / "finder.pt")}


@dataclass(frozen=True)
class Detection:
    card: str
    conf: float
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels
    #: the reader's runners-up for this index, likeliest first, as (card, confidence): what it
    #: is if it cannot be ``card`` (a third copy of a card, ``table.deck``)
    others: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict:
        return {"card": self.card, "conf": round(self.conf, 4), "box": [round(v, 1) for v in self.box]}


def detect_tiled(detector: CardDetector, image: np.ndarray, tile: int = 320, overlap: int = 80,
                 conf: float | None = None, upright: bool = False, quarters: tuple[int, ...] | None = None,
                 whole: bool = True) -> list[Detection]:
    """Detections in a seat zone bigger than the model's input, found at full resolution (a
    560-pixel zone letterboxed into 320 would lose half its detail) — in one look at the
    whole zone where the finder can take its shape (``CardDetector.looks_whole``), else in
    overlapping tiles — and read in the whole zone, so that no patch is cut short by a
    tile's edge. An index cut by one tile's edge lies whole in the next; the same card found
    twice in the overlap is merged by ``vision.live.grouping``. ``conf`` overrides the detector's
    threshold; ``upright`` and ``quarters`` as for ``CardDetector.detect``; ``whole=False``
    looks in tiles even where the finder could look at the whole zone (to compare the two)."""
    if max(image.shape[:2]) <= tile:
        return detector.detect(image, conf, upright=upright, quarters=quarters)
    floor = detector.conf if conf is None else conf
    found = find_tiled(detector, image, floor, tile, overlap, quarters, whole=whole)
    return detector.read(image, found, floor, upright=upright)


def tile_starts(length: int, tile: int, overlap: int) -> list[int]:
    """Where tiles of ``tile`` pixels start along a side of ``length``: ``overlap`` pixels
    over the one before, the last flush with the end."""
    if length <= tile:
        return [0]
    return list(range(0, length - tile, tile - overlap)) + [length - tile]


def find_tiled(detector: CardDetector, image: np.ndarray, floor: float, tile: int = 320, overlap: int = 80,
               quarters: tuple[int, ...] | None = None, whole: bool = False
               ) -> list[tuple[tuple[float, float, float, float], float]]:
    """The finder's boxes and confidences in an image of any size, tile by tile as
    ``detect_tiled`` finds them (an index in two tiles' overlap is in the list twice).
    ``whole``: an image bigger than a tile and no bigger than ``WHOLE`` is looked at whole
    instead, where the finder can (a seat zone, whose shape repeats: each new shape
    compiles the network once)."""
    height, width = image.shape[:2]
    if max(height, width) <= tile:
        return detector.find(image, floor, quarters)
    if whole and detector.looks_whole and max(height, width) <= WHOLE:
        return detector.find(image, floor, quarters, whole=True)
    found: list[tuple[tuple[float, float, float, float], float]] = []
    for y0 in tile_starts(height, tile, overlap):
        for x0 in tile_starts(width, tile, overlap):
            for (x1, y1, x2, y2), f in detector.find(image[y0:y0 + tile, x0:x0 + tile], floor, quarters):
                if ((x0 and x1 < 2) or (y0 and y1 < 2) or (x0 + tile < width and x2 > tile - 2)
                        or (y0 + tile < height and y2 > tile - 2)):
                    continue  # cut by this tile's edge: the neighbouring tile sees it whole
                found.append(((x1 + x0, y1 + y0, x2 + x0, y2 + y0), f))
    return found


def one_per_index(detections: list[Detection]) -> list[Detection]:
    """The detections most confident first, less confident readings of an index already read
    (``SAME_INDEX``) left out."""
    ranked = sorted(detections, key=lambda d: -d.conf)
    if len(ranked) < 2:
        return ranked
    boxes = np.array([d.box for d in ranked])
    same = iou_matrix(boxes, boxes) >= SAME_INDEX
    kept: list[int] = []
    for i in range(len(ranked)):
        if not same[i, kept].any():
            kept.append(i)
    return [ranked[i] for i in kept]


class DetectorError(ValueError):
    """A model file that is missing or not a card detector."""


def reader_in(folder: Path, names: tuple[str, str] = READERS) -> Path | None:
    """A folder's reader (``names``: its 8-bit and its ONNX file; the suit reader's are
    ``SUIT_READERS``, the box refiner's ``BOX_REFINERS``): the 8-bit one while that was made
    from the ONNX one beside it (a reader trained again leaves the old 8-bit one behind,
    which must not be read instead), else the ONNX one, else the 8-bit one alone; None
    without either."""
    quantized, plain = (folder / name for name in names)
    if quantized.exists() and (not plain.exists() or made_from(quantized) == fingerprint(plain)):
        return quantized
    return plain if plain.exists() else None


def reader_beside(weights: Path) -> Path:
    """The reader that goes with a finder: one in the same folder (``reader_in``), else the
    committed one."""
    return reader_in(weights.parent) or reader_in(MODELS) or MODELS / READERS[-1]  # missing: IndexReader says so


def committed_finder(imgsz: int = 320) -> Path:
    """The committed finder for an input size, in its fastest backend present."""
    for path in FINDERS.get(imgsz, FINDERS[320][-1:]):
        if path.exists():
            return path
    raise DetectorError("no trained model in models/ (train one with 'guandan train', or give --weights)")


def _model(load, given: str | Path | None, committed: Path | None):
    """The ``given`` model loaded (it must be there), else the ``committed`` one where present."""
    if given:
        return load(Path(given))
    return load(committed) if committed is not None and committed.exists() else None


def _refiners(given: str | Path | list | tuple | None) -> list[BoxRefiner]:
    """The box refiners, each drawing the box again from the one before's: the ``given``
    model or models, else the committed refiner and its second look where present (a second
    look learnt on the committed refiner's boxes, so it follows no other)."""
    if given:
        return [BoxRefiner(Path(path)) for path in ([given] if isinstance(given, (str, Path)) else given)]
    first = reader_in(MODELS, BOX_REFINERS)
    if first is None:
        return []
    second = reader_in(MODELS, SECOND_LOOKS)
    return [BoxRefiner(first)] + ([BoxRefiner(second)] if second is not None else [])


class CardDetector:
    def __init__(self, weights: str | Path, imgsz: int = 320, conf: float = CONFIDENCE, iou: float = IOU,
                 reader: str | Path | None = None, suits: str | Path | None | bool = None,
                 boxes: str | Path | list | None | bool = None, views: int = 1, sideways: bool = False,
                 finder_sure: float = 1.0, doubt: float | None = None, own_deck: bool = False,
                 index_sure: float | None = None) -> None:
        """``boxes``: the box refiner's model (or models, each looking at the one before's
        box), or False for the finder's own boxes (the live loop, which needs cards, not
        tight boxes, saves its time); by default the committed refiner and its second look
        where present. ``suits``: the suit reader, by default the committed one; False for
        none (a deck's own reader, taught its suits at enrollment, reads alone). ``views``:
        how many ways the finder looks at an image
        (``vision.live.turns.VIEWS``: 1 as it is, 2 with a half turn, 4 at each quarter turn),
        each view costing one finder's time. ``sideways``: cards may lie any way round, so
        each index is also read a quarter turn round where its neighbours read surer so
        (``vision.live.reader.IndexReader.sideways``; twice the reader's time) — for photos and
        any-angle zones; not where the cards lie upright (``detect(upright=True)``).
        ``finder_sure``: from this finder's confidence up a box is surely an index, and the
        detection's confidence is the reader's probability alone (below it, scaled down in
        proportion); 1, the default, makes it the finder's times the reader's. ``doubt``: the
        confidence below which this detector's readings should go to a referee, measured for
        an enrolled deck (``vision.enroll.doubt``; the record's header carries it to the
        console); None leaves it to the console's default. ``own_deck``: the reader was taught
        this very deck (``vision.enroll``), so where it misreads, the camera's noise misled it
        — different at each corner of a card — not a print it has never seen, which misleads
        it alike at both (``table.mending.HandReading``). ``index_sure``: from this finder's
        confidence up the reader's *no index* is overruled — the box is an index, read as the
        card the reader finds likeliest, at that card's own probability (a finder taught the
        deck is seldom that sure of anything else); None: never."""
        path = Path(weights)
        if not 0 < finder_sure <= 1:
            raise DetectorError(f"finder_sure must be in (0, 1], not {finder_sure}")
        self.finder_sure = finder_sure
        self.doubt = doubt
        self.own_deck = own_deck
        self.index_sure = index_sure
        if not path.exists():
            raise DetectorError(f"{weights}: no such model file")
        if views not in VIEWS:
            raise DetectorError(f"the finder looks 1, 2 or 4 ways, not {views}")
        self.quarters = VIEWS[views]
        self.sideways = sideways
        self.path = path
        self.imgsz = imgsz
        self.conf = conf
        self.iou = iou
        #: the finder can look at a whole zone of any shape at its own scale (a free-shape
        #: OpenVINO export, ``vision.live.finder.OpenVinoFinder.find_whole``)
        self.looks_whole = False
        #: the finder on a list of images (the views), each letterboxed into its input
        self._find_views = self._openvino(path, imgsz) if path.is_dir() else self._ultralytics(path)
        try:
            self.reader = IndexReader(reader or reader_beside(path))
            self.suits = None if suits is False else _model(SuitReader, suits, reader_in(MODELS, SUIT_READERS))
            self.refiners = [] if boxes is False else _refiners(boxes)
        except ReaderError as exc:
            raise DetectorError(str(exc)) from None

    def find(self, image: np.ndarray, floor: float = FIND, quarters: tuple[int, ...] | None = None,
             whole: bool = False) -> list[tuple[tuple[float, float, float, float], float]]:
        """The finder's boxes (pixels of ``image``) and confidences, from ``floor`` up, looking
        at the image turned by each of ``quarters`` (quarter turns; by default the detector's
        views), what the views found merged (``vision.live.turns.merge``). ``whole``: the image
        looked at whole at its own scale, not letterboxed into the finder's size (only where
        ``looks_whole``)."""
        if whole and not self.looks_whole:
            raise DetectorError(f"{self.path}: this finder looks at one image size only, not at a whole zone")
        height, width = image.shape[:2]
        quarters = self.quarters if quarters is None else quarters
        images = [turned(image, quarter) for quarter in quarters]
        looks = [self._find_whole(view, floor) for view in images] if whole else self._find_views(images, floor)
        views = []
        for quarter, (boxes, confs) in zip(quarters, looks, strict=True):
            back = boxes_back(boxes, quarter, width, height)
            views.append([(tuple(float(v) for v in b), float(c)) for b, c in zip(back, confs, strict=True)])
        return merge(views, self.iou)

    def _openvino(self, folder: Path, imgsz: int):
        """An OpenVINO export, run directly (``vision.live.finder``): what the live loop runs."""
        try:
            finder = OpenVinoFinder(folder)
        except FinderError as exc:
            raise DetectorError(str(exc)) from None
        if finder.size != imgsz:
            raise DetectorError(f"{folder}: exported for {finder.size}×{finder.size} images, not {imgsz}")
        self.looks_whole = finder.free
        self._find_whole = lambda image, floor: finder.find_whole(image, floor, self.iou)
        return lambda images, floor: finder.find_all(images, floor, self.iou)

    def _ultralytics(self, path: Path):
        """PyTorch weights or ONNX, run by ultralytics (the weights are what training goes on from)."""
        prepare()
        from ultralytics import YOLO

        model = YOLO(str(path), task="detect")
        names = model.names if isinstance(model.names, dict) else dict(enumerate(model.names))
        if names and len(names) != 1:
            raise DetectorError(f"{path}: has {len(names)} classes, an index finder has one")

        def find_views(images: list[np.ndarray], floor: float) -> list[tuple[np.ndarray, np.ndarray]]:
            found = []
            for image in images:
                boxes = model.predict(image, imgsz=self.imgsz, conf=floor, iou=self.iou, device="cpu",
                                      verbose=False)[0].boxes
                found.append((boxes.xyxy.cpu().numpy(), boxes.conf.cpu().numpy()))
            return found

        return find_views

    def detect(self, image: np.ndarray, conf: float | None = None, upright: bool = False,
               quarters: tuple[int, ...] | None = None) -> list[Detection]:
        """Detections in a BGR image (as OpenCV reads it), most confident first; ``conf``
        overrides the detector's threshold (evaluation wants every detection). A box the
        finder is less sure of than the threshold is not read: the reader's probability is
        at most 1, so it could not pass. ``upright``: the cards lie upright in the image (a
        rectified seat zone), so the suit reader may look beside each index for pips.
        ``quarters``: the finder's views for this image, as for ``find``."""
        floor = self.conf if conf is None else conf
        return self.read(image, self.find(image, floor, quarters), floor, upright=upright)

    def read(self, image: np.ndarray, found: list[tuple[tuple[float, float, float, float], float]], floor: float,
             upright: bool = False) -> list[Detection]:
        """The finder's ``found`` boxes (with its confidences) read: detections from ``floor``."""
        boxes = [box for box, _ in found]
        suits = self.suits.read(image, boxes) if upright and self.suits is not None else None
        readings = self.reader.read(image, boxes, ranked=RUNNERS_UP + 1, suits=suits,
                                    sideways=self.sideways and not upright)
        out = []
        for (box, finder), ((cls, p), *rest) in zip(found, readings, strict=True):
            f = min(1.0, finder / self.finder_sure)
            if cls == NOT_AN_INDEX and self.index_sure is not None and finder >= self.index_sure and rest:
                (cls, p), *rest = rest
            if cls == NOT_AN_INDEX or f * p < floor:
                continue
            others = tuple((ALL_CARDS[c], f * q) for c, q in rest if c != NOT_AN_INDEX and f * q >= RUNNER_UP_FLOOR)
            out.append(Detection(ALL_CARDS[cls], f * p, box, others))
        if self.refiners and out:  # read on the finder's box, which the reader learnt on
            boxes = [d.box for d in out]
            for refiner in self.refiners:
                boxes = refiner.refine(image, boxes)
            out = [replace(d, box=b) for d, b in zip(out, boxes, strict=True)]
        return one_per_index(out)
