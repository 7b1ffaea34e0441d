"""The index reader in 8 bits: the same network, its middle quantized by NNCF, for OpenVINO.

The reader is compute-bound on our CPUs (a busy zone's 50 patches, each also read half
turned, are most of a zone's reading time), and 8-bit arithmetic does about twice the work
per cycle there. Quantizing after training (post-training quantization) needs only patches
to measure each layer's range: cut here as training cuts them, from training deck styles,
never from a held-out set. The first convolution (it sees raw pixels, where a 5-pixel suit
sign is a few grey levels) and the head (the card's logits, whose small differences decide
between a spade and a club) stay in full precision: quantized too they read one or two
held-out indices fewer in 881 (``docs/benchmarks.md``, twentieth session).

The result is an OpenVINO model (``.xml`` and ``.bin``) saying the framing it reads with
(``pad``, as the ONNX reader's metadata does), loaded by ``vision.reader.IndexReader`` like
the ONNX one.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.evaluate import Legibility
from vision.reader import PAD_KEY, ReaderError, pad_of, to_tensor
from vision.reader_train import cut_patches, join_patches

BATCH = 64  # patches per calibration batch


def kept_in_full_precision(model) -> list[str]:
    """The operations left unquantized: the first convolution and the matrix products after
    the last convolution (the head)."""
    ops = [op for op in model.get_ordered_ops() if op.get_type_name() in ("Convolution", "MatMul")]
    convs = [i for i, op in enumerate(ops) if op.get_type_name() == "Convolution"]
    if not convs:
        raise ReaderError("the reader has no convolution: not a patch reader")
    return [ops[convs[0]].get_friendly_name()] + [op.get_friendly_name() for op in ops[convs[-1] + 1:]]


def calibration_patches(sets: list[Path], count: int, *, images: int, seed: int, progress: bool,
                        pad: float) -> np.ndarray:
    """``count`` patches cut as training cuts them (turned, shifted, some of no index) from up
    to ``images`` training images of each set, chosen at random."""
    readable = Legibility(min_sharp=4.0, min_visible=0.8)  # as train-reader leaves out unreadable indices
    cut = join_patches([cut_patches(d, "train", seed=seed + i, limit=images, legibility=readable, progress=progress,
                                    pad=pad) for i, d in enumerate(sets)])
    if len(cut.classes) < BATCH:
        raise ReaderError(f"only {len(cut.classes)} patches in the calibration sets: at least {BATCH} are needed")
    pick = np.random.default_rng(seed).permutation(len(cut.classes))[:count]
    return cut.images[pick]


def quantize_reader(reader: Path, sets: list[Path], out: Path, *, count: int = 6400, images: int = 2500,
                    seed: int = 0, progress: bool = True) -> Path:
    """Write ``out`` (``.xml``, with its ``.bin`` beside it): ``reader`` (ONNX) in 8 bits,
    calibrated on ``count`` patches of the training sets ``sets``."""
    import openvino as ov

    try:
        import nncf
    except ImportError:
        raise ReaderError("quantizing needs NNCF: pip install nncf") from None
    if out.suffix != ".xml":
        raise ReaderError(f"{out}: an OpenVINO model is written as .xml (its weights beside it as .bin)")
    pad = pad_of(reader)
    try:
        model = ov.Core().read_model(str(reader))
    except RuntimeError as exc:
        raise ReaderError(f"{reader}: not a model OpenVINO can read ({str(exc).splitlines()[0]})") from None
    patches = calibration_patches(sets, count, images=images, seed=seed, progress=progress, pad=pad)
    batches = [to_tensor(patches[i:i + BATCH]) for i in range(0, len(patches), BATCH)]
    quantized = nncf.quantize(model, nncf.Dataset(batches), subset_size=len(batches),
                              ignored_scope=nncf.IgnoredScope(names=kept_in_full_precision(model)))
    quantized.set_rt_info(repr(float(pad)), PAD_KEY)
    out.parent.mkdir(parents=True, exist_ok=True)
    ov.save_model(quantized, str(out), compress_to_fp16=False)  # the full-precision layers kept so
    return out
