"""Write an ultralytics dataset from a recipe: ``images/{split}/*.jpg``, ``labels/{split}/*.txt``
and ``data.yaml`` (class names in ``engine.cards.ALL_CARDS`` order, absolute ``path``), and
beside them ``meta/{split}/*.json``: how sharp each image is and how visible each label
(``scene_meta``), which ultralytics ignores and the evaluation uses to tell the indices
anyone could read from those no one could.

Every image is a pure function of (recipe seed, split, index): its random stream is seeded
from those three numbers and its deck styles are picked by index, so the output does not
depend on how the work is shared between processes. Consecutive images share a deck style
(``style_block``), and each worker takes whole blocks, so the card cache stays warm.

Workers are separate processes (``spawn``: no OpenCV thread pool inherited across a fork),
each with OpenCV held to one thread, which is how two cores are used best.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import shutil
import signal
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import yaml

from engine.cards import ALL_CARDS
from vision.progress import progress_bar
from vision.synth.art_decks import ArtDeck, art_decks
from vision.synth.art_faces import ArtError
from vision.synth.deck import Deck
from vision.synth.labels import yolo_text
from vision.synth.recipe import DATASET_SPLITS, Recipe, RecipeError, SplitPlan, load_recipe
from vision.synth.scene import Scene, render_scene
from vision.synth.style import DeckStyle, styles


@dataclass(frozen=True)
class BuildSummary:
    out_dir: Path
    images: dict[str, int]
    labels: dict[str, int]
    seconds: float

    @property
    def rate(self) -> float:
        return sum(self.images.values()) / self.seconds if self.seconds > 0 else 0.0


def image_rng(recipe: Recipe, split: str, index: int, stream: int = 0) -> np.random.Generator:
    return np.random.default_rng([recipe.seed, DATASET_SPLITS.index(split), index, stream])


def decks_for(recipe: Recipe, plan: SplitPlan, index: int, deck_styles: list[DeckStyle],
              art: list[ArtDeck] | None = None) -> list[Deck]:
    """The main deck and a possible second deck of image ``index``: whole blocks share a deck.
    A block that lays a real design (``recipe.art`` of them, drawn from ``art``) lays two
    copies of it, as a table plays with two decks of one design."""
    block = index // recipe.style_block
    if art and recipe.art > 0:
        pick = np.random.default_rng([recipe.seed, DATASET_SPLITS.index(plan.name), 0xA27, block])
        if pick.random() < recipe.art:
            design = art[int(pick.integers(len(art)))]
            return [design, design]
    n = len(deck_styles)
    order = np.random.default_rng([recipe.seed, DATASET_SPLITS.index(plan.name), 0xDEC]).permutation(n)
    return [deck_styles[int(order[block % n])], deck_styles[int(order[(block + 1 + block // n) % n])]]


def render_item(recipe: Recipe, plan: SplitPlan, index: int, deck_styles: list[DeckStyle],
                art: list[ArtDeck] | None = None) -> tuple[Scene, int]:
    """The scene of one dataset image and the JPEG quality it is saved at."""
    scene = render_scene(image_rng(recipe, plan.name, index), decks_for(recipe, plan, index, deck_styles, art),
                         recipe.scene)
    q = int(image_rng(recipe, plan.name, index, 1).integers(recipe.jpeg_quality[0], recipe.jpeg_quality[1] + 1))
    return scene, q


# ----------------------------------------------------------------------------- workers

_STATE: dict = {}


def _init_worker(recipe: Recipe, out_dir: str, threads: int) -> None:
    cv2.setNumThreads(threads)
    _STATE.clear()
    _STATE.update(recipe=recipe, out=Path(out_dir), styles={}, art={})


def _init_pool_worker(recipe: Recipe, out_dir: str, threads: int) -> None:
    """A worker leaves Ctrl-C to the main process, which stops the pool: one clean message
    instead of a traceback from every worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _init_worker(recipe, out_dir, threads)


def _styles(split: str) -> list[DeckStyle]:
    cache = _STATE["styles"]
    if split not in cache:
        r: Recipe = _STATE["recipe"]
        cache[split] = styles(r.seed, r.styles, split, r.style_variety, r.fonts, r.inks, r.jokers)
    return cache[split]


def _art(split: str) -> list[ArtDeck]:
    cache = _STATE["art"]
    if split not in cache:
        cache[split] = art_decks(split) if _STATE["recipe"].art > 0 else []
    return cache[split]


def _work(task: tuple[int, int, int]) -> tuple[str, int, int]:
    plan_i, start, stop = task
    recipe: Recipe = _STATE["recipe"]
    out: Path = _STATE["out"]
    plan = recipe.splits[plan_i]
    deck_styles = _styles(plan.styles)
    art = _art(plan.styles)
    n_labels = 0
    for index in range(start, stop):
        scene, q = render_item(recipe, plan, index, deck_styles, art)
        stem = f"{plan.name}_{index:06d}"
        if not cv2.imwrite(str(out / "images" / plan.name / f"{stem}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, q]):
            raise OSError(f"cannot write {out / 'images' / plan.name / stem}.jpg")
        text = yolo_text(scene.labels, recipe.image_size, recipe.image_size)
        (out / "labels" / plan.name / f"{stem}.txt").write_text(text, encoding="ascii", newline="\n")
        (out / "meta" / plan.name / f"{stem}.json").write_text(json.dumps(scene_meta(scene)), encoding="ascii")
        n_labels += len(scene.labels)
    return plan.name, stop - start, n_labels


# ----------------------------------------------------------------------------- output

def scene_meta(scene: Scene) -> dict:
    """What the labels cannot say: the photograph's sharpness (``Capture``) and, per label
    in label-file order, its visible share, how tall its rank and suit sign are printed
    (cm: with the sharpness, how many pixels of detail each mark kept), how far the
    index is turned from upright (``Label.turn_deg``) and, in a picture left in a leaning
    camera's perspective, how many picture pixels a zone pixel spans there (``view_scale``:
    the zone's ``px_per_cm`` and ``sharp_px_per_cm`` times it are the index's own)."""
    cap = scene.capture
    meta = {"px_per_cm": round(scene.px_per_cm, 3), "camera_scale": round(cap.scale, 3),
            "motion_px": round(cap.motion_px, 3), "defocus_px": round(cap.defocus_px, 3),
            "sharp_px_per_cm": round(scene.sharp_px_per_cm, 3),
            "visible": [round(lab.visible, 3) for lab in scene.labels],
            "turn_deg": [lab.turn_deg for lab in scene.labels]}
    if scene.view is not None:
        meta["view_scale"] = [round(lab.scale, 3) for lab in scene.labels]
    if all(lab.marks_cm is not None for lab in scene.labels):
        meta["rank_cm"] = [round(lab.marks_cm[0], 3) for lab in scene.labels]  # type: ignore[index]
        meta["suit_cm"] = [round(lab.marks_cm[1], 3) for lab in scene.labels]  # type: ignore[index]
    return meta


def _prepare(out: Path, recipe: Recipe) -> None:
    """Make ``out`` ready: new, empty, or a dataset this builder wrote (then replaced)."""
    if out.exists() and not out.is_dir():
        raise RecipeError(f"{out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()):
        if not (out / "data.yaml").is_file():
            raise RecipeError(f"{out}: not empty and not a dataset built here; refusing to overwrite it")
        for sub in ("images", "labels", "meta"):
            shutil.rmtree(out / sub, ignore_errors=True)
        for f in out.glob("*.cache"):
            f.unlink()
    for split in DATASET_SPLITS:
        if split in ("train", "val") or any(p.name == split for p in recipe.splits):
            (out / "images" / split).mkdir(parents=True, exist_ok=True)
            (out / "labels" / split).mkdir(parents=True, exist_ok=True)
            (out / "meta" / split).mkdir(parents=True, exist_ok=True)


def data_yaml(out: Path, recipe: Recipe) -> str:
    data = {"path": str(out.resolve()), "train": "images/train", "val": "images/val"}
    if any(p.name == "test" for p in recipe.splits):
        data["test"] = "images/test"
    data.update(nc=len(ALL_CARDS), names=list(ALL_CARDS))
    head = f"# {recipe.name}: synthetic Guandan corner indices (vision.synth), seed {recipe.seed}\n"
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=200)


def build(recipe_path: str | Path, out_dir: str | Path, progress: bool = True,
          workers: int | None = None) -> BuildSummary:
    """Render the dataset of ``recipe_path`` into ``out_dir`` and return what was written.

    ``workers`` defaults to two processes where two cores exist (one per core), or to this
    process alone for fewer than 200 images; 1 renders in this process. Raises
    ``RecipeError`` for a bad recipe or an unusable ``out_dir``.
    """
    recipe = load_recipe(recipe_path)
    if recipe.art > 0:  # drawn here once, before the workers start, not by two workers at once
        for split in sorted({p.styles for p in recipe.splits}):
            try:
                drawn = art_decks(split)
            except ArtError as exc:
                raise RecipeError(f"{recipe_path}: {exc}") from None
            if not drawn:
                raise RecipeError(f"{recipe_path}: art wants real deck designs of the {split} split and none is "
                                  "installed (scripts/system-packages.sh installs gnome-cards-data and "
                                  "kdegames-card-data-kf5)")
    out = Path(out_dir)
    _prepare(out, recipe)
    if workers is None:  # starting processes costs about a second: not worth it for a few images
        workers = 1 if recipe.total_images < 200 else min(2, os.cpu_count() or 1)
    workers = max(1, int(workers))
    chunk = max(recipe.style_block, 8)
    tasks = [(i, s, min(s + chunk, p.images)) for i, p in enumerate(recipe.splits) for s in range(0, p.images, chunk)]
    images = {p.name: 0 for p in recipe.splits}
    labels = {p.name: 0 for p in recipe.splits}
    start = time.perf_counter()
    with progress_bar(recipe.total_images, f"{recipe.name}", enabled=progress) as bar:
        if workers == 1 or len(tasks) <= 1:
            threads = cv2.getNumThreads()
            _init_worker(recipe, str(out), threads)
            try:
                for task in tasks:
                    split, n, k = _work(task)
                    images[split] += n
                    labels[split] += k
                    bar.update(n)
            finally:
                _STATE.clear()
        else:
            ctx = mp.get_context("spawn")
            with ctx.Pool(workers, initializer=_init_pool_worker, initargs=(recipe, str(out), 1)) as pool:
                for split, n, k in pool.imap_unordered(_work, tasks):
                    images[split] += n
                    labels[split] += k
                    bar.update(n)
    (out / "data.yaml").write_text(data_yaml(out, recipe), encoding="utf-8")
    provenance = yaml.safe_dump(recipe.source, sort_keys=False, allow_unicode=True)
    (out / "recipe.yaml").write_text(provenance, encoding="utf-8")
    return BuildSummary(out, images, labels, time.perf_counter() - start)
