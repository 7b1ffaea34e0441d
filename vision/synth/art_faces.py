"""Real deck art turned into card faces the renderer can lay: one upright picture per card,
cut from a packaged SVG deck, and where its corner indices lie.

Packaged decks (``datasets/art-decks.toml``) are single SVG files whose cards are named
elements (``club_king``, ``king_club`` …); ``rsvg-convert --export-id`` draws one element.
Some decks give an element a bounding box far wider than the card (an invisible guide, a
clip), so the card is cut from the drawing as its largest opaque region.

Where the index lies is measured on the face, not typed in: the corner index is the cluster
of ink nearest the card's top-left corner — the rank, and the suit sign under or beside it —
within the corner's quarter, leaving out the card's outline and anything that runs on into
the middle (a court card's frame, its art). A card where no such cluster is found (a
picture-only joker) gets no index box, and the renderer labels nothing on it.
"""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.cards import ALL_CARDS

FACE_PX_PER_CM = 40.0  # faces are kept at this scale (a card 8.8 cm tall: 352 px)
CARD_HEIGHT_CM = 8.8
#: the corner searched for the index, as fractions of the card's width and height
CORNER_W, CORNER_H = 0.27, 0.45
INK_DISTANCE = 70  # a pixel this far from the paper colour (largest channel) is ink
#: ink marks this close are one index: a rank and the suit sign under it (a deck may leave
#: a few mm between them), the two figures of a 10 side by side — but not a court's own big
#: suit sign printed just right of the index
JOIN_DOWN_CM, JOIN_ACROSS_CM = 0.4, 0.12

_RANK_WORDS = {"A": ("1", "ace"), "J": ("jack",), "Q": ("queen",), "K": ("king",), "T": ("10",)}
_SUIT_WORDS = {"S": "spade", "H": "heart", "C": "club", "D": "diamond"}
_JOKER_IDS = {"HR": ("joker_red", "red_joker"), "SB": ("joker_black", "black_joker")}
_BACK_IDS = ("back", "card_back", "back_c1")


class ArtError(RuntimeError):
    """A deck that cannot be drawn here (its package not installed, no SVG renderer)."""


@dataclass(frozen=True)
class IndexBox:
    """A corner index found on a face: its box in face pixels and its marks' heights in cm."""

    box: tuple[float, float, float, float]
    rank_cm: float
    suit_cm: float


def element_ids(svg: Path) -> set[str]:
    """Every element id in a deck's SVG (gzipped or not)."""
    raw = svg.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return set(re.findall(r'\bid="([^"]+)"', raw.decode("utf-8", "replace")))


def element_for(card: str, ids: set[str]) -> str | None:
    """The SVG element drawing ``card`` (a platform name, ``"back"`` for the back), if any."""
    if card == "back":
        candidates: tuple[str, ...] = _BACK_IDS
    elif card in _JOKER_IDS:
        candidates = _JOKER_IDS[card]
    else:
        suit = _SUIT_WORDS[card[0]]
        ranks = _RANK_WORDS.get(card[1], (card[1],))
        candidates = tuple(f for r in ranks for f in (f"{r}_{suit}", f"{suit}_{r}"))
    return next((c for c in candidates if c in ids), None)


def rsvg() -> str:
    found = shutil.which("rsvg-convert")
    if found is None:
        raise ArtError("rsvg-convert is not installed (Debian: apt-get install librsvg2-bin)")
    return found


def draw_element(svg: Path, element: str, zoom: float) -> np.ndarray:
    """One SVG element drawn at ``zoom``: BGRA."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "card.png"
        done = subprocess.run([rsvg(), f"--export-id={element}", f"--zoom={zoom:.4f}", "-o", str(out), str(svg)],
                              capture_output=True, text=True, check=False)
        image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED) if out.exists() else None
    if done.returncode != 0 or image is None:
        raise ArtError(f"{svg.name}: cannot draw {element}: {done.stderr.strip()[:200]}")
    if image.ndim == 2 or image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA if image.ndim == 2 else cv2.COLOR_BGR2BGRA)
    return image


def card_region(drawing: np.ndarray) -> tuple[int, int, int, int]:
    """The card in a drawing of its element: the largest opaque region's box (x0, y0, x1, y1)."""
    opaque = (drawing[..., 3] > 127).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(opaque, connectivity=8)
    if n < 2:
        raise ArtError("nothing drawn")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[best, :4])
    return x, y, x + w, y + h


def draw_face(svg: Path, element: str, height_px: int) -> np.ndarray:
    """``element`` drawn as one upright card ``height_px`` tall, on its own alpha (BGRA)."""
    probe = draw_element(svg, element, 1.0)
    x0, y0, x1, y1 = card_region(probe)
    drawing = draw_element(svg, element, height_px / max(y1 - y0, 1))
    x0, y0, x1, y1 = card_region(drawing)
    return drawing[y0:y1, x0:x1]


def paper_colour(face: np.ndarray) -> np.ndarray:
    """The card's paper: the median of a band just inside its edges (BGR)."""
    h, w = face.shape[:2]
    band = np.zeros((h, w), bool)
    a, b = max(2, int(0.03 * w)), max(4, int(0.07 * w))
    band[a:h - a, a:b] = True
    band[a:h - a, w - b:w - a] = True
    band &= face[..., 3] > 200
    pixels = face[..., :3][band]
    return np.median(pixels, axis=0) if len(pixels) else np.array([255.0, 255.0, 255.0])


def ink_mask(face: np.ndarray) -> np.ndarray:
    """Where the face is printed: far enough from its paper colour, inside the card."""
    paper = paper_colour(face)
    distance = np.abs(face[..., :3].astype(np.int16) - paper.astype(np.int16)).max(axis=2)
    return ((distance > INK_DISTANCE) & (face[..., 3] > 200)).astype(np.uint8)


def find_index(face: np.ndarray, px_per_cm: float = FACE_PX_PER_CM) -> IndexBox | None:
    """The top-left corner index of an upright face (BGRA), or None where none is printed."""
    h, w = face.shape[:2]
    cw, ch = int(w * CORNER_W), int(h * CORNER_H)
    ink = ink_mask(face)[:ch, :cw]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    edge = max(2, int(0.012 * w))
    kept = np.zeros_like(ink)
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        on_edge = x <= edge or y <= edge  # the card's outline or a border printed round it
        runs_on = x + bw >= cw - 1 or y + bh >= ch - 1  # art or a frame reaching the middle
        if area >= 4 and not on_edge and not runs_on:
            kept[labels == i] = 1
    if not kept.any():
        return None
    across, down = (max(3, int(round(cm * px_per_cm))) for cm in (JOIN_ACROSS_CM, JOIN_DOWN_CM))
    near = cv2.dilate(kept, cv2.getStructuringElement(cv2.MORPH_RECT, (across, down)))
    m, clusters, cstats, _ = cv2.connectedComponentsWithStats(near, connectivity=8)
    first = min(range(1, m), key=lambda i: cstats[i, 0] + cstats[i, 1])  # nearest the corner
    marks = kept & (clusters == first)
    ys, xs = np.nonzero(marks)
    box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    bw, bh = (box[2] - box[0]) / px_per_cm, (box[3] - box[1]) / px_per_cm
    if not (0.2 <= bw <= 2.2 and 0.4 <= bh <= 3.6):
        return None
    rank_cm, suit_cm = _mark_heights(marks, px_per_cm)
    return IndexBox(box, rank_cm, suit_cm)


def _mark_heights(marks: np.ndarray, px_per_cm: float) -> tuple[float, float]:
    """The rank's and the suit sign's heights in cm: the index's ink split into rows at its
    widest blank line; one row (a joker's word, a rank beside its sign) gives its height twice."""
    rows = np.nonzero(marks.any(axis=1))[0]
    top, bottom = int(rows.min()), int(rows.max()) + 1
    blank = [y for y in range(top, bottom) if not marks[y].any()]
    if not blank:
        tall = (bottom - top) / px_per_cm
        return tall, tall
    gaps, start = [], blank[0]
    for a, b in zip(blank, [*blank[1:], None], strict=True):
        if b != a + 1:
            gaps.append((start, a + 1))
            start = b
    cut_a, cut_b = max(gaps, key=lambda g: g[1] - g[0])
    lower = marks[cut_b:bottom]
    lower_rows = np.nonzero(lower.any(axis=1))[0]
    suit = (lower_rows.max() + 1 - lower_rows.min()) / px_per_cm if len(lower_rows) else 0.0
    return (cut_a - top) / px_per_cm, float(suit)


def deck_cards() -> tuple[str, ...]:
    """What a deck's faces folder can hold: the 54 cards and the back."""
    return (*ALL_CARDS, "back")
