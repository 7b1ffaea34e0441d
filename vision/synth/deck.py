"""Card faces for all 54 cards in any deck style, with the boxes of their corner indices.

``render_card(card, style, px_per_cm)`` is the public face of the deck: it returns the
card as a BGR image and the index boxes the detector is trained to find. The styles
themselves (``DeckStyle``, ``styles``) live in ``style`` and the drawing in ``faces``;
both are re-exported here so that a caller needs only this module.

A card is drawn at the scale it is asked for, never scaled from a master image, so small
cards get crisp text rather than blurred big text; scenes ask for a few fixed scales and
resample from there, which keeps the cache (``card_image``) small and warm. A real deck's
art (``ArtDeck``, ``vision.synth.art_decks``) is the exception: it is drawn once from its SVG
at 40 px/cm and resampled to the scale asked for, its index boxes with it.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import cv2
import numpy as np

from engine.cards import ALL_CARDS
from vision.synth import faces
from vision.synth.art_decks import ArtDeck, face
from vision.synth.raster import draw_polyline, rounded_rect_mask, rounded_rect_points
from vision.synth.style import DeckStyle, styles

__all__ = ["ALL_CARDS", "ArtDeck", "Box", "CardImage", "Deck", "DeckStyle", "back_image", "card_image",
           "card_size_px", "marks_cm", "prints", "render_back", "render_card", "styles"]

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in card pixels
Deck = DeckStyle | ArtDeck  # a procedural style or a real design


class CardImage(NamedTuple):
    """A rendered card side: BGR pixels, its silhouette (rounded corners) and index boxes."""

    bgr: np.ndarray      # uint8 H×W×3
    alpha: np.ndarray    # uint8 H×W, 255 inside the card
    boxes: tuple[Box, ...]  # top-left, bottom-right (and top-right, bottom-left on four-index decks)


def card_size_px(style: Deck, px_per_cm: float) -> tuple[int, int]:
    """(width, height) in pixels of a card of ``style`` at ``px_per_cm``."""
    w, h = style.size_cm
    return max(8, int(round(w * px_per_cm))), max(10, int(round(h * px_per_cm)))


def _finish(canvas: np.ndarray, style: DeckStyle, ppc: float) -> tuple[np.ndarray, np.ndarray]:
    H, W = canvas.shape[:2]
    r = style.corner_radius_cm * ppc
    draw_polyline(canvas, rounded_rect_points(0.5, 0.5, W - 1.5, H - 1.5, r), style.edge, max(1.0, 0.02 * ppc))
    bgr = np.clip(canvas + 0.5, 0, 255).astype(np.uint8)
    alpha = rounded_rect_mask(W, H, r)
    bgr.flags.writeable = False
    alpha.flags.writeable = False
    return bgr, alpha


def prints(style: Deck, card: str) -> bool:
    """Whether the deck has a face for ``card``: every procedural style does; a real design
    may print no jokers."""
    return not isinstance(style, ArtDeck) or card in style.cards


def marks_cm(style: Deck, card: str) -> tuple[float, float]:
    """How tall the card's rank and suit sign are printed, in cm (``faces.index_marks_cm``)."""
    if isinstance(style, ArtDeck):
        _, index = face(style, card)
        return (index.rank_cm, index.suit_cm) if index is not None else (0.0, 0.0)
    return faces.index_marks_cm(style, card)


def _art_image(card: str, deck: ArtDeck, ppc: float) -> CardImage:
    """A real design's face (or back) resampled to ``ppc``; its two corner indices boxed."""
    bgra, index = face(deck, card)
    W, H = card_size_px(deck, ppc)
    h, w = bgra.shape[:2]
    shrink = w > W
    image = cv2.resize(bgra, (W, H), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC)
    alpha = np.minimum(image[..., 3], rounded_rect_mask(W, H, deck.corner_radius_cm * ppc))
    bgr = np.ascontiguousarray(image[..., :3])
    boxes: tuple[Box, ...] = ()
    if index is not None:
        sx, sy = W / w, H / h
        x0, y0, x1, y1 = index.box
        boxes = ((x0 * sx, y0 * sy, x1 * sx, y1 * sy), (W - x1 * sx, H - y1 * sy, W - x0 * sx, H - y0 * sy))
    bgr.flags.writeable = False
    alpha.flags.writeable = False
    return CardImage(bgr, alpha, boxes)


@functools.lru_cache(maxsize=768)
def card_image(card: str, style: Deck, px_per_cm: float) -> CardImage:
    """The face of ``card`` (a platform name such as ``"S5"``, ``"HR"``) in ``style``; cached."""
    if card not in ALL_CARDS:
        raise ValueError(f"not a card: {card!r}")
    ppc = float(px_per_cm)
    if isinstance(style, ArtDeck):
        return _art_image(card, style, ppc)
    W, H = card_size_px(style, ppc)
    canvas = np.empty((H, W, 3), np.float32)
    canvas[...] = np.asarray(style.paper, np.float32)
    faces.draw_frame(canvas, style, ppc)
    extent = faces.index_extent(style, card, ppc)
    if card in ("SB", "HR"):
        faces.draw_joker_centre(canvas, style, card, ppc, extent)
    elif card[1] in "JQK":
        faces.draw_court(canvas, style, card, ppc, extent)
    else:
        faces.draw_number_centre(canvas, style, card, ppc, extent)
    boxes = tuple(faces.draw_index(canvas, style, card, ppc, c) for c in faces.corners_of(style))
    bgr, alpha = _finish(canvas, style, ppc)
    return CardImage(bgr, alpha, boxes)


@functools.lru_cache(maxsize=64)
def back_image(style: Deck, px_per_cm: float) -> CardImage:
    """The back of a card of ``style`` (face-down piles); it has no index boxes."""
    if isinstance(style, ArtDeck):
        art = _art_image("back", style, float(px_per_cm))
        return CardImage(art.bgr, art.alpha, ())
    W, H = card_size_px(style, px_per_cm)
    canvas = np.empty((H, W, 3), np.float32)
    canvas[...] = np.asarray(style.paper, np.float32)
    faces.draw_back(canvas, style, float(px_per_cm))
    bgr, alpha = _finish(canvas, style, float(px_per_cm))
    return CardImage(bgr, alpha, ())


def render_card(card: str, style: Deck, px_per_cm: float = 20.0) -> tuple[np.ndarray, list[Box]]:
    """Render one card face: (BGR image, corner index boxes in card pixel coordinates).

    A poker card is 6.3 × 8.8 cm and a bridge card 5.7 × 8.8 cm (``style.size_cm``).
    The first box is the top-left index, the second the bottom-right one (turned 180°);
    four-index decks add top-right and bottom-left. Pixels outside the rounded corners
    are black; ``card_image`` also gives the silhouette as an alpha mask.
    """
    img = card_image(card, style, float(px_per_cm))
    out = (img.bgr.astype(np.uint16) * img.alpha[..., None] // 255).astype(np.uint8)
    return out, list(img.boxes)


def render_back(style: Deck, px_per_cm: float = 20.0) -> np.ndarray:
    """The back of a card of ``style`` as a BGR image (black outside the corners)."""
    img = back_image(style, float(px_per_cm))
    return (img.bgr.astype(np.uint16) * img.alpha[..., None] // 255).astype(np.uint8)
