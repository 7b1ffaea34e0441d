"""Pictures of the enrollment layout read: the 54 cards found, named by their place, cut out
upright, and checked before anything is learnt from them.

A picture is refused, with a picture marking the problem, when the markers are not seen (or
it is too dark to see them in), when it is too dark or blurred to learn a deck from, when the
cards found are not 54 lying upright in 6 rows of 9, or when the camera's present models read
two cards in each other's places (a swapped pair) or one card in two places (a card laid
twice, another missing): a misplaced card is noticed, not learnt. A single card the present
models read otherwise, not confirmed by its neighbour, is a *doubt* for the operator to look
at on the contact sheet: on a deck the models have never seen, their reading is the likelier
mistake.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from engine.cards import rank_of, suit_of
from vision.enroll.layout import (
    LAYOUT,
    PX_PER_CM,
    FoundCard,
    LayoutError,
    card_mask,
    face,
    find_cards,
    in_reading_order,
    table_picture,
    to_picture,
)
from vision.live.calibration import Calibration, CalibrationError
from vision.live.camera import open_capture
from vision.live.detector import CardDetector, detect_tiled
from vision.live.inks import PAIRS

FACE_PX_PER_CM = 12.0  # the cards' faces are kept at this scale
#: the table picture's 90th percentile of grey: cards lit well are near white (about 250 on
#: rendered tables); below this the picture is too dark to learn from
BRIGHT_LEAST = 90
#: a picture whose markers are not found, and whose brightest 1 % of pixels is darker than
#: this grey, is refused as too dark rather than as missing its markers: the markers of a
#: rendered table are still found at a tenth of the light with sensor noise and JPEG (the
#: brightest 1 % about 25), and white card faces and marker margins under any usable
#: exposure are far above it
MARKERS_BRIGHT_LEAST = 60
#: the variance of the Laplacian over the cards in the table picture: about 550-700 on
#: rendered tables at 1080p, 5 when blurred by a 3-pixel Gaussian
SHARP_LEAST = 30.0
#: a swapped pair is two cards each read, from this sure, as the other's name: each alone
#: could be a misreading of a deck the models do not know, both together hardly
PAIR_SURE = 0.3
#: a card read, from this sure, as one lying in its own place too is a card laid twice
TWICE_SURE = 0.9
FRAMES_TRIED = 12  # a video's frames looked at, evenly spread, for the sharpest with the markers


class EnrollError(ValueError):
    """A picture enrollment cannot use: ``code`` and ``values`` for the operator's words
    (``rulebook.i18n.ENROLL``, or ``ALERTS`` for the markers), ``picture`` marking the problem."""

    def __init__(self, code: str, picture: np.ndarray | None = None, **values: object) -> None:
        super().__init__(code)
        self.code = code
        self.values = values
        self.picture = picture


@dataclass
class LaidCard:
    name: str
    place: int  # 1 to 54, in reading order
    found: FoundCard
    face: np.ndarray  # upright, at FACE_PX_PER_CM
    reading: tuple[str, float] | None = None  # what the present models read, and how sure


@dataclass
class LayoutPicture:
    source: str
    cards: list[LaidCard]
    picture: np.ndarray  # the table from above, the cards marked
    camera_px_per_cm: float
    felt: tuple[int, int, int]  # the table's colour between the cards (BGR)
    doubts: list[LaidCard] = field(default_factory=list)


def frames_of(source: Path) -> list[np.ndarray]:
    """A picture, or up to ``FRAMES_TRIED`` frames spread over a video; empty if neither."""
    data = np.fromfile(str(source), dtype=np.uint8) if source.is_file() else np.empty(0, np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is not None:
        return [image]
    capture = open_capture(str(source))
    count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) if capture.isOpened() else 0
    frames = []
    for index in np.linspace(0, max(count - 1, 0), min(FRAMES_TRIED, max(count, 1))).astype(int):
        capture.set(cv2.CAP_PROP_POS_FRAMES, int(index))
        ok, frame = capture.read()
        if ok:
            frames.append(frame)
    capture.release()
    return frames


def sharpness(image: np.ndarray, mask: np.ndarray | None = None) -> float:
    """The variance of the image's Laplacian (where ``mask`` is set): blur lowers it."""
    lap = cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_64F)
    return float(lap[mask > 0].var() if mask is not None else lap.var())


def read_layout(source: str, frames: list[np.ndarray], detector: CardDetector | None) -> LayoutPicture:
    """The layout in the sharpest of ``frames`` in which the markers are seen, each card named
    and cut out (``EnrollError`` for a picture that cannot be used)."""
    if not frames:
        raise EnrollError("enroll_unreadable", source=source)
    seen, failure = [], None
    for frame in frames:
        try:
            seen.append((sharpness(frame), frame, Calibration.from_image(frame)))
        except CalibrationError as exc:
            failure = exc
    if not seen:
        raise _too_dark(source, frames) or EnrollError(failure.code, None, **failure.values)
    _, image, calibration = max(seen, key=lambda s: s[0])
    picture = table_picture(image, calibration)
    level = float(np.percentile(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY), 90))
    if level < BRIGHT_LEAST:
        raise EnrollError("enroll_dark", picture, source=source, level=round(level), least=BRIGHT_LEAST)
    found = find_cards(picture)
    try:
        ordered = in_reading_order(found)
    except LayoutError as exc:
        bad = [c for c in found if not c.upright] if exc.code == "enroll_not_upright" else []
        raise EnrollError(exc.code, marked(picture, found, [], bad), source=source, **exc.values) from None
    _check_sharp(source, picture, ordered)
    cards = [LaidCard(name, place, card, face(image, calibration, card, FACE_PX_PER_CM))
             for place, (name, card) in enumerate(zip(LAYOUT, ordered, strict=True), start=1)]
    if detector is not None:
        for card in cards:
            card.reading = present_reading(detector, card.face)
    doubts = _check_names(source, picture, cards)
    resolution = float(np.median([calibration.px_per_cm(c.found.centre_cm) for c in cards]))
    between = picture[card_mask(picture) == 0]
    felt = tuple(int(v) for v in np.median(between, axis=0)) if len(between) else (60, 100, 50)
    return LayoutPicture(source, cards, marked(picture, ordered, cards, [c.found for c in doubts]), resolution,
                         felt, doubts)


def _too_dark(source: str, frames: list[np.ndarray]) -> EnrollError | None:
    """Why no frame shows the markers, when it is that even the brightest frame is too dark
    (``MARKERS_BRIGHT_LEAST``): its mean grey level out of 255 and its brightest 1 %."""
    greys = [f if f.ndim == 2 else cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in frames]
    levels = [float(np.percentile(g, 99)) for g in greys]
    brightest = int(np.argmax(levels))
    if levels[brightest] >= MARKERS_BRIGHT_LEAST:
        return None
    return EnrollError("enroll_dark_markers", None, source=source, mean=round(float(greys[brightest].mean())),
                       level=round(levels[brightest]), least=MARKERS_BRIGHT_LEAST)


def _check_sharp(source: str, picture: np.ndarray, cards: list[FoundCard]) -> None:
    """Too blurred to learn a deck from: refused."""
    inside = np.zeros(picture.shape[:2], np.uint8)
    cm_to_px = to_picture(PX_PER_CM)
    for card in cards:
        corners = cv2.perspectiveTransform(card.corners_cm.reshape(-1, 1, 2), cm_to_px).reshape(-1, 2)
        cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 255)
    inside &= card_mask(picture)
    sharp = sharpness(picture, cv2.dilate(inside, np.ones((5, 5), np.uint8)))
    if sharp < SHARP_LEAST:
        raise EnrollError("enroll_blurred", picture, source=source, level=round(sharp), least=round(SHARP_LEAST))


BORDER = 20  # pixels of grey round a face read alone


def on_grey(face: np.ndarray) -> np.ndarray:
    """A face alone on a grey border ``BORDER`` wide, as a seat zone holding just that card."""
    return cv2.copyMakeBorder(face, BORDER, BORDER, BORDER, BORDER, cv2.BORDER_CONSTANT, value=(110, 110, 110))


def present_reading(detector: CardDetector, upright_face: np.ndarray) -> tuple[str, float] | None:
    """What the camera's present models read on a card's face (its surest index), at the
    scale the live loop reads seat zones, on a grey border."""
    scale = PX_PER_CM / FACE_PX_PER_CM
    small = cv2.resize(upright_face, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    found = detect_tiled(detector, on_grey(small), conf=0.25, upright=True)
    if not found:
        return None
    surest = max(found, key=lambda d: d.conf)
    return surest.card, float(surest.conf)


def _check_names(source: str, picture: np.ndarray, cards: list[LaidCard]) -> list[LaidCard]:
    """A swapped pair (but one of a rank in two suits of one ink: ``_suits_alike``) or a card
    surely read in two places is refused; another reading is a doubt."""
    at = {c.name: c for c in cards}
    read_as = {c.name: c.reading for c in cards if c.reading is not None and c.reading[1] >= PAIR_SURE}
    doubts = []
    for card in cards:
        read, confidence = read_as.get(card.name, (None, 0.0))
        if read is None or read == card.name or read not in at:
            continue
        other = at[read]
        if read_as.get(read, (None,))[0] == card.name and not _suits_alike(read, card.name):
            raise EnrollError("enroll_swapped", marked(picture, [c.found for c in cards], cards,
                                                      [card.found, other.found]),
                              first=read, second=card.name, source=source)
        if confidence >= TWICE_SURE and read_as.get(read, (None,))[0] == read:
            raise EnrollError("enroll_twice", marked(picture, [c.found for c in cards], cards, [card.found]),
                              card=read, place=card.place, expected=card.name, source=source)
        doubts.append(card)
    return doubts


def _suits_alike(first: str, second: str) -> bool:
    """Two cards of one rank whose suits a deck prints in one ink (spades and clubs, hearts
    and diamonds): the models read such a pair each as the other where a deck's suit signs
    are small (a stage deck's 3s of spades and clubs, each read as the other), and the layout
    puts them rows apart, where a hand laying the deck in order hardly swaps them. A doubt
    for the operator, not a refusal."""
    return rank_of(first) == rank_of(second) and PAIRS[suit_of(first)] is PAIRS[suit_of(second)]


def marked(picture: np.ndarray, found: list[FoundCard], named: list[LaidCard], bad: list[FoundCard]) -> np.ndarray:
    """The table picture with each card found outlined (green; red where ``bad``), and each
    named card's name written on it."""
    out = picture.copy()
    cm_to_px = to_picture(PX_PER_CM)
    bad_ids = {id(c) for c in bad}
    for card in found:
        corners = cv2.perspectiveTransform(card.corners_cm.reshape(-1, 1, 2), cm_to_px).reshape(-1, 2)
        colour = (0, 0, 255) if id(card) in bad_ids else (0, 200, 0)
        cv2.polylines(out, [np.round(corners).astype(np.int32)], True, colour, 2 if id(card) in bad_ids else 1)
    for card in named:
        x, y = cv2.perspectiveTransform(np.array([[card.found.centre_cm]]), cm_to_px).ravel()
        cv2.putText(out, card.name, (int(x) - 14, int(y) + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3,
                    cv2.LINE_AA)
        cv2.putText(out, card.name, (int(x) - 14, int(y) + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1,
                    cv2.LINE_AA)
    return out
