"""A camera's picture of a deck laid out for enrollment (``vision.enroll.layout``): the 54
cards of one rendered deck style, upright for South, in 6 rows of 9 with gaps between them.

For testing enrollment end to end on pictures whose truth is known, and for showing what the
layout looks like (``docs/vision.md``)."""

from __future__ import annotations

import numpy as np

from vision.synth.art_decks import ArtDeck
from vision.synth.render_game import Renderer

GAP_CM = 0.8  # between neighbouring cards


def layout_centres(size_cm: tuple[float, float], rows: int = 6, columns: int = 9) -> list[np.ndarray]:
    """Table-cm centres of the layout's places in reading order from South (the row nearest
    North first, each from West to East), centred on the table."""
    w, h = size_cm
    xs = (np.arange(columns) - (columns - 1) / 2) * (w + GAP_CM)
    ys = ((rows - 1) / 2 - np.arange(rows)) * (h + GAP_CM)
    return [np.array([x, y]) for y in ys for x in xs]


def layout_photo(seed: int, cards: list[str | None], size: tuple[int, int] = (1920, 1080),
                 art: ArtDeck | None = None) -> np.ndarray:
    """One camera frame of ``cards`` (54 names, in the order they are laid; None leaves a
    place empty) in the layout, in the held-out deck style (or the real design ``art``),
    table, light and camera of ``seed``."""
    renderer = Renderer(seed, size, art=art)
    canvas = renderer.base.copy()
    for card, centre in zip(cards, layout_centres(renderer.style.size_cm), strict=True):
        if card is None:
            continue
        bgr, alpha = renderer.card_facing(card, "S")
        renderer.place(canvas, bgr, alpha, centre)
    return renderer.camera(renderer.view(canvas))
