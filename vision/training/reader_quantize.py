"""The index reader in 8 bits: the same network, its middle quantized by NNCF, for OpenVINO.

The reader is compute-bound on our CPUs (a busy zone's 50 patches, each also read half
turned, are most of a zone's reading time), and 8-bit arithmetic does about twice the work
per cycle there. Quantizing after training (post-training quantization) needs only patches
to measure each layer's range: cut here as training cuts them, from training deck styles,
never from a held-out set. The first convolution (it sees raw pixels, where a 5-pixel suit
sign is a few grey levels) and the head (the card's logits, whose small differences decide
between a spade and a club) stay in full precision: quantized too they lose held-out
indices that full precision reads (``docs/experiments.md``).

The result is an OpenVINO model (``.xml`` and ``.bin``) saying the framing it reads with
(``pad``, as the ONNX reader's metadata does), loaded by ``vision.live.reader.IndexReader`` like
the ONNX one, and a JSON beside it of how it was made (the fingerprint of the reader it came
from among it: a folder's 8-bit reader is used only while it matches the ONNX reader beside
it, ``vision.live.detector.reader_beside``) and how it reads the calibration sets' validation
indices against that reader.

NNCF and OpenVINO are imported inside the functions that use them: heavy to load, and needed
only when a model is trained, quantized or run through them, not for ``guandan --help`` or
at a table.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from vision.errors import DatasetError
from vision.live.reader import KEY, IndexReader, ReaderError, fingerprint, pad_of, read_model, reads_of, to_tensor
from vision.training.evaluate import Legibility
from vision.training.reader_train import Patches, cut_patches, join_patches

BATCH = 64  # patches per calibration batch
READABLE = Legibility(min_sharp=4.0, min_visible=0.8)  # what train-reader cuts (its defaults)


def kept_in_full_precision(model) -> list[str]:
    """The operations left unquantized: the first convolution and the matrix products after
    the last convolution (the head)."""
    ops = [op for op in model.get_ordered_ops() if op.get_type_name() in ("Convolution", "MatMul")]
    convs = [i for i, op in enumerate(ops) if op.get_type_name() == "Convolution"]
    if not convs:
        raise ReaderError("the reader has no convolution: not a patch reader")
    return [ops[convs[0]].get_friendly_name()] + [op.get_friendly_name() for op in ops[convs[-1] + 1:]]


def cut_split(data: Path, split: str, **kwargs) -> Patches:
    """``cut_patches``, a dataset without that split of images said plainly."""
    try:
        return cut_patches(data, split, **kwargs)
    except DatasetError as exc:
        raise ReaderError(f"{data}: no {split} images to cut patches from ({exc.why})") from None
    except OSError as exc:
        raise ReaderError(f"{data}: no {split} images to cut patches from ({exc})") from None


def calibration_patches(sets: list[Path], count: int, *, images: int, seed: int, progress: bool,
                        pad: float) -> np.ndarray:
    """``count`` patches cut as training cuts them (turned, shifted, some of no index) from up
    to ``images`` training images of each set, chosen at random."""
    cut = join_patches([cut_split(d, "train", seed=seed + i, limit=images, legibility=READABLE, progress=progress,
                             pad=pad) for i, d in enumerate(sets)])
    if len(cut.classes) < BATCH:
        raise ReaderError(f"only {len(cut.classes)} patches in the calibration sets: at least {BATCH} are needed")
    pick = np.random.default_rng(seed).permutation(len(cut.classes))[:count]
    return cut.images[pick]


def compare(plain: Path, quantized: Path, sets: list[Path], *, images: int, progress: bool) -> dict:
    """The two readers on the calibration sets' validation indices at their exact boxes
    (training deck styles: a first check, not the held-out measurement): how many each
    reads right and how often they agree."""
    pad = pad_of(plain)
    val = join_patches([cut_split(d, "val", jitter=False, limit=images, legibility=READABLE, progress=progress, pad=pad)
                        for d in sets])
    if not len(val.classes):
        return {"val_patches": 0}
    ours, theirs = (IndexReader(path).probabilities(val.images).argmax(1) for path in (quantized, plain))
    return {"val_patches": len(val.classes), "full_precision_right": float((theirs == val.classes).mean()),
            "eight_bit_right": float((ours == val.classes).mean()), "agree": float((ours == theirs).mean())}


def check_xml(out: Path) -> None:
    """An 8-bit model is written as OpenVINO's .xml (its weights beside it as .bin): said
    before any patch is cut or rendered for it."""
    if out.suffix != ".xml":
        raise ReaderError(f"{out}: an OpenVINO model is written as .xml (its weights beside it as .bin)")


def quantize_patch_model(source: Path, patches: np.ndarray, out: Path, said: dict[str, str]) -> list[str]:
    """Write ``out`` (``.xml``, ``check_xml``; its ``.bin`` beside it): the patch reader
    ``source`` (ONNX) in 8 bits, calibrated on ``patches`` (N×H×W×3 bytes, as it reads
    them), its first convolution and head kept in full precision, carrying ``said`` (what
    the ONNX metadata said of its framing, ``vision.live.reader.said``). Returns the operations
    kept."""
    import openvino as ov

    try:
        import nncf
    except ImportError:
        raise ReaderError("quantizing needs NNCF: pip install nncf") from None
    if len(patches) < BATCH:
        raise ReaderError(f"only {len(patches)} calibration patches: at least {BATCH} are needed")
    model = read_model(source)
    batches = [to_tensor(patches[i:i + BATCH]) for i in range(0, len(patches), BATCH)]
    kept = kept_in_full_precision(model)
    quantized = nncf.quantize(model, nncf.Dataset(batches), subset_size=len(batches),
                              ignored_scope=nncf.IgnoredScope(names=kept))
    for name, value in said.items():
        quantized.set_rt_info(value, [KEY, name])
    out.parent.mkdir(parents=True, exist_ok=True)
    ov.save_model(quantized, str(out), compress_to_fp16=False)  # the full-precision layers kept so
    return kept


def quantize_reader(reader: Path, sets: list[Path], out: Path, *, count: int = 6400, images: int = 2500,
                    seed: int = 0, progress: bool = True) -> dict:
    """Write ``out`` (``.xml``, with its ``.bin`` beside it): ``reader`` (ONNX) in 8 bits,
    calibrated on ``count`` patches of the training sets ``sets``; and beside it a JSON of
    how it was made and how it reads the sets' validation indices against ``reader``
    (``compare``), which it returns."""
    check_xml(out)
    pad = pad_of(reader)
    patches = calibration_patches(sets, count, images=images, seed=seed, progress=progress, pad=pad)
    kept = quantize_patch_model(reader, patches, out, {"pad": repr(float(pad)), "reads": str(reads_of(reader))})
    figures = {"from": reader.name, "source_sha256": fingerprint(reader), "calibration": [str(d) for d in sets],
               "calibration_patches": len(patches),
               "seed": seed, "kept_in_full_precision": kept, "pad": pad,
               **compare(reader, out, sets, images=max(1, images // 5), progress=progress)}
    out.with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return figures
