"""Drawing the printed parts of a card: indices, pips, court and joker art, frames, backs.

Every function draws onto a float32 BGR canvas in card pixels at ``ppc`` pixels per cm
and reads only the ``DeckStyle``. The indices matter most (they are what the detector
learns), so they are drawn last, on top of everything, and return their exact ink box.
The art in the middle only has to look enough like a card that the detector learns to
ignore it: coloured panels, simple figures, patterns and letters.

The upside-down half of a card is drawn by drawing the upright half onto a flipped view
of the canvas (``canvas[::-1, ::-1]``): a 180° turn costs nothing and cannot drift.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.synth import fonts
from vision.synth.raster import draw_polyline, rounded_rect_points, stamp
from vision.synth.shapes import (
    crown_points,
    fill_circle,
    fill_poly,
    ring_star_mask,
    star_mask,
    star_points,
    suit_mask,
    wheel_mask,
)
from vision.synth.style import Colour, DeckStyle

Box = tuple[float, float, float, float]
SKIN: Colour = (140, 175, 225)
PIP_ROWS: dict[str, tuple[tuple[str, float], ...]] = {
    "2": (("C", 0), ("C", 1)),
    "3": (("C", 0), ("C", 0.5), ("C", 1)),
    "4": (("L", 0), ("R", 0), ("L", 1), ("R", 1)),
    "5": (("L", 0), ("R", 0), ("C", 0.5), ("L", 1), ("R", 1)),
    "6": (("L", 0), ("R", 0), ("L", 0.5), ("R", 0.5), ("L", 1), ("R", 1)),
    "7": (("L", 0), ("R", 0), ("C", 0.25), ("L", 0.5), ("R", 0.5), ("L", 1), ("R", 1)),
    "8": (("L", 0), ("R", 0), ("C", 0.25), ("L", 0.5), ("R", 0.5), ("C", 0.75), ("L", 1), ("R", 1)),
    "9": tuple((c, r) for c in "LR" for r in (0, 1 / 3, 2 / 3, 1)) + (("C", 0.5),),
    "T": tuple((c, r) for c in "LR" for r in (0, 1 / 3, 2 / 3, 1)) + (("C", 1 / 6), ("C", 5 / 6)),
}


def rank_text(card: str) -> str:
    """What the index prints for a card's rank (``T`` prints as 10, as real decks do)."""
    return "10" if card[1] == "T" else card[1]


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return tuple(float(x) * (1 - t) + float(y) * t for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _grey(c: Colour, dark: float = 0.55) -> Colour:
    g = (0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2]) * dark
    return (g, g, g)


def _union(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _put(canvas: np.ndarray, mask: np.ndarray, colour: Colour, x: float, y: float) -> Box:
    xi, yi = int(round(x)), int(round(y))
    stamp(canvas, mask, colour, xi, yi)
    return (float(xi), float(yi), float(xi + mask.shape[1]), float(yi + mask.shape[0]))


def _rank_mask(style: DeckStyle, text: str, cap_px: float) -> np.ndarray:
    squeeze = style.ten_squeeze if len(text) > 1 else 1.0
    return fonts.text_mask(style.font, text, cap_px, squeeze, style.slant)


# ------------------------------------------------------------------------------ indices

def index_block(style: DeckStyle, card: str, ppc: float) -> list[tuple[np.ndarray, Colour, float, float]]:
    """The corner index as masks with colours and offsets from the block's top-left."""
    if card in ("SB", "HR"):
        return _joker_block(style, card, ppc)
    suit = card[0]
    colour = style.ink(suit)
    cap = style.rank_cap_cm * ppc
    rank = _rank_mask(style, rank_text(card), cap)
    sm = suit_mask(suit, max(3, int(round(cap * style.suit_scale))), style.suit_shape)
    gap = style.index_gap_cm * ppc
    rh, rw = rank.shape
    sh, sw = sm.shape
    if style.index_layout == "beside":
        return [(rank, colour, 0.0, 0.0), (sm, colour, rw + gap, max(0.0, (rh - sh) / 2))]
    bw = max(rw, sw)
    return [(rank, colour, (bw - rw) / 2, 0.0), (sm, colour, (bw - sw) / 2, rh + gap)]


#: a joker's corner characters (大王 / 小王) and star are drawn this many times its letter height
CJK_MARK, ICON_MARK = 1.45, 2.0


def _joker_block(style: DeckStyle, card: str, ppc: float) -> list[tuple[np.ndarray, Colour, float, float]]:
    j = style.joker
    colour = j.big_colour if card == "HR" else j.small_colour
    cap = j.letter_cm * ppc
    cjk = fonts.cjk_font()
    if j.corner == "cjk" and cjk is not None:
        chars = "大王" if card == "HR" else "小王"
        masks = [fonts.text_mask(cjk, ch, cap * CJK_MARK) for ch in chars]
        return [(fonts.stack_vertical(masks, max(1, int(cap * 0.15))), colour, 0.0, 0.0)]
    if j.corner == "icon":
        icon = {"star": star_mask, "ring": ring_star_mask, "wheel": wheel_mask}[j.icon]
        return [(icon(int(round(cap * ICON_MARK))), colour, 0.0, 0.0)]
    masks = [fonts.text_mask(style.font, ch, cap, 1.0, style.slant) for ch in j.word]
    return [(fonts.stack_vertical(masks, max(1, int(cap * 0.18))), colour, 0.0, 0.0)]


def index_marks_cm(style: DeckStyle, card: str) -> tuple[float, float]:
    """How tall the index's two marks are printed, in cm: (rank, suit sign). What a camera
    must resolve to read the card is the smaller one, mostly the suit sign: a jumbo index's
    sign is 0.4–0.6 of its rank, and a spade and a club a few pixels tall are one blot. A
    joker's corner has one mark, its word or picture, given twice."""
    if card in ("SB", "HR"):
        j = style.joker
        tall = j.letter_cm * (CJK_MARK if j.corner == "cjk" and fonts.cjk_font() is not None
                              else ICON_MARK if j.corner == "icon" else 1.0)
        return tall, tall
    return style.rank_cap_cm, style.rank_cap_cm * style.suit_scale


def _block_size(parts: list[tuple[np.ndarray, Colour, float, float]]) -> tuple[float, float]:
    return (max(dx + m.shape[1] for m, _, dx, _ in parts), max(dy + m.shape[0] for m, _, _, dy in parts))


def index_origin(style: DeckStyle, card: str, ppc: float) -> tuple[float, float]:
    """Top-left of the top-left index block: at the inset, ranks sharing one centre axis."""
    parts = index_block(style, card, ppc)
    bw, _ = _block_size(parts)
    ix, iy = style.index_inset_cm[0] * ppc, style.index_inset_cm[1] * ppc
    if style.index_layout != "beside" and card not in ("SB", "HR"):
        ref = _rank_mask(style, "A", style.rank_cap_cm * ppc).shape[1]
        sw = parts[1][0].shape[1]
        ix += (max(ref, sw) - bw) / 2  # a wide "10" grows both ways around the axis
    return max(0.05 * ppc, ix), iy


def draw_index(canvas: np.ndarray, style: DeckStyle, card: str, ppc: float, corner: str) -> Box:
    """Draw the index in ``corner`` (tl, br, tr, bl) and return its box padded by 0.4 mm.

    ``br`` and ``bl`` are the ``tl``/``tr`` indices turned 180°, as printed on real cards.
    """
    H, W = canvas.shape[:2]
    parts = index_block(style, card, ppc)
    bw, bh = _block_size(parts)
    ox, oy = index_origin(style, card, ppc)
    if corner in ("tr", "bl"):
        ox = W - ox - bw
    view = canvas[::-1, ::-1] if corner in ("br", "bl") else canvas
    box = _union([_put(view, m, c, ox + dx, oy + dy) for m, c, dx, dy in parts])
    pad = 0.04 * ppc
    x0, y0, x1, y1 = max(0.0, box[0] - pad), max(0.0, box[1] - pad), min(W, box[2] + pad), min(H, box[3] + pad)
    if corner in ("br", "bl"):
        return (W - x1, H - y1, W - x0, H - y0)
    return (x0, y0, x1, y1)


def corners_of(style: DeckStyle) -> tuple[str, ...]:
    return ("tl", "br", "tr", "bl") if style.four_index else ("tl", "br")


def index_extent(style: DeckStyle, card: str, ppc: float) -> Box:
    """Where the top-left index lies, without drawing it (to keep the art clear of it)."""
    parts = index_block(style, card, ppc)
    bw, bh = _block_size(parts)
    ox, oy = index_origin(style, card, ppc)
    return (ox, oy, ox + bw, oy + bh)


# ------------------------------------------------------------------------------ centres

def draw_frame(canvas: np.ndarray, style: DeckStyle, ppc: float) -> None:
    if style.frame == "none":
        return
    H, W = canvas.shape[:2]
    inset = max(0.08, min(style.index_inset_cm) * 0.45) * ppc
    r = max(0.0, style.corner_radius_cm * ppc - inset)
    thick = max(1.0, 0.03 * ppc)
    draw_polyline(canvas, rounded_rect_points(inset, inset, W - 1 - inset, H - 1 - inset, r), style.frame_colour, thick)
    if style.frame == "double":
        d = inset + 2.5 * thick
        draw_polyline(canvas, rounded_rect_points(d, d, W - 1 - d, H - 1 - d, max(0.0, r - 2.5 * thick)),
                      style.frame_colour, thick)


def _pip(canvas: np.ndarray, style: DeckStyle, suit: str, cx: float, cy: float, h: float, flip: bool) -> None:
    m = suit_mask(suit, max(3, int(round(h))), style.suit_shape)
    H, W = canvas.shape[:2]
    if flip:
        _put(canvas[::-1, ::-1], m, style.ink(suit), W - cx - m.shape[1] / 2, H - cy - m.shape[0] / 2)
    else:
        _put(canvas, m, style.ink(suit), cx - m.shape[1] / 2, cy - m.shape[0] / 2)


def draw_number_centre(canvas: np.ndarray, style: DeckStyle, card: str, ppc: float, index: Box) -> None:
    """Pips of 2–10 and the ace, in the style's layout."""
    H, W = canvas.shape[:2]
    suit, rank = card[0], card[1]
    if rank == "A":
        size = {"plain": 1.7, "big_rank": 2.0}.get(style.pip_layout, 2.2 + 0.5 * (suit == "S")) * ppc
        _pip(canvas, style, suit, W / 2, H / 2, min(size, W * 0.55), False)
        return
    if style.pip_layout == "plain":
        return
    if style.pip_layout == "big_centre":
        _pip(canvas, style, suit, W / 2, H / 2, min(style.pip_cm * 2.3 * ppc, W * 0.6), False)
        return
    if style.pip_layout == "big_rank":
        text = _rank_mask(style, rank_text(card), 2.3 * ppc)
        _put(canvas, text, style.ink(suit), W / 2 - text.shape[1] / 2, H / 2 - text.shape[0] * 0.75)
        _pip(canvas, style, suit, W / 2, H / 2 + 1.3 * ppc, 1.2 * ppc, False)
        return
    # the pips keep clear of the index either by starting below it or by standing right of it,
    # whichever leaves them bigger; four rows of a 10 must leave room for the middle column
    want = style.pip_cm * ppc
    base_margin = max(0.95 * ppc, 0.11 * H)
    below = max(base_margin, index[3] + 0.1 * ppc)
    size_below = min(want, 0.17 * (H - 2 * below), (W / 2 - 0.17 * W) / 1.3 / 0.95)
    beside_left = max(0.17 * W, index[2] + 0.1 * ppc)
    size_beside = min(want, 0.17 * (H - 2 * base_margin), (W / 2 - beside_left) / 1.3 / 0.95)
    if size_below >= size_beside:
        margin, left, ph = below, 0.17 * W, size_below
    else:
        margin, left, ph = base_margin, beside_left, size_beside
    ph = max(ph, 0.4 * ppc)
    pw = ph * 0.95
    y_top = margin + ph / 2
    y_bot = H - y_top
    cols = {"L": left + pw / 2, "C": W / 2, "R": W - left - pw / 2}
    for col, row in PIP_ROWS[rank]:
        cy = y_top + (y_bot - y_top) * row
        _pip(canvas, style, suit, cols[col], cy, ph, row > 0.5 + 1e-6)  # lower pips upside down


def _panel(style: DeckStyle, W: int, H: int, ppc: float, index: Box) -> tuple[int, int, int, int]:
    x0 = int(max(index[2] + 0.12 * ppc, 0.16 * W))
    y0 = int(max(0.7 * ppc, 0.1 * H))
    return x0, y0, W - x0, H - y0


def _mirror_half(panel: np.ndarray) -> None:
    """Make the panel's lower half the upper half turned 180° (double-headed court cards)."""
    h = panel.shape[0]
    top = h // 2
    panel[h - top:] = panel[:top][::-1, ::-1]


def _figure(panel: np.ndarray, rank: str, colours: tuple[Colour, ...], skin: Colour = SKIN) -> None:
    """A court figure's upper half: head, headwear by rank, robe with a collar and a sash."""
    ph, pw = panel.shape[:2]
    hh = ph / 2
    c0, c1 = colours[0], colours[1 % len(colours)]
    c2 = colours[2 % len(colours)]
    mask = np.zeros(panel.shape[:2], np.uint8)
    cx = pw * 0.5
    r = min(pw * 0.16, hh * 0.2)
    hy = hh * 0.42
    # robe
    fill_poly(mask, np.array([[cx - r * 1.1, hy + r * 0.9], [cx + r * 1.1, hy + r * 0.9],
                              [pw * 0.92, hh], [pw * 0.08, hh]]))
    stamp(panel, mask, c0, 0, 0)
    mask[:] = 0
    fill_poly(mask, np.array([[pw * 0.2, hh * 0.95], [pw * 0.35, hh * 0.95], [cx + r * 1.1, hy + r * 1.0],
                              [cx + r * 0.4, hy + r * 1.0]]))
    stamp(panel, mask, c2, 0, 0)
    mask[:] = 0
    fill_poly(mask, np.array([[cx - r * 1.2, hy + r * 0.8], [cx + r * 1.2, hy + r * 0.8],
                              [cx, hy + r * 1.9]]))
    stamp(panel, mask, c1, 0, 0)
    # hair (queens), head, eyes
    mask[:] = 0
    if rank == "Q":
        fill_circle(mask, cx, hy + r * 0.25, r * 1.25)
        stamp(panel, mask, (40, 60, 90), 0, 0)
        mask[:] = 0
    fill_circle(mask, cx, hy, r)
    stamp(panel, mask, skin, 0, 0)
    mask[:] = 0
    for ex in (cx - r * 0.38, cx + r * 0.38):
        fill_circle(mask, ex, hy - r * 0.1, max(0.6, r * 0.1))
    stamp(panel, mask, (30, 30, 30), 0, 0)
    # headwear
    mask[:] = 0
    if rank == "K":
        fill_poly(mask, crown_points(cx - r, hy - r * 1.9, 2 * r, r * 1.0, 3))
        stamp(panel, mask, (40, 170, 220), 0, 0)
    elif rank == "Q":
        fill_poly(mask, crown_points(cx - r * 0.75, hy - r * 1.55, 1.5 * r, r * 0.65, 4))
        stamp(panel, mask, (40, 170, 220), 0, 0)
    else:
        fill_poly(mask, np.array([[cx - r * 1.2, hy - r * 0.55], [cx + r * 1.2, hy - r * 0.55],
                                  [cx + r * 0.8, hy - r * 1.4], [cx - r * 0.7, hy - r * 1.3]]))
        stamp(panel, mask, c1, 0, 0)
        draw_polyline(panel, np.array([[cx + r * 0.6, hy - r * 1.3], [cx + r * 1.6, hy - r * 2.0]]), c2,
                      max(1.0, r * 0.15), closed=False)


def draw_court(canvas: np.ndarray, style: DeckStyle, card: str, ppc: float, index: Box) -> None:
    """J, Q, K: a framed picture panel whose art depends on ``style.court``."""
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = _panel(style, W, H, ppc, index)
    panel = canvas[y0:y1, x0:x1]
    ph, pw = panel.shape[:2]
    suit, rank = card[0], card[1]
    ink = style.ink(suit)
    cols = style.court_colours
    light = _mix(cols[0], style.paper, 0.82)
    if style.court == "figure":
        panel[...] = np.asarray(_mix(cols[-1], style.paper, 0.88), np.float32)
        _figure(panel, rank, cols)
        _mirror_half(panel)
        draw_polyline(panel, np.array([[0, ph * 0.56], [pw - 1, ph * 0.44]]), ink, max(1.0, 0.03 * ppc), False)
        s = suit_mask(suit, max(3, int(0.7 * ppc)), style.suit_shape)
        _put(panel, s, ink, pw * 0.06, ph * 0.05)
        _put(panel[::-1, ::-1], s, ink, pw * 0.06, ph * 0.05)
    elif style.court == "pattern":
        yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32)
        period = max(4.0, 0.5 * ppc)
        band = ((xx + yy) // period) % 2 == 0
        panel[band] = np.asarray(_mix(cols[0], style.paper, 0.6), np.float32)
        panel[~band] = np.asarray(_mix(cols[1 % len(cols)], style.paper, 0.75), np.float32)
        letter = _rank_mask(style, rank, min(pw * 0.55, 1.8 * ppc))
        _put(panel, letter, ink, pw / 2 - letter.shape[1] / 2, ph * 0.08)
        _mirror_half(panel)
        s = suit_mask(suit, max(3, int(min(pw * 0.5, 1.4 * ppc))), style.suit_shape)
        _put(panel, s, ink, pw / 2 - s.shape[1] / 2, ph / 2 - s.shape[0] / 2)
    elif style.court == "mosaic":
        n = 4
        for i in range(n):
            for j in range(n * 2):
                x, y, cw, chh = pw * i / n, ph * j / (2 * n), pw / n, ph / (2 * n)
                for k, tri in enumerate(([(x, y), (x + cw, y), (x, y + chh)],
                                         [(x + cw, y), (x + cw, y + chh), (x, y + chh)])):
                    colour = _mix(cols[(i + j + k) % len(cols)], style.paper, 0.55)
                    cv2.fillPoly(panel, [np.round(np.array(tri)).astype(np.int32)], colour)
        mask = np.zeros((ph, pw), np.uint8)
        fill_circle(mask, pw / 2, ph * 0.25, min(pw, ph / 2) * 0.36)
        stamp(panel, mask, style.paper, 0, 0)
        letter = _rank_mask(style, rank, min(pw * 0.4, 1.3 * ppc))
        _put(panel, letter, ink, pw / 2 - letter.shape[1] / 2, ph * 0.25 - letter.shape[0] / 2)
        _mirror_half(panel)
    else:  # frame_letter
        panel[...] = np.asarray(light, np.float32)
        letter = _rank_mask(style, rank, min(pw * 0.6, 2.0 * ppc))
        _put(panel, letter, ink, pw / 2 - letter.shape[1] / 2, ph * 0.1)
        s = suit_mask(suit, max(3, int(min(pw * 0.3, 0.9 * ppc))), style.suit_shape)
        _put(panel, s, ink, pw / 2 - s.shape[1] / 2, ph * 0.1 + letter.shape[0] + 0.15 * ppc)
        _mirror_half(panel)
    thick = max(1.0, 0.05 * ppc)
    draw_polyline(canvas, np.array([[x0, y0], [x1 - 1, y0], [x1 - 1, y1 - 1], [x0, y1 - 1]], np.float64),
                  cols[0], thick)


def draw_joker_centre(canvas: np.ndarray, style: DeckStyle, card: str, ppc: float, index: Box) -> None:
    """The joker picture: colourful for the big joker, the same in greys for the small one."""
    H, W = canvas.shape[:2]
    j = style.joker
    big = card == "HR"
    pal = j.palette if big else tuple(_grey(c) for c in j.palette)
    x0 = int(max(index[2] + 0.15 * ppc, 0.18 * W))
    x1 = W - x0
    y0, y1 = int(0.14 * H), int(0.86 * H)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = min(x1 - x0, y1 - y0) * 0.45
    mask = np.zeros((H, W), np.uint8)
    text_below = j.centre_cjk and fonts.cjk_font() is not None
    if text_below:
        cy -= H * 0.1
        r *= 0.8
    if j.art == "star":
        fill_poly(mask, star_points(cx, cy, r, r * 0.42))
        stamp(canvas, mask, pal[0], 0, 0)
        for k, (dx, dy) in enumerate(((-0.7, -0.9), (0.75, -0.8), (0.0, 1.05))):
            mask[:] = 0
            fill_poly(mask, star_points(cx + dx * r, cy + dy * r, r * 0.22, r * 0.09))
            stamp(canvas, mask, pal[(k + 1) % len(pal)], 0, 0)
    elif j.art == "crown":
        fill_poly(mask, crown_points(cx - r, cy - r * 0.6, 2 * r, r * 1.2, 5))
        stamp(canvas, mask, pal[0], 0, 0)
        for k in range(5):
            mask[:] = 0
            fill_circle(mask, cx - r + (k + 0.5) * 2 * r / 5, cy + r * 0.35, r * 0.12)
            stamp(canvas, mask, pal[(k + 1) % len(pal)], 0, 0)
    else:  # jester: a three-pointed hat with bells over a face and a zigzag collar
        hr = r * 0.38
        hy = cy
        tips = ((cx - r * 0.95, cy - r * 0.7), (cx, cy - r * 1.05), (cx + r * 0.95, cy - r * 0.7))
        for k, tip in enumerate(tips):
            mask[:] = 0
            fill_poly(mask, np.array([[cx - hr * 1.1, hy - hr * 0.6], [cx + hr * 1.1, hy - hr * 0.6], tip]))
            stamp(canvas, mask, pal[k % len(pal)], 0, 0)
            mask[:] = 0
            fill_circle(mask, tip[0], tip[1], r * 0.09)
            stamp(canvas, mask, pal[(k + 1) % len(pal)], 0, 0)
        mask[:] = 0
        n = 7
        zig = [(cx - r * 0.9 + 1.8 * r * i / (n - 1), hy + hr * (1.0 if i % 2 else 1.6)) for i in range(n)]
        fill_poly(mask, np.array(zig + [(cx + r * 0.7, hy + hr * 0.6), (cx - r * 0.7, hy + hr * 0.6)]))
        stamp(canvas, mask, pal[-1], 0, 0)
        mask[:] = 0
        fill_circle(mask, cx, hy, hr)
        stamp(canvas, mask, SKIN if big else _grey(SKIN, 0.9), 0, 0)
        mask[:] = 0
        fill_circle(mask, cx - hr * 0.35, hy - hr * 0.1, hr * 0.1)
        fill_circle(mask, cx + hr * 0.35, hy - hr * 0.1, hr * 0.1)
        stamp(canvas, mask, (30, 30, 30), 0, 0)
    if text_below:
        cjk = fonts.cjk_font()
        assert cjk is not None
        text = fonts.text_mask(cjk, "大王" if big else "小王", min(1.4 * ppc, (x1 - x0) * 0.42))
        _put(canvas, text, j.big_colour if big else j.small_colour, W / 2 - text.shape[1] / 2, H * 0.68)


# ------------------------------------------------------------------------------ backs

def draw_back(canvas: np.ndarray, style: DeckStyle, ppc: float) -> None:
    """The face-down side: a two-colour pattern inside an optional paper margin."""
    H, W = canvas.shape[:2]
    b = style.back
    m = int(round(b.margin_cm * ppc))
    area = canvas[m:H - m, m:W - m]
    h, w = area.shape[:2]
    if h < 2 or w < 2:
        return
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    p = max(3.0, 0.32 * ppc)
    if b.pattern == "lattice":
        on = (np.abs(((xx + yy) % p) - p / 2) < p * 0.14) | (np.abs(((xx - yy) % p) - p / 2) < p * 0.14)
    elif b.pattern == "dots":
        on = ((xx % p) - p / 2) ** 2 + ((yy % p) - p / 2) ** 2 < (p * 0.28) ** 2
    elif b.pattern == "checker":
        on = ((xx // p) + (yy // p)) % 2 == 0
    elif b.pattern == "rings":
        d = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy))
        on = (d // (p * 0.6)) % 2 == 0
    elif b.pattern == "waves":
        on = np.abs(((yy + 0.25 * p * np.sin(xx / p * 2.2)) % p) - p / 2) < p * 0.18
    else:  # stripes
        on = ((xx * 0.7 + yy) // (p * 0.5)) % 2 == 0
    area[...] = np.asarray(b.colour, np.float32)
    area[on] = np.asarray(b.colour2, np.float32)
    if b.emblem:
        mask = np.zeros((h, w), np.uint8)
        r = min(w, h) * 0.28
        fill_circle(mask, w / 2, h / 2, r)
        stamp(area, mask, b.colour2, 0, 0)
        cjk = fonts.cjk_font()
        if cjk is not None:
            text = fonts.text_mask(cjk, "掼蛋", r * 0.55)
            _put(area, text, b.colour, w / 2 - text.shape[1] / 2, h / 2 - text.shape[0] / 2)
        else:
            _put(area, star_mask(int(r)), b.colour, w / 2 - r / 2, h / 2 - r / 2)
