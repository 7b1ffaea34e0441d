"""The suit reader in 8 bits (``guandan quantize-suits``, ``vision.training.suit_quantize``).

Calibrated here on a few rendered rows (the committed one on 1,000, models/README.md): it
must load as a suit reader looking at the same area, leave its first convolution and head
in full precision, read what the full-precision one reads, and be the detector's suit reader
only while it was made from the ONNX one beside it.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

from tests.vision.test_reader_quantize import only_first_and_head_kept
from vision.live.detector import SUIT_READERS, reader_in
from vision.live.reader import ReaderError
from vision.live.suit_reader import SuitReader
from vision.training.suit_quantize import quantize_suits
from vision.training.suit_train import render_patches

# make check leaves these out: the suit reader quantized and compared
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
SUITS = ROOT / "models" / "suits.onnx"


@pytest.fixture(scope="module")
def quantized(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("suits") / "suits_int8.xml"
    return out, quantize_suits(SUITS, out, scenes=30, val_scenes=10, count=640, workers=1, progress=False)


def test_the_8_bit_suit_reader_reads_as_the_full_precision_one(quantized: tuple[Path, dict]):
    out, figures = quantized
    assert out.exists() and out.with_suffix(".bin").exists()
    assert json.loads(out.with_suffix(".json").read_text(encoding="utf-8")) == figures
    assert figures["calibration_patches"] >= 64 and figures["val_patches"] >= 50 and figures["agree"] >= 0.9
    ours, theirs = SuitReader(out), SuitReader(SUITS)
    assert ours.view == theirs.view  # the area it reads is carried over
    rows = render_patches(8, seed=99, split="heldout", variety="standard", n_styles=120, jitter=False, workers=1,
                          progress=False)
    assert len(rows.suits) >= 40
    a, b = ours.probabilities(rows.images), theirs.probabilities(rows.images)
    assert (a.argmax(1) == b.argmax(1)).mean() >= 0.9
    assert np.abs(a - b).max() < 0.35  # close, not the same: it is quantized
    assert only_first_and_head_kept(out, SUITS) == figures["kept_in_full_precision"]


def test_the_detector_reads_it_only_while_it_matches_the_onnx_one_beside_it(quantized: tuple[Path, dict],
                                                                             tmp_path: Path):
    out, _ = quantized
    for name in ("suits_int8.xml", "suits_int8.bin", "suits_int8.json"):
        shutil.copyfile(out.with_name(name), tmp_path / name)
    shutil.copyfile(SUITS, tmp_path / "suits.onnx")
    assert reader_in(tmp_path, SUIT_READERS) == tmp_path / "suits_int8.xml"
    other = onnx.load(str(SUITS))  # the suit reader trained again: other bytes
    onnx.helper.set_model_props(other, {"reach": "-0.15 -0.15 1.35 1.85", "note": "trained again"})
    onnx.save(other, str(tmp_path / "suits.onnx"))
    assert reader_in(tmp_path, SUIT_READERS) == tmp_path / "suits.onnx"
    (tmp_path / "suits.onnx").unlink()
    assert reader_in(tmp_path, SUIT_READERS) == tmp_path / "suits_int8.xml"


def test_an_onnx_name_or_an_index_reader_is_refused(tmp_path: Path):
    with pytest.raises(ReaderError, match=r"\.xml"):
        quantize_suits(SUITS, tmp_path / "suits_int8.onnx", progress=False)
    with pytest.raises(ReaderError, match="a suit reader gives 4"):
        quantize_suits(ROOT / "models" / "reader.onnx", tmp_path / "suits_int8.xml", progress=False)


def test_the_command_says_what_is_wrong(tmp_path: Path):
    def guandan(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "scorer.cli", "quantize-suits", *args], capture_output=True,
                              text=True, timeout=120, cwd=ROOT)

    missing = guandan("--suits", str(tmp_path / "none.onnx"))
    assert missing.returncode != 0 and "no such suit reader model" in missing.stderr
    few = guandan("--patches", "10", "--out", str(tmp_path / "s.xml"))
    assert few.returncode != 0 and "at least 64" in few.stderr
    for done in (missing, few):
        assert "Traceback" not in done.stderr
