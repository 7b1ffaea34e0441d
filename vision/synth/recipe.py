"""Dataset recipes: a small YAML file that fixes everything a synthetic dataset is made of.

A recipe is the unit of reproducibility: the same recipe gives the same labels, byte for
byte, on any run (and the same images on the same OpenCV, libjpeg and fonts). Example::

    name: zones-train
    seed: 1
    image_size: 320
    styles: 300          # deck styles drawn per style split
    style_block: 8       # consecutive images share a deck (keeps the card cache warm)
    jpeg_quality: [80, 95]
    splits:
      train: {images: 6000, styles: train}
      val: {images: 600, styles: heldout}
    scene: {px_per_cm: [6, 20], rows: [1, 3]}    # SceneConfig fields; camera: {...} nested
    style_variety: wide  # optional: stretch suit proportions (style.VARIETIES); standard by default
    fonts: extra         # optional: training decks also in fonts.EXTRA_TRAIN_FAMILIES; base by default
    inks: many           # optional: training decks' inks spread wide (style.INKS); standard by default
    art: 0.5             # optional: this share of the style blocks lay real deck designs
                         # (datasets/art-decks.toml) of the split's style split; 0 by default
    jokers: wide         # optional: generated jokers' corners range wider (style.JOKER_VARIETIES)

Each split draws its deck styles from one style split (``train`` or ``heldout``): generated
styles, and with ``art`` the real designs the manifest puts in that split (whole families).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from vision.synth.fonts import FONT_SETS
from vision.synth.scene import SceneConfig
from vision.synth.style import INKS, JOKER_VARIETIES, SPLITS, VARIETIES

DATASET_SPLITS = ("train", "val", "test")
_KEYS = {"name", "seed", "image_size", "styles", "style_block", "jpeg_quality", "splits", "scene", "description",
         "style_variety", "fonts", "inks", "art", "jokers"}


class RecipeError(ValueError):
    """A recipe that cannot be read or makes no sense; the message names the file."""


@dataclass(frozen=True)
class SplitPlan:
    name: str
    images: int
    styles: str


@dataclass(frozen=True)
class Recipe:
    name: str
    seed: int
    image_size: int
    styles: int
    style_block: int
    jpeg_quality: tuple[int, int]
    splits: tuple[SplitPlan, ...]
    scene: SceneConfig
    source: dict
    style_variety: str = "standard"
    fonts: str = "base"
    inks: str = "standard"
    art: float = 0.0
    jokers: str = "standard"

    @property
    def total_images(self) -> int:
        return sum(s.images for s in self.splits)


def _int(path: str, key: str, value: object, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise RecipeError(f"{path}: {key} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def parse_recipe(data: object, path: str = "<recipe>") -> Recipe:
    """Validate a recipe mapping (as read from YAML)."""
    if not isinstance(data, dict):
        raise RecipeError(f"{path}: not a recipe (expected a YAML mapping with name, seed, splits …)")
    unknown = set(data) - _KEYS
    if unknown:
        raise RecipeError(f"{path}: unknown key(s) {', '.join(sorted(map(str, unknown)))} "
                          f"(known: {', '.join(sorted(_KEYS))})")
    name = data.get("name", Path(path).stem)
    if not isinstance(name, str) or not name:
        raise RecipeError(f"{path}: name must be a non-empty string")
    seed = _int(path, "seed", data.get("seed", 0), 0, 2**63 - 1)
    size = _int(path, "image_size", data.get("image_size", 320), 32, 4096)
    n_styles = _int(path, "styles", data.get("styles", 200), 1, 100000)
    block = _int(path, "style_block", data.get("style_block", 8), 1, 100000)
    q = data.get("jpeg_quality", [85, 95])
    if isinstance(q, int) and not isinstance(q, bool):
        q = [q, q]
    valid = isinstance(q, list) and len(q) == 2 and all(isinstance(v, int) and 1 <= v <= 100 for v in q)
    if not valid or q[0] > q[1]:
        raise RecipeError(f"{path}: jpeg_quality must be a number or a range [low, high] within 1..100")
    splits_raw = data.get("splits")
    if not isinstance(splits_raw, dict) or not splits_raw:
        raise RecipeError(f"{path}: splits must map train/val/test to {{images: N, styles: train|heldout}}")
    splits = []
    for split, spec in splits_raw.items():
        if split not in DATASET_SPLITS:
            raise RecipeError(f"{path}: unknown split {split!r} (train, val or test)")
        if isinstance(spec, int) and not isinstance(spec, bool):
            spec = {"images": spec}
        if not isinstance(spec, dict) or set(spec) - {"images", "styles"}:
            raise RecipeError(f"{path}: splits.{split} must be a number of images or {{images: N, styles: S}}")
        images = _int(path, f"splits.{split}.images", spec.get("images", 0), 0, 10_000_000)
        style_split = spec.get("styles", "train")
        if style_split not in SPLITS:
            raise RecipeError(f"{path}: splits.{split}.styles must be train or heldout, not {style_split!r}")
        splits.append(SplitPlan(split, images, style_split))
    scene_raw = data.get("scene") or {}
    if not isinstance(scene_raw, dict):
        raise RecipeError(f"{path}: scene must be a mapping of scene settings")
    if "size" in scene_raw:
        raise RecipeError(f"{path}: set the image size with image_size, not scene.size")
    try:
        scene = SceneConfig.from_dict(scene_raw, size=size)
    except (TypeError, ValueError) as exc:
        raise RecipeError(f"{path}: scene: {exc}") from None
    variety = data.get("style_variety", "standard")
    if variety not in VARIETIES:
        raise RecipeError(f"{path}: style_variety must be {' or '.join(VARIETIES)}, not {variety!r}")
    font_set = data.get("fonts", "base")
    if font_set not in FONT_SETS:
        raise RecipeError(f"{path}: fonts must be {' or '.join(FONT_SETS)}, not {font_set!r}")
    inks = data.get("inks", "standard")
    if inks not in INKS:
        raise RecipeError(f"{path}: inks must be {' or '.join(INKS)}, not {inks!r}")
    jokers = data.get("jokers", "standard")
    if jokers not in JOKER_VARIETIES:
        raise RecipeError(f"{path}: jokers must be {' or '.join(JOKER_VARIETIES)}, not {jokers!r}")
    art = data.get("art", 0)
    if isinstance(art, bool) or not isinstance(art, int | float) or not 0 <= art <= 1:
        raise RecipeError(f"{path}: art must be a share from 0 to 1, not {art!r}")
    return Recipe(name, seed, size, n_styles, block, (q[0], q[1]), tuple(splits), scene, dict(data), variety,
                  font_set, inks, float(art), jokers)


def load_recipe(path: str | Path) -> Recipe:
    """Read and validate a recipe file; every problem is a one-line ``RecipeError``."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecipeError(f"{path}: no such recipe") from None
    except IsADirectoryError:
        raise RecipeError(f"{path}: is a folder, not a recipe file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecipeError(f"{path}: cannot read the recipe ({exc})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise RecipeError(f"{path}: not valid YAML{where}") from None
    return parse_recipe(data, str(path))
