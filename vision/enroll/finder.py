"""Teaching the index finder the event's deck, from table scenes of this very deck.

Zero-shot, the finder misses indices of a design it never saw: on the held-out real designs
most plays read wrong are plays missed, not misread.
At enrollment the deck is known card by card, so the renderer can lay it: the enrolled faces,
each with its corner index measured on the face (``enrolled_design``), become a real design
(``ArtDeck``) that ``vision.synth.scene`` lays in seat zones as it lays any deck — plays,
fans, piles, hands over the cards, shadows, glare and the camera's faults — with the labels
free. A share of the scenes (``GENERATED_SHARE``) lays generated training styles, so that the
finder keeps what it knew. The committed finder is trained on from its weights for a few
epochs and exported as the live loop runs it: OpenVINO in 8 bits, calibrated on these scenes
(``vision.training.finder_quantize``, as the committed finder is), with its free-shape twin
for whole zones — at 4K the live loop looks at zones four times the size, and full precision
costs it about half again as much time. About three minutes on two cores.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shutil
import tempfile
import time
import warnings
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

import cv2
import numpy as np
import yaml

from engine.cards import ALL_CARDS
from vision.enroll.adapt import IndexedFace
from vision.enroll.pictures import FACE_PX_PER_CM, LaidCard
from vision.live.calibration import PX_PER_CM
from vision.live.detector import MODELS
from vision.progress import progress_bar
from vision.synth.art_decks import ArtDeck, design_in, index_json
from vision.synth.art_faces import IndexBox, find_index
from vision.synth.deck import Deck, render_back
from vision.synth.labels import yolo_text
from vision.synth.scene import SceneConfig, render_scene
from vision.synth.style import styles

SCENES = 360  # training scenes drawn (GENERATED_SHARE of them with generated styles)
EPOCHS = 3
GENERATED_SHARE = 0.3
#: the seat zones' scales the scenes are drawn at: the live loop reads zones at ``PX_PER_CM``
#: (1080p) and finer where the camera gives more (4K)
SCENE = SceneConfig.from_dict({"px_per_cm": [7.0, 18.0], "rows": [1, 3], "overlap": [0.55, 0.80],
                               "camera": {"scale": [0.8, 1.1]}})
DESIGN = "design"  # in the deck folder: the enrolled faces as a design the renderer lays
FOLDER = "finder_int8_openvino_model"  # in the deck folder: the finder taught this deck (the export's own name)
LR0 = 0.0005
BATCH = 16


def enrolled_design(cards: list[LaidCard], faces: list[IndexedFace], folder: Path) -> ArtDeck:
    """The enrolled deck as a design the renderer lays (``vision.synth.art_decks``' folder
    format): each face as the camera saw it and its top-left index (``index_box``)."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = {}
    for card, seen in zip(cards, faces, strict=True):
        bgra = cv2.cvtColor(card.face, cv2.COLOR_BGR2BGRA)
        cv2.imwrite(str(folder / f"{card.name}.png"), bgra)
        entries[card.name] = {"size": [card.face.shape[1], card.face.shape[0]],
                              "index": index_json(index_box(bgra, seen))}
    # the back is not enrolled: face-down piles get a generated one (at the faces' median
    # size), which the finder must not box
    width, height = (round(float(np.median([f["size"][i] for f in entries.values()]))) for i in (0, 1))
    back = cv2.resize(render_back(styles(0, 1)[0], FACE_PX_PER_CM), (width, height))
    cv2.imwrite(str(folder / "back.png"), cv2.cvtColor(back, cv2.COLOR_BGR2BGRA))
    meta = {"name": "enrolled", "family": "enrolled", "split": "enrolled", "px_per_cm": FACE_PX_PER_CM,
            "back": {"size": [width, height], "index": None}, "faces": entries}
    (folder / "index.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    return design_in(folder.resolve(), f"enrolled:{folder.resolve()}", "enrolled", "enrolled")


def index_box(face: np.ndarray, seen: IndexedFace) -> IndexBox:
    """Where a face's top-left index is (``FACE_PX_PER_CM`` pixels) and how tall its marks
    are. The finder's box where it found one (boxes as it was taught them), grown to take in
    the ink that ``find_index`` measures there (a rank the box cut short); the ink alone where
    the finder found nothing; the printed corner (``IndexedFace.index``) where neither did."""
    scale = FACE_PX_PER_CM / PX_PER_CM  # IndexedFace boxes are at the zones' scale
    ink = find_index(face, FACE_PX_PER_CM)
    box = [v * scale for v in seen.index]
    if ink is not None and not seen.found:
        box = list(ink.box)
    elif ink is not None and _overlap(box, ink.box):
        box = [min(box[0], ink.box[0]), min(box[1], ink.box[1]), max(box[2], ink.box[2]), max(box[3], ink.box[3])]
    tall = (box[3] - box[1]) / FACE_PX_PER_CM
    rank_cm, suit_cm = (ink.rank_cm, ink.suit_cm) if ink is not None else (0.55 * tall, 0.4 * tall)
    return IndexBox(tuple(box), rank_cm, suit_cm)


def _overlap(a, b) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def draw_scenes(design: ArtDeck, out: Path, scenes: int, seed: int = 0, progress: bool = True,
                config: SceneConfig = SCENE, check: int | None = None) -> Path:
    """A small dataset in ``out`` (``data.yaml``): ``scenes`` training scenes, most of this
    design, and ``check`` of it to check on (by default a sixth as many), drawn as ``config``
    says. Returns the data YAML."""
    generated = styles(seed, 24, "train")
    rng = np.random.default_rng(seed)
    check = max(scenes // 6, 4) if check is None else check
    plan = [("train", i) for i in range(scenes)] + [("val", i) for i in range(check)]
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    with progress_bar(len(plan), "scenes", enabled=progress) as bar:
        for split, i in plan:
            decks: list[Deck]
            if split == "train" and rng.random() < GENERATED_SHARE:
                decks = [generated[int(rng.integers(len(generated)))], generated[int(rng.integers(len(generated)))]]
            else:
                decks = [design, design]
            scene = render_scene(rng, decks, config)
            stem = f"{split}_{i:05d}"
            cv2.imwrite(str(out / "images" / split / f"{stem}.jpg"), scene.image,
                        [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
            (out / "labels" / split / f"{stem}.txt").write_text(yolo_text(scene.labels, config.size, config.size),
                                                                encoding="ascii", newline="\n")
            bar.update(1)
    data = {"path": str(out.resolve()), "train": "images/train", "val": "images/val", "nc": len(ALL_CARDS),
            "names": list(ALL_CARDS)}
    target = out / "data.yaml"
    target.write_text(yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=200), encoding="utf-8")
    return target


def teach_finder(design: ArtDeck, out: Path, *, scenes: int = SCENES, epochs: int = EPOCHS, log=print,
                 progress: bool = True) -> dict:
    """The committed finder trained on from its weights on scenes of ``design`` and exported
    into ``out`` (``FOLDER``: OpenVINO in 8 bits, with its whole-zone twin). Returns the
    figures: scenes, epochs, minutes and the validation mAP50 before and after."""
    from vision.training.train import export, train

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="guandan-enroll-") as tmp:
        data = draw_scenes(design, Path(tmp) / "scenes", scenes, progress=progress)
        log(f"# {scenes} scenes of this deck drawn ({time.perf_counter() - started:.0f} s); "
            f"training the finder {epochs} epochs")
        run = Path(tmp) / "run"
        batches = epochs * math.ceil(scenes / BATCH)
        with progress_bar(batches, "finder", unit="batch", enabled=progress) as bar:
            weights = train(data, run, model=str(MODELS / "finder.pt"), epochs=epochs, imgsz=SCENE.size,
                            batch=BATCH, lr0=LR0, on_batch=lambda: bar.update(1))
        before, after = _map50(run)
        log("# the finder is taught; exporting it for the live loop")
        with _developers_notes_hidden():
            export(weights, Path(tmp) / "export", formats=("openvino-int8",), calibration=data)
        target = out / FOLDER
        shutil.move(str(Path(tmp) / "export" / FOLDER), target)
    return {"scenes": scenes, "epochs": epochs, "minutes": round((time.perf_counter() - started) / 60, 2),
            "val_map50_first_epoch": before, "val_map50": after}


@contextmanager
def _developers_notes_hidden():
    """What the export and NNCF print as they work (torch's tracer warnings, NNCF's log lines
    and progress bars, a note that no CUDA runtime is found) is for whoever trains models,
    not for the operator enrolling a deck; a failure still raises."""
    import nncf

    level = nncf.nncf_logger.level
    nncf.set_log_level(logging.ERROR)
    try:
        with warnings.catch_warnings(), open(os.devnull, "w", encoding="utf-8") as sink, \
                redirect_stdout(sink), redirect_stderr(sink):
            warnings.simplefilter("ignore")
            yield
    finally:
        nncf.set_log_level(level)


def _map50(run: Path) -> tuple[float, float]:
    """The validation mAP50 after the first and the last epoch (ultralytics' results.csv)."""
    lines = (run / "results.csv").read_text(encoding="utf-8").splitlines()
    head = [h.strip() for h in lines[0].split(",")]
    column = head.index("metrics/mAP50(B)")
    values = [float(line.split(",")[column]) for line in lines[1:] if line.strip()]
    return (round(values[0], 4), round(values[-1], 4)) if values else (0.0, 0.0)
