"""The box refiner in 8 bits: the same network, its middle quantized by NNCF, for OpenVINO.

``guandan detect`` and ``eval-detector`` draw every read index's box again with the box
refiner (``vision.live.box_refiner``), each patch read as cut and half turned; in full
precision that is a large share of a busy zone's detection with boxes. It is quantized as
the index reader is (``vision.training.reader_quantize``): after training, calibrated on
patches of training deck styles cut as the reader's training cuts them (the same framing:
the refiner reads the reader's patch), its first convolution and its head — the four
edges' offsets, where a hundredth of a patch is a pixel — kept in full precision.

The result is an OpenVINO model that says its framing (``pad``) and a JSON beside it of how it
was made — the fingerprint of the ONNX refiner it came from, so that a refiner trained again
is not passed over for an old 8-bit one (``vision.live.detector.reader_in``) — and how far its
edges lie from that refiner's on the calibration sets' validation indices.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.live.box_refiner import BoxRefiner
from vision.live.reader import fingerprint
from vision.training.reader_quantize import READABLE, calibration_patches, check_xml, cut_split, quantize_patch_model
from vision.training.reader_train import join_patches


def compare(plain: Path, quantized: Path, sets: list[Path], *, images: int, progress: bool) -> dict:
    """The two refiners on the calibration sets' validation indices, cut at their exact boxes
    (training deck styles: a first check, not the held-out measurement): how far apart their
    edges lie, in patch sides (a 40-pixel patch: 0.025 is a patch pixel)."""
    theirs = BoxRefiner(plain)
    val = join_patches([cut_split(d, "val", jitter=False, limit=images, legibility=READABLE, progress=progress,
                                  pad=theirs.pad) for d in sets])
    if not len(val.classes):
        return {"val_patches": 0}
    apart = np.abs(BoxRefiner(quantized).edges(val.images) - theirs.edges(val.images))
    return {"val_patches": len(val.classes), "mean_edge_apart": float(apart.mean()),
            "p99_edge_apart": float(np.percentile(apart, 99)), "max_edge_apart": float(apart.max())}


def quantize_boxes(boxes: Path, sets: list[Path], out: Path, *, count: int = 6400, images: int = 2500,
                   seed: int = 0, progress: bool = True) -> dict:
    """Write ``out`` (``.xml``, with its ``.bin`` beside it): the box refiner ``boxes`` (ONNX)
    in 8 bits, calibrated on ``count`` patches of the training sets ``sets``; and beside it a
    JSON of how it was made and how far its edges lie from ``boxes``' (``compare``), which it
    returns."""
    check_xml(out)
    pad = BoxRefiner(boxes).pad  # also: it must be a box refiner
    patches = calibration_patches(sets, count, images=images, seed=seed, progress=progress, pad=pad)
    kept = quantize_patch_model(boxes, patches, out, {"pad": repr(float(pad))})
    figures = {"from": boxes.name, "source_sha256": fingerprint(boxes), "calibration": [str(d) for d in sets],
               "calibration_patches": len(patches), "seed": seed, "kept_in_full_precision": kept, "pad": pad,
               **compare(boxes, out, sets, images=max(1, images // 5), progress=progress)}
    out.with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return figures
