"""The enrollment layout: one deck's 54 cards face up on the table, 6 rows of 9, and finding
them in a picture from the table's camera.

The layout (``docs/vision.md``, "Enrolling a deck"): every card upright for South, not
overlapping (gaps of at least 5 mm), inside the four markers, in reading order as seen from
the South seat — the row farthest from South first, each row from West to East — ``S2 … SA``,
``H2 … HA``, ``C2 … CA``, ``D2 … DA``, ``SB HR``. So the cards' names come from where they
lie: the labels are free.

The table inside the markers is drawn from straight above (``table_picture``, North up, as
South sees it), and a card is a bright, low-coloured region of a card's size there: card
stock is white or cream against felt, wood or cloth, and the gaps keep the cards apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.cards import BIG_JOKER, RANKS, SMALL_JOKER
from vision.live.calibration import Calibration

ROWS, COLUMNS = 6, 9
#: the 54 names in reading order: 2 → A within each suit, then the small and the big joker
LAYOUT: tuple[str, ...] = tuple(s + r for s in "SHCD" for r in RANKS) + (SMALL_JOKER, BIG_JOKER)
INSIDE_CM = 37.0  # the markers' inner edges: the layout lies within ±37 cm of the centre
PX_PER_CM = 10.0  # the table picture's scale
#: a card's area in cm² (bridge 5.7 × 8.8 = 50, poker 6.3 × 8.8 = 55; jumbo and small decks
#: either side), and its long side over its short
CARD_AREA_CM2 = (35.0, 75.0)
CARD_ASPECT = (1.2, 1.75)
#: a pixel this far from the felt's colour (8-bit Lab distance) is something on the table
FELT_DISTANCE = 40.0


class LayoutError(ValueError):
    """The picture does not show the layout: ``code`` and ``values`` let the operator's
    console word it in Chinese or English (``rulebook.i18n.ENROLL``)."""

    def __init__(self, code: str, **values: object) -> None:
        super().__init__(code)
        self.code = code
        self.values = values

@dataclass(frozen=True)
class FoundCard:
    """A card found in the table picture: its corners in table cm, clockwise from the top
    left as South sees the card upright, and its size."""

    corners_cm: np.ndarray  # 4 × 2
    width_cm: float
    height_cm: float

    @property
    def centre_cm(self) -> tuple[float, float]:
        x, y = self.corners_cm.mean(axis=0)
        return float(x), float(y)

    @property
    def upright(self) -> bool:
        return self.height_cm > self.width_cm

def to_picture(px_per_cm: float = PX_PER_CM) -> np.ndarray:
    """Table cm → table picture pixels (North up, West left), for the square inside the markers."""
    return np.array([[px_per_cm, 0.0, INSIDE_CM * px_per_cm],
                     [0.0, -px_per_cm, INSIDE_CM * px_per_cm],
                     [0.0, 0.0, 1.0]])

def table_picture(image: np.ndarray, calibration: Calibration, px_per_cm: float = PX_PER_CM) -> np.ndarray:
    """The table inside the markers seen from straight above, North up, at ``px_per_cm``."""
    side = round(2 * INSIDE_CM * px_per_cm)
    image_to_picture = to_picture(px_per_cm) @ np.linalg.inv(calibration.homography)
    return cv2.warpPerspective(image, image_to_picture, (side, side), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)

def card_mask(picture: np.ndarray) -> np.ndarray:
    """Where cards lie: card stock — bright and little coloured (value less saturation, split
    by Otsu's threshold) — and whatever else is far from the felt's colour, opened so that
    neighbouring cards stay apart. The second part keeps a court card whole whose art runs to
    its edge, or a deck with a dark frame printed round each face: by its
    white alone such a card falls apart and is not found."""
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    whiteness = cv2.subtract(hsv[..., 2], hsv[..., 1])
    _, white = cv2.threshold(cv2.GaussianBlur(whiteness, (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    lab = cv2.cvtColor(cv2.GaussianBlur(picture, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    between = lab[white == 0]
    mask = white
    if len(between):
        felt = np.median(between, axis=0)
        far = (np.linalg.norm(lab - felt, axis=2) > FELT_DISTANCE).astype(np.uint8) * 255
        mask = cv2.bitwise_or(white, far)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)

def find_cards(picture: np.ndarray, px_per_cm: float = PX_PER_CM) -> list[FoundCard]:
    """The cards lying in the table picture: regions of card stock of a card's area and shape
    (a card's inside drawn in another colour — court art, a joker — is filled in: only the
    outline counts), then the places of the layout's grid where none was found
    (``_grid_gaps``)."""
    mask = card_mask(picture)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    rects = [rect for rect in (cv2.minAreaRect(contour) for contour in contours) if _card_like(rect, px_per_cm)]
    rects += _grid_gaps(rects, mask, px_per_cm)
    back = np.linalg.inv(to_picture(px_per_cm))
    cards = []
    for rect in rects:
        corners = _clockwise_from_top_left(cv2.boxPoints(rect))
        corners_cm = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64), back).reshape(-1, 2)
        width = float(np.linalg.norm(corners[1] - corners[0])) / px_per_cm
        height = float(np.linalg.norm(corners[3] - corners[0])) / px_per_cm
        cards.append(FoundCard(corners_cm, width, height))
    return cards


Rect = tuple[tuple[float, float], tuple[float, float], float]  # cv2.minAreaRect's: centre, size, angle


def _card_like(rect: Rect, px_per_cm: float) -> bool:
    """Whether a region's bounding rectangle has a card's area and shape."""
    (_, _), (w, h), _ = rect
    area = w * h / px_per_cm ** 2
    long, short = max(w, h), max(min(w, h), 1.0)
    return CARD_AREA_CM2[0] <= area <= CARD_AREA_CM2[1] and CARD_ASPECT[0] <= long / short <= CARD_ASPECT[1]


def _bands(values: list[float], apart: float) -> list[float]:
    """The middles of the runs of sorted ``values`` that lie within ``apart`` of the next."""
    ordered = sorted(values)
    runs = [[ordered[0]]]
    for value in ordered[1:]:
        if value - runs[-1][-1] > apart:
            runs.append([])
        runs[-1].append(value)
    return [float(np.median(run)) for run in runs]


def _grid_gaps(rects: list[Rect], mask: np.ndarray, px_per_cm: float) -> list[Rect]:
    """The cards at the layout's places where none was found. A card whose art runs to its
    edge (a court card of a French deck, a joker printed full bleed) breaks its outline in
    the card mask, and falls apart into pieces none of which is card-sized. Where at least
    half the layout was found in its rows and columns, each empty place is looked at alone
    (the pitch of the grid around it, so no neighbour reaches in): what the mask holds
    there, taken together, is the card if it has a card's area and shape."""
    if not ROWS * COLUMNS // 2 <= len(rects) < ROWS * COLUMNS:
        return []
    centres = np.array([centre for centre, _, _ in rects], np.float64)
    short = float(np.median([min(size) for _, size, _ in rects]))
    long = float(np.median([max(size) for _, size, _ in rects]))
    columns, rows = _bands(list(centres[:, 0]), short / 2), _bands(list(centres[:, 1]), long / 2)
    if len(columns) != COLUMNS or len(rows) != ROWS:
        return []
    pitch_x, pitch_y = float(np.median(np.diff(columns))), float(np.median(np.diff(rows)))
    found = []
    for y in rows:
        for x in columns:
            if np.any((np.abs(centres[:, 0] - x) < short / 2) & (np.abs(centres[:, 1] - y) < long / 2)):
                continue
            x0, y0 = max(0, round(x - pitch_x / 2)), max(0, round(y - pitch_y / 2))
            points = cv2.findNonZero(mask[y0:round(y + pitch_y / 2), x0:round(x + pitch_x / 2)])
            if points is None:
                continue
            (cx, cy), size, angle = cv2.minAreaRect(points)
            rect = ((cx + x0, cy + y0), size, angle)
            if _card_like(rect, px_per_cm):
                found.append(rect)
    return found


def _clockwise_from_top_left(points: np.ndarray) -> np.ndarray:
    """A rectangle's corners in picture pixels, clockwise from the one nearest the top left."""
    centre = points.mean(axis=0)
    order = np.argsort(np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0]))  # clockwise on screen
    ordered = points[order]
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0)

def in_reading_order(cards: list[FoundCard]) -> list[FoundCard]:
    """The 54 cards in the layout's reading order, or ``LayoutError``: not 54, not upright,
    or not lying in 6 rows of 9."""
    if len(cards) != ROWS * COLUMNS:
        raise LayoutError("enroll_count", found=len(cards), expected=ROWS * COLUMNS)
    turned = [c for c in cards if not c.upright]
    if turned:
        raise LayoutError("enroll_not_upright", n=len(turned))
    by_height = sorted(cards, key=lambda c: -c.centre_cm[1])  # North first
    rows = [by_height[i * COLUMNS:(i + 1) * COLUMNS] for i in range(ROWS)]
    for upper, lower in zip(rows, rows[1:], strict=False):
        # a row's lowest card must lie above the next row's highest: else the rows are not straight
        if min(c.centre_cm[1] for c in upper) - max(c.centre_cm[1] for c in lower) < 0.5 * _card_height(cards):
            raise LayoutError("enroll_rows", rows=ROWS, columns=COLUMNS)
    return [card for row in rows for card in sorted(row, key=lambda c: c.centre_cm[0])]

def _card_height(cards: list[FoundCard]) -> float:
    return float(np.median([c.height_cm for c in cards]))

def face(image: np.ndarray, calibration: Calibration, card: FoundCard, px_per_cm: float) -> np.ndarray:
    """One card's face as the camera saw it, upright, at ``px_per_cm``."""
    w, h = round(card.width_cm * px_per_cm), round(card.height_cm * px_per_cm)
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    source = calibration.to_image(card.corners_cm).astype(np.float32)
    warp = cv2.getPerspectiveTransform(source, target)
    return cv2.warpPerspective(image, warp, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
