"""A seat's play zone as the detector sees it, with one label per visible corner index.

DESIGN §5: the detector runs on upright zone images of the rectified table plane, where
a player's cards lie facing them in a row, left to right, each overlapping the previous
so its top-left index stays visible. A scene here is one such image: a table surface,
rows of overlapping cards (any deck style, turned as a whole, each card jittered), face-down
piles, props and hands, light, and a camera round trip. The scale is drawn per image
(``px_per_cm``, 6–20 by default, log-uniform) so the model also copes with zones warped
from distant cameras and with plain unrectified photos.

Labels come from the ID mask (``labels.scene_labels``), never from where a card was meant
to be: whatever covers an index — the next card, a thumb, a cup, the image border —
removes its label exactly when less than ``min_visible`` of it remains.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.cards import ALL_CARDS
from vision.synth import lighting, plays, props
from vision.synth.camera import CameraConfig, Capture, camera_round_trip, oblique_photo
from vision.synth.deck import Deck, card_image, marks_cm, prints
from vision.synth.labels import OCCLUDER, Label, Placed, scene_labels
from vision.synth.raster import paste_affine, rotation
from vision.synth.surface import table_surface

#: Card render scales (px/cm). A scene resamples from the nearest one at or above its own
#: scale: crisp enough (at most 1.5× down), and few enough that the card cache stays warm.
LEVELS = (8.0, 12.0, 16.0, 24.0)


@dataclass(frozen=True)
class SceneConfig:
    """How scenes are drawn. Ranges are (low, high); probabilities are per image."""

    size: int = 320
    px_per_cm: tuple[float, float] = (6.0, 20.0)
    rows: tuple[int, int] = (1, 3)
    max_cards: int = 10
    overlap: tuple[float, float] = (0.55, 0.80)
    upright_prob: float = 0.7
    upright_deg: float = 10.0
    jitter_cm: float = 0.08
    jitter_deg: float = 2.0
    play_prob: float = 0.5
    #: share of rows that hold jokers (``plays.joker_row``): two cards in 54 are jokers, and
    #: each design prints its own, so a set that must learn many designs' jokers lays more
    joker_share: float = 0.0
    second_deck_prob: float = 0.15
    empty_prob: float = 0.03
    pile_prob: float = 0.3
    hand_prob: float = 0.25
    distractors: tuple[int, int] = (0, 3)
    under_prob: float = 0.35
    shadow_prob: float = 0.35
    glare_prob: float = 0.35
    light: tuple[float, float] = (0.0, 0.5)
    min_visible: float = 0.6
    camera: CameraConfig = field(default_factory=CameraConfig)

    @classmethod
    def from_dict(cls, data: dict | None, **overrides: object) -> SceneConfig:
        """Build from a recipe's ``scene:`` mapping; unknown keys raise ``ValueError``."""
        data = dict(data or {})
        data.update(overrides)
        names = {f.name: f for f in dataclasses.fields(cls)}
        kwargs: dict[str, object] = {}
        for key, value in data.items():
            if key not in names:
                raise ValueError(f"unknown scene setting {key!r} (known: {', '.join(sorted(names))})")
            if key == "camera":
                cam_fields = {f.name for f in dataclasses.fields(CameraConfig)}
                if not isinstance(value, dict) or set(value) - cam_fields:
                    raise ValueError(f"camera: expected a mapping with keys from {sorted(cam_fields)}")
                value = CameraConfig(**{k: tuple(v) if isinstance(v, list) else v for k, v in value.items()})
            elif isinstance(value, list):
                value = tuple(value)
            kwargs[key] = value
        cfg = cls(**kwargs)  # type: ignore[arg-type]
        cfg.check()
        return cfg

    def check(self) -> None:
        lo, hi = self.px_per_cm
        if not 1 <= lo <= hi <= max(LEVELS):
            raise ValueError(f"px_per_cm must be a range within 1..{max(LEVELS):g}")
        if not 0 <= self.overlap[0] <= self.overlap[1] < 1:
            raise ValueError("overlap must be a range within 0..1")
        if self.size < 32:
            raise ValueError("size must be at least 32 pixels")
        if not 0 < self.min_visible <= 1:
            raise ValueError("min_visible must be within 0..1")
        if not 0 <= self.joker_share <= 1:
            raise ValueError("joker_share must be within 0..1")


@dataclass
class Scene:
    """A rendered zone: the image, its ID mask, the face-up cards and their labels."""

    image: np.ndarray
    ids: np.ndarray
    placed: list[Placed]
    labels: list[Label]
    px_per_cm: float
    capture: Capture
    #: the homography from the zone (where ``ids`` and ``placed`` lie) to the picture, where
    #: the picture is left in a leaning camera's perspective (``CameraConfig.tilt``); None
    #: where it is rectified, as the table's camera gives it
    view: np.ndarray | None = None

    @property
    def sharp_px_per_cm(self) -> float:
        """Table detail the photograph kept (``Capture.sharp_px_per_cm``)."""
        return self.capture.sharp_px_per_cm(self.px_per_cm)


def level_for(ppc: float) -> float:
    """The card render scale to resample from for a scene at ``ppc``."""
    return next((lv for lv in LEVELS if lv >= ppc), LEVELS[-1])


@dataclass
class _Row:
    cards: list[str]
    decks: list[Deck]
    centre: np.ndarray
    angle: float
    step_cm: float
    length_cm: float
    width_cm: float


def _row_polygon(row: _Row, ppc: float) -> np.ndarray:
    a = np.deg2rad(row.angle)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    hl, hh = row.length_cm * ppc / 2, 8.8 * ppc / 2
    return np.array([row.centre + sx * hl * u + sy * hh * v for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def _occupied_share(occ: np.ndarray, poly: np.ndarray, cell: float) -> float:
    m = np.zeros_like(occ)
    cv2.fillPoly(m, [np.round(poly / cell).astype(np.int32)], 1)
    area = int(m.sum())
    return float((m & occ).sum()) / area if area else 1.0


def _mark(occ: np.ndarray, poly: np.ndarray, cell: float) -> None:
    cv2.fillPoly(occ, [np.round(poly / cell).astype(np.int32)], 1)


def _plan_rows(rng: np.random.Generator, cfg: SceneConfig, decks: Sequence[Deck], ppc: float,
               occ: np.ndarray, cell: float) -> list[_Row]:
    size = cfg.size
    n_rows = 0 if rng.random() < cfg.empty_prob else int(rng.integers(cfg.rows[0], cfg.rows[1] + 1))
    two_decks = len(decks) > 1 and rng.random() < cfg.second_deck_prob
    base_angle = rng.normal(0, cfg.upright_deg / 2) if rng.random() < cfg.upright_prob else rng.uniform(-180, 180)
    rows: list[_Row] = []
    for _ in range(n_rows):
        cards = plays.random_row(rng, cfg.max_cards, cfg.play_prob)
        if cfg.joker_share and rng.random() < cfg.joker_share:  # no draw at 0: older recipes unchanged
            cards = plays.joker_row(rng, cfg.max_cards)
        row_decks = [decks[1] if two_decks and rng.random() < 0.5 else decks[0] for _ in cards]
        w_cm = row_decks[0].size_cm[0]
        step = w_cm * (1 - rng.uniform(*cfg.overlap))
        length = w_cm + step * (len(cards) - 1)
        angle = base_angle + rng.normal(0, 4)  # rows of one zone lie roughly parallel
        for _attempt in range(12):
            row = _Row(cards, row_decks, np.zeros(2), angle, step, length, w_cm)
            ext = np.abs(_row_polygon(row, ppc)).max(axis=0)
            lo = np.minimum(ext, size / 2)
            centre = rng.uniform(lo, size - lo) if rng.random() < 0.75 else rng.uniform(0.1 * size, 0.9 * size, 2)
            row.centre = centre
            poly = _row_polygon(row, ppc)
            if _occupied_share(occ, poly, cell) < 0.06:
                _mark(occ, poly, cell)
                rows.append(row)
                break
    return rows


def _paint_row(canvas: np.ndarray, ids: np.ndarray, rng: np.random.Generator, row: _Row, ppc: float,
               cfg: SceneConfig, first_id: int) -> list[Placed]:
    a = np.deg2rad(row.angle)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    level = level_for(ppc)
    placed = []
    shadow = rng.uniform(0.1, 0.45)
    for k, (card, deck) in enumerate(zip(row.cards, row.decks, strict=True)):
        if not prints(deck, card):  # a real design without jokers: another card in the joker's place
            card = ALL_CARDS[int(rng.integers(52))]
        img = card_image(card, deck, level)
        h, w = img.alpha.shape
        x = -row.length_cm / 2 + row.width_cm / 2 + k * row.step_cm + rng.normal(0, cfg.jitter_cm)
        y = rng.normal(0, cfg.jitter_cm)
        centre = row.centre + (x * u + y * v) * ppc
        m = rotation(row.angle + rng.normal(0, cfg.jitter_deg), ppc / level, (w / 2, h / 2), tuple(centre))
        ident = first_id + k
        paste_affine(canvas, ids, img.bgr, img.alpha, m, ident, shadow=shadow,
                     shadow_offset=(rng.uniform(0.3, 1.5), rng.uniform(0.5, 2.0)))
        placed.append(Placed(ident, card, m, img.boxes, marks_cm(deck, card)))
    return placed


def _free_point(rng: np.random.Generator, occ: np.ndarray, cell: float, size: int) -> tuple[float, float]:
    for _ in range(10):
        p = rng.uniform(0, size, 2)
        if not occ[min(occ.shape[0] - 1, int(p[1] / cell)), min(occ.shape[1] - 1, int(p[0] / cell))]:
            return float(p[0]), float(p[1])
    return float(p[0]), float(p[1])


def render_scene(rng: np.random.Generator | int, decks: Sequence[Deck],
                 config: SceneConfig | None = None) -> Scene:
    """Render one zone image with ``decks`` (the first is the main deck, a second one may mix in).

    ``rng`` is a numpy Generator or a seed; the same seed, decks and config give the same
    image and labels, byte for byte.
    """
    cfg = config or SceneConfig()
    if not isinstance(rng, np.random.Generator):
        rng = np.random.default_rng(rng)
    if not decks:
        raise ValueError("render_scene needs at least one deck style")
    size = cfg.size
    lo, hi = cfg.px_per_cm
    ppc = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    canvas = table_surface(rng, (size, size), ppc)
    ids = np.zeros((size, size), np.uint16)
    cell = 4.0
    occ = np.zeros((int(np.ceil(size / cell)) + 1,) * 2, np.uint8)

    rows = _plan_rows(rng, cfg, decks, ppc, occ, cell)
    n_props = int(rng.integers(cfg.distractors[0], cfg.distractors[1] + 1))
    under = [rng.random() < cfg.under_prob for _ in range(n_props)]
    for is_under in under:
        if is_under:
            props.paint_distractor(canvas, ids, rng, ppc, _free_point(rng, occ, cell, size))
    if rng.random() < cfg.pile_prob:
        props.paint_pile(canvas, ids, rng, decks[0], level_for(ppc), ppc, _free_point(rng, occ, cell, size))
    placed: list[Placed] = []
    for row in rows:
        placed += _paint_row(canvas, ids, rng, row, ppc, cfg, len(placed) + 1)
    for is_under in under:
        if not is_under:
            props.paint_distractor(canvas, ids, rng, ppc, _free_point(rng, occ, cell, size))
    if rng.random() < cfg.hand_prob:
        if placed and rng.random() < 0.75:
            target = placed[int(rng.integers(len(placed)))].m[:, 2] + rng.normal(0, 2 * ppc, 2)
        else:
            target = rng.uniform(0, size, 2)
        props.paint_hand(canvas, ids, rng, ppc, (float(target[0]), float(target[1])))

    lighting.uneven_light(canvas, rng, float(rng.uniform(*cfg.light)))
    if rng.random() < cfg.shadow_prob:
        lighting.soft_shadow(canvas, rng, ppc)
    if rng.random() < cfg.glare_prob:
        gloss = np.where(ids == 0, 0.15, np.where(ids == OCCLUDER, 0.5, 1.0)).astype(np.float32)
        lighting.glare(canvas, rng, gloss, ppc)
    lighting.colour_cast(canvas, rng)
    view = None
    if cfg.camera.oblique:
        image, capture, view = oblique_photo(canvas, rng, cfg.camera)
    else:
        image, capture = camera_round_trip(canvas, rng, cfg.camera)
    labels = scene_labels(ids, placed, cfg.min_visible, view=view)
    return Scene(image, ids, placed, labels, ppc, capture, view)
