"""The printable marker sheet: the four table markers at true size on A4 pages (PDF).

Each marker is 6 cm square with a 1 cm white border, printed at 300 dpi into a PDF that
states its resolution, so printing at 100% ("actual size") gives true size. Each page says
where its markers go and which edge faces North, in Chinese and English, with a 5 cm ruler
to check the print.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.live.calibration import BORDER_CM, DICTIONARY, MARKER_CM, MARKERS

DPI = 300
A4_CM = (21.0, 29.7)
PLACES = {0: ("西南角", "south-west corner"), 1: ("东南角", "south-east corner"),
          2: ("东北角", "north-east corner"), 3: ("西北角", "north-west corner")}
FONTS = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
         "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _px(cm: float) -> int:
    return int(round(cm / 2.54 * DPI))


def _font(size: int):
    for path in FONTS:
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default()


def marker_tile(marker_id: int) -> np.ndarray:
    """One marker with its white border, at print resolution (grey levels)."""
    inner, border = _px(MARKER_CM), _px(BORDER_CM)
    tile = np.full((inner + 2 * border, inner + 2 * border), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    tile[border:border + inner, border:border + inner] = cv2.aruco.generateImageMarker(dictionary, marker_id, inner)
    return tile


def pages() -> list[Image.Image]:
    width, height = _px(A4_CM[0]), _px(A4_CM[1])
    out = []
    for first in (0, 2):
        page = Image.new("L", (width, height), 255)
        draw = ImageDraw.Draw(page)
        title, small = _font(_px(0.55)), _font(_px(0.38))
        draw.text((_px(2), _px(1.5)), "掼蛋计分 · 桌面标记 / table markers", font=title, fill=0)
        for k, marker_id in enumerate((first, first + 1)):
            top = _px(3.5 + k * 12.5)
            tile = Image.fromarray(marker_tile(marker_id))
            left = (width - tile.width) // 2
            page.paste(tile, (left, top))
            draw.rectangle([left, top, left + tile.width - 1, top + tile.height - 1], outline=160)  # cut line
            zh, en = PLACES[marker_id]
            x, y = MARKERS[marker_id]
            draw.text((_px(2), top + tile.height + _px(0.3)),
                      f"#{marker_id} · {zh} ({x:+.0f}, {y:+.0f}) cm · 上边朝北 / {en}, top edge toward North",
                      font=small, fill=0)
        ruler_top = height - _px(2.5)
        draw.line([_px(2), ruler_top, _px(7), ruler_top], fill=0, width=3)
        for i in range(6):
            draw.line([_px(2 + i), ruler_top - _px(0.3), _px(2 + i), ruler_top], fill=0, width=2)
        draw.text((_px(7.5), ruler_top - _px(0.5)), "5 cm: 以100%打印 / print at 100% (actual size)",
                  font=small, fill=0)
        out.append(page)
    return out


def write_sheet(path: str | Path) -> Path:
    path = Path(path)
    if path.suffix.lower() != ".pdf":
        raise ValueError(f"{path}: the marker sheet is a PDF (name it .pdf)")
    first, *rest = pages()
    first.save(path, "PDF", resolution=DPI, save_all=True, append_images=rest)
    return path
