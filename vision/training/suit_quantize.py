"""The suit reader in 8 bits: the same network, its middle quantized by NNCF, for OpenVINO.

The live loop reads every upright index twice over — the index reader, then the suit reader
on the area beside it — and in full precision the suit reader is a good share of a busy
seat zone's reading. It is quantized as the
index reader is (``vision.training.reader_quantize``): after training, its first convolution and its
head kept in full precision, calibrated on patches of training deck styles only. Its
patches are not cut from a dataset on disk: rows of cards are rendered for it in memory as
its training renders them (``vision.training.suit_train.render_patches``), from their own seed.

The result is an OpenVINO model that says the area it reads (``reach``, carried over from
the ONNX metadata) and a JSON beside it of how it was made — the fingerprint of the ONNX
reader it came from, so that a suit reader trained again is not passed over for an old
8-bit one (``vision.live.detector.reader_in``) — and how it reads rows of training styles,
indices cut exactly, against that reader.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.live.reader import fingerprint
from vision.live.suit_fold import SURE
from vision.live.suit_reader import SuitReader
from vision.training.reader_quantize import check_xml, quantize_patch_model
from vision.training.suit_train import SuitPatches, render_patches


def compare(plain: Path, quantized: Path, rows: SuitPatches) -> dict:
    """The two suit readers on ``rows`` (training styles, exact boxes: a first check, not the
    held-out measurement): their suits read right, how often they agree, and how often each
    is sure enough to be heard (``vision.live.suit_fold.SURE``)."""
    if not len(rows.suits):
        return {"val_patches": 0}
    ours, theirs = (SuitReader(path).probabilities(rows.images) for path in (quantized, plain))
    return {"val_patches": len(rows.suits),
            "full_precision_right": float((theirs.argmax(1) == rows.suits).mean()),
            "eight_bit_right": float((ours.argmax(1) == rows.suits).mean()),
            "agree": float((ours.argmax(1) == theirs.argmax(1)).mean()),
            "full_precision_heard": float((theirs.max(1) >= SURE).mean()),
            "eight_bit_heard": float((ours.max(1) >= SURE).mean())}


def quantize_suits(suits: Path, out: Path, *, scenes: int = 1000, val_scenes: int = 200, count: int = 6400,
                   seed: int = 0, workers: int = 2, progress: bool = True) -> dict:
    """Write ``out`` (``.xml``, with its ``.bin`` beside it): the suit reader ``suits`` (ONNX)
    in 8 bits, calibrated on ``count`` patches of ``scenes`` rendered rows of training deck
    styles; and beside it a JSON of how it was made and how it reads ``val_scenes`` more rows
    against ``suits`` (``compare``), which it returns."""
    check_xml(out)
    view = SuitReader(suits).view  # also: it must be a suit reader
    rows = render_patches(scenes, seed=seed, workers=workers, progress=progress, view=view)
    pick = np.random.default_rng(seed).permutation(len(rows.suits))[:count]
    reach = " ".join(repr(float(v)) for v in view.reach)
    kept = quantize_patch_model(suits, rows.images[pick], out, {"reach": reach})
    val = render_patches(val_scenes, seed=seed + 1000, jitter=False, workers=workers, progress=progress, view=view)
    figures = {"from": suits.name, "source_sha256": fingerprint(suits), "calibration_scenes": scenes,
               "calibration_patches": len(pick), "seed": seed, "kept_in_full_precision": kept,
               "reach": list(view.reach), **compare(suits, out, val)}
    out.with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return figures
