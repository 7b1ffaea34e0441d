"""Fonts for card indices: OpenCV's own faces and the TrueType fonts of this machine.

A detector that must read decks it never saw learns letter *shapes*, so the renderer draws
ranks in as many typefaces as the machine offers and keeps some families apart for the
held-out styles (``HELDOUT_FAMILIES``): a held-out deck then prints its ranks in a family
the training data never showed.

Three kinds of font:

* ``cv2``: OpenCV 5's built-in variable fonts (``sans``, ``italic``, ``uni``) drawn through
  ``cv2.FontFace`` with an explicit weight (100 thin … 1000 black). In OpenCV 5 the classic
  Hershey constants are drawn with these same faces (SIMPLEX, DUPLEX, COMPLEX and TRIPLEX
  differ only in scale and boldness there), so the weight axis is where the variety is.
* ``hershey``: the classic stroke fonts of OpenCV 4 (SIMPLEX, DUPLEX, COMPLEX, TRIPLEX …)
  with a stroke thickness; used only where ``cv2.FontFace`` does not exist, because on
  OpenCV 5 they would be the ``cv2`` faces again under other names.
* ``ttf``: every usable TrueType/OpenType file under the system font folders and the
  fonts matplotlib ships (DejaVu, Liberation, WenQuanYi, STIX, Computer Modern …),
  rendered with Pillow's basic layout engine (no raqm: same pixels everywhere).

The catalogue is sorted by path, so on a given machine the styles drawn from a seed are
always the same; a machine with other fonts installed draws other (equally valid) styles.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

#: Font families reserved for held-out deck styles (never drawn for training styles).
HELDOUT_FAMILIES = frozenset({
    "cv2-italic", "hershey-complex", "hershey-complex-small", "hershey-italic",
    "Liberation Serif", "Liberation Sans Narrow", "DejaVu Sans Mono", "DejaVu Serif Condensed",
    "cmss10", "cmti10",
})

SYSTEM_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts")
# math, symbol and fallback fonts: their letters are not letters (or not there at all)
_NOT_TEXT = re.compile(r"cmex|cmsy|cmmi|NonUni|STIXSiz|LastResort|Display|Math|ExtraLight|Thin|Hairline", re.IGNORECASE)
_CHECK_GLYPHS = "0123456789JQKA"
_CJK_TEXT = "大小王"

_HERSHEY_FACES = {
    "simplex": cv2.FONT_HERSHEY_SIMPLEX,
    "duplex": cv2.FONT_HERSHEY_DUPLEX,
    "triplex": cv2.FONT_HERSHEY_TRIPLEX,
    "complex": cv2.FONT_HERSHEY_COMPLEX,
    "complex-small": cv2.FONT_HERSHEY_COMPLEX_SMALL,
    "italic": cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC,
}
_CV2_FACES = ("sans", "italic", "uni")
HAS_FONTFACE = hasattr(cv2, "FontFace")


@dataclass(frozen=True)
class FontSpec:
    """One typeface at one weight: enough to render text, hashable for caches.

    ``source`` is the OpenCV face name (``cv2``), the Hershey face name (``hershey``) or
    the font file (``ttf``); ``weight`` is the variable-font weight for ``cv2`` faces and
    the stroke weight (thickness = cap height × weight / 4000) for Hershey faces.
    """

    family: str
    kind: str
    source: str
    index: int = 0
    weight: int = 400
    style: str = ""

    def with_weight(self, weight: int) -> FontSpec:
        """The same face at another weight (meaningful for ``cv2`` and ``hershey`` only)."""
        return FontSpec(self.family, self.kind, self.source, self.index, int(weight), self.style)

    @property
    def variable_weight(self) -> bool:
        return self.kind in ("cv2", "hershey")


#: More training families, from Debian's font packages (``scripts/system-packages.sh`` installs them),
#: drawn only by recipes that ask for them (``fonts: extra``), so that the older recipes draw
#: the decks they always drew on a machine that has these packages too.
EXTRA_TRAIN_FAMILIES = frozenset({
    "C059", "Cantarell", "Carlito", "FreeMono", "FreeSans", "Lato", "Linux Biolinum O", "Linux Libertine O",
    "Nimbus Mono PS", "Nimbus Sans", "Open Sans", "Open Sans Condensed", "P052", "Roboto", "Roboto Condensed",
    "URW Bookman", "URW Gothic", "Z003",
})
#: Families in neither split: near copies of a held-out family (Times clones look like
#: Liberation Serif, the narrow Helvetica like Liberation Sans Narrow), whose letters in
#: training would make the held-out decks less unseen than they are, and the packages'
#: symbol, initials and keyboard-cap faces, which are not text.
LOOKALIKE_FAMILIES = frozenset({
    "Nimbus Roman", "FreeSerif", "TeX Gyre Termes", "Nimbus Sans Narrow", "TeX Gyre Heros Cn",
    "D050000L", "Standard Symbols PS", "Linux Biolinum Keyboard O", "Linux Libertine Initials O",
    "Linux Libertine Mono O",
})
FONT_SETS = ("base", "extra")


def split_of_family(family: str) -> str:
    """``"heldout"`` for the reserved families, ``"none"`` for their look-alikes and the
    faces that are not text, ``"train"`` for every other."""
    if family in HELDOUT_FAMILIES:
        return "heldout"
    return "none" if family in LOOKALIKE_FAMILIES else "train"


# ---------------------------------------------------------------------------- rendering

def _crop(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 24)
    if len(xs) == 0:
        return np.zeros((1, 1), np.uint8)
    return mask[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


@functools.lru_cache(maxsize=64)
def _pil_font(path: str, index: int, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size=size, index=index, layout_engine=ImageFont.Layout.BASIC)


@functools.lru_cache(maxsize=8)
def _cv2_face(name: str):
    return cv2.FontFace(name)


def _raw_mask(font: FontSpec, text: str, size: float) -> np.ndarray:
    """Text at a nominal size (em size in pixels; Hershey: font scale × 30), cropped to ink."""
    if font.kind == "ttf":
        f = _pil_font(font.source, font.index, max(4, int(round(size))))
        x0, y0, x1, y1 = f.getbbox(text)
        img = Image.new("L", (x1 - x0 + 4, y1 - y0 + 4), 0)
        ImageDraw.Draw(img).text((2 - x0, 2 - y0), text, fill=255, font=f)
        return _crop(np.asarray(img))
    pad = int(size) + 4
    canvas = np.zeros((int(size * 2) + 2 * pad, int(size * 1.3 * max(1, len(text))) + 2 * pad), np.uint8)
    if font.kind == "cv2":
        cv2.putText(canvas, text, (pad, pad + int(size * 1.4)), 255, _cv2_face(font.source),
                    max(4, int(round(size))), font.weight)
    else:
        scale = size / 30.0
        cap = size * 0.7
        thickness = max(1, int(round(cap * font.weight / 4000)))
        cv2.putText(canvas, text, (pad, pad + int(size * 1.4)), _HERSHEY_FACES[font.source], scale, 255,
                    thickness, cv2.LINE_AA)
    return _crop(canvas)


@functools.lru_cache(maxsize=256)
def cap_ratio(font: FontSpec) -> float:
    """Cap height of the font as a fraction of its nominal size (measured on 'H')."""
    return max(0.2, _raw_mask(font, "H", 100).shape[0] / 100.0)


@functools.lru_cache(maxsize=8192)
def text_mask(font: FontSpec, text: str, cap_px: float, squeeze: float = 1.0, slant: float = 0.0) -> np.ndarray:
    """Coverage mask (uint8, cropped to the ink) of ``text`` with capitals ``cap_px`` tall.

    ``squeeze`` narrows the text (decks print a condensed "10"), ``slant`` shears it
    (x shifts by slant × height from bottom to top). The result is cached and read-only.
    """
    cap_px = max(3.0, float(cap_px))
    size = cap_px / cap_ratio(font)
    # render large and shrink: small TrueType sizes hint differently from their big shapes
    oversample = 1.0 if cap_px >= 24 else 24.0 / cap_px
    mask = _raw_mask(font, text, size * oversample)
    h, w = mask.shape
    target_h = max(2, int(round(h / oversample)))
    target_w = max(1, int(round(w / oversample * squeeze)))
    if (target_h, target_w) != (h, w):
        mask = cv2.resize(mask, (target_w, target_h), interpolation=cv2.INTER_AREA)
    if abs(slant) > 1e-3:
        mask = shear(mask, slant)
    mask.flags.writeable = False
    return mask


def shear(mask: np.ndarray, slant: float) -> np.ndarray:
    """Shear a mask horizontally (positive slant leans right, like italics)."""
    h, w = mask.shape
    dx = abs(slant) * h
    m = np.float32([[1, -slant, dx if slant > 0 else 0], [0, 1, 0]])
    return cv2.warpAffine(mask, m, (int(np.ceil(w + dx)) + 1, h), flags=cv2.INTER_LINEAR)


def stack_vertical(masks: list[np.ndarray], gap: int) -> np.ndarray:
    """Masks one above the other, centred horizontally (JOKER written down the corner)."""
    width = max(m.shape[1] for m in masks)
    height = sum(m.shape[0] for m in masks) + gap * (len(masks) - 1)
    out = np.zeros((height, width), np.uint8)
    y = 0
    for m in masks:
        x = (width - m.shape[1]) // 2
        out[y:y + m.shape[0], x:x + m.shape[1]] = m
        y += m.shape[0] + gap
    return out


# ---------------------------------------------------------------------------- catalogue

def _font_files() -> list[str]:
    dirs = [Path(d) for d in SYSTEM_FONT_DIRS]
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.submodule_search_locations:
        dirs.append(Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf")
    files: list[str] = []
    for d in dirs:
        if d.is_dir():
            files += sorted(str(p) for p in d.rglob("*") if p.suffix.lower() in (".ttf", ".otf", ".ttc"))
    return files


def _usable(font: FontSpec) -> bool:
    """Every rank glyph has ink and the shapes differ (symbol fonts map letters to one box)."""
    try:
        masks = [_raw_mask(font, ch, 40) for ch in _CHECK_GLYPHS]
    except OSError:
        return False
    if any(m.shape[0] < 8 for m in masks):
        return False
    shapes = {(m.shape, m.tobytes()) for m in masks}
    return len(shapes) == len(masks)


def _renders_cjk(font: FontSpec) -> bool:
    try:
        masks = [_raw_mask(font, ch, 40) for ch in _CJK_TEXT]
    except OSError:
        return False
    return all(m.shape[0] >= 20 for m in masks) and len({m.tobytes() for m in masks}) == 3


@functools.lru_cache(maxsize=1)
def _ttf_fonts() -> tuple[FontSpec, ...]:
    seen: set[tuple[str, str]] = set()
    out: list[FontSpec] = []
    for path in _font_files():
        if _NOT_TEXT.search(Path(path).name):
            continue
        try:
            name, style = ImageFont.truetype(path, 20).getname()
        except OSError:
            continue
        name = name or Path(path).stem
        style = style or "Regular"
        family = name + (" Condensed" if "Condensed" in style and "Condensed" not in name else "")
        if _NOT_TEXT.search(family) or (family, style) in seen:
            continue
        spec = FontSpec(family=family, kind="ttf", source=path, style=style)
        if _usable(spec):
            seen.add((family, style))
            out.append(spec)
    return tuple(out)


@functools.lru_cache(maxsize=1)
def catalogue() -> tuple[FontSpec, ...]:
    """Every font usable for card indices on this machine, in a fixed order."""
    if HAS_FONTFACE:
        builtin = [FontSpec(family=f"cv2-{name}", kind="cv2", source=name) for name in _CV2_FACES]
    else:
        builtin = [FontSpec(family=f"hershey-{name}", kind="hershey", source=name) for name in _HERSHEY_FACES]
    return tuple(f for f in builtin if _usable(f)) + _ttf_fonts()


def fonts_for(split: str, font_set: str = "base") -> tuple[FontSpec, ...]:
    """The catalogue's fonts whose family belongs to ``split`` (``train`` or ``heldout``);
    training fonts without ``EXTRA_TRAIN_FAMILIES`` unless ``font_set`` is ``extra``."""
    if font_set not in FONT_SETS:
        raise ValueError(f"unknown font set {font_set!r} (base or extra)")
    return tuple(f for f in catalogue() if split_of_family(f.family) == split
                 and (font_set == "extra" or f.family not in EXTRA_TRAIN_FAMILIES))


def families(split: str, font_set: str = "base") -> tuple[str, ...]:
    return tuple(dict.fromkeys(f.family for f in fonts_for(split, font_set)))


@functools.lru_cache(maxsize=1)
def cjk_font() -> FontSpec | None:
    """A font that draws 大王/小王: WenQuanYi if installed, else any TTF or OpenCV's ``uni``."""
    ttf = [f for f in _ttf_fonts() if _renders_cjk(f)]
    ttf.sort(key=lambda f: (not f.family.startswith("WenQuanYi"), f.source))
    if ttf:
        return ttf[0]
    if HAS_FONTFACE:
        uni = FontSpec(family="cv2-uni", kind="cv2", source="uni")
        if _renders_cjk(uni):
            return uni
    return None


def script_fonts() -> tuple[FontSpec, ...]:
    """Fonts for writing on props (score sheets, mats): slanted training-split faces first.

    Only training families are used, so that a held-out family appears nowhere in a
    training image, not even as a negative on a score sheet.
    """
    train = fonts_for("train")
    slanted = tuple(f for f in train if any(k in f.style for k in ("Italic", "Oblique")))
    return slanted or train
