"""The index reader in 8 bits (``guandan quantize-reader``, ``vision.training.reader_quantize``).

Calibrated on the smoke set here (the committed one on training decks, models/README.md):
it must load as a reader, keep its framing, leave its first convolution and head in full
precision, and read what the full-precision reader reads.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

from vision.live.detector import reader_beside
from vision.live.reader import IndexReader, ReaderError
from vision.training.reader_quantize import kept_in_full_precision, quantize_reader
from vision.training.reader_train import cut_patches, join_patches

ROOT = Path(__file__).parents[2]
READER = ROOT / "models" / "reader.onnx"


def test_the_8_bit_reader_reads_as_the_full_precision_one(smoke: Path, tmp_path: Path):
    out = tmp_path / "reader_int8.xml"
    figures = quantize_reader(READER, [smoke], out, count=640, progress=False)
    assert out.exists() and out.with_suffix(".bin").exists()
    assert json.loads(out.with_suffix(".json").read_text(encoding="utf-8")) == figures
    assert 64 <= figures["calibration_patches"] <= 640 and figures["val_patches"] >= 10 and figures["agree"] >= 0.9
    assert abs(figures["eight_bit_right"] - figures["full_precision_right"]) <= 0.1
    quantized, plain = IndexReader(out), IndexReader(READER)
    assert quantized.pad == plain.pad == 0.2
    patches = join_patches([cut_patches(smoke, split, jitter=False, progress=False) for split in ("train", "val")])
    assert len(patches.classes) >= 80
    ours, theirs = quantized.probabilities(patches.images), plain.probabilities(patches.images)
    assert (ours.argmax(1) == theirs.argmax(1)).mean() >= 0.9
    assert np.abs(ours - theirs).max() < 0.35  # close, not the same: it is quantized
    kept = only_first_and_head_kept(out, READER)
    assert "logits" in kept


def only_first_and_head_kept(quantized: Path, source: Path) -> list[str]:
    """Check that the 8-bit ``quantized`` model left exactly the first convolution and the head
    of ``source`` in full precision and quantized every other convolution; the names kept."""
    import openvino as ov

    model = ov.Core().read_model(str(quantized))
    fed_by = {op.get_friendly_name(): fed(op) for op in model.get_ordered_ops()
              if op.get_type_name() in ("Convolution", "MatMul")}
    kept = kept_in_full_precision(ov.Core().read_model(str(source)))
    assert kept[0] == "/0/Conv/WithoutBiases"
    assert all(fed_by[name] != "FakeQuantize" for name in kept)
    assert sum(kind == "FakeQuantize" for kind in fed_by.values()) == len(fed_by) - len(kept)  # the rest are 8-bit
    return kept


def fed(op) -> str:
    """What kind of operation feeds ``op``'s input, looking through pooling (which 8 bits pass through)."""
    node = op.input_value(0).get_node()
    while node.get_type_name() in ("MaxPool", "AvgPool"):
        node = node.input_value(0).get_node()
    return node.get_type_name()


def test_a_reader_framed_wider_and_reading_once_stays_so(smoke: Path, tmp_path: Path):
    wide = onnx.load(str(READER))
    onnx.helper.set_model_props(wide, {"pad": "0.8", "reads": "1"})
    onnx.save(wide, str(tmp_path / "wide.onnx"))
    out = tmp_path / "wide_int8.xml"
    assert quantize_reader(tmp_path / "wide.onnx", [smoke], out, count=64, images=10, progress=False)["pad"] == 0.8
    assert IndexReader(out).pad == 0.8 and IndexReader(out).reads == 1


def test_a_folders_8_bit_reader_is_read_only_while_it_matches_the_onnx_one_beside_it(smoke: Path, tmp_path: Path):
    shutil.copyfile(READER, tmp_path / "reader.onnx")
    quantize_reader(tmp_path / "reader.onnx", [smoke], tmp_path / "reader_int8.xml", count=64, images=10,
                    progress=False)
    finder = tmp_path / "finder.pt"  # where a finder would lie; only its folder matters
    assert reader_beside(finder) == tmp_path / "reader_int8.xml"
    wide = onnx.load(str(READER))  # the reader trained again: other bytes
    onnx.helper.set_model_props(wide, {"pad": "0.8"})
    onnx.save(wide, str(tmp_path / "reader.onnx"))
    assert reader_beside(finder) == tmp_path / "reader.onnx"  # the old 8-bit one is left behind
    (tmp_path / "reader.onnx").unlink()
    assert reader_beside(finder) == tmp_path / "reader_int8.xml"  # alone, it is the folder's reader


def test_an_onnx_name_or_too_few_patches_are_refused(smoke: Path, tmp_path: Path):
    with pytest.raises(ReaderError, match=r"\.xml"):
        quantize_reader(READER, [smoke], tmp_path / "reader_int8.onnx", progress=False)
    with pytest.raises(ReaderError, match="at least 64 are needed"):
        quantize_reader(READER, [smoke], tmp_path / "reader_int8.xml", images=1, progress=False)
    (tmp_path / "empty.yaml").write_text(f"path: {tmp_path}\ntrain: nowhere\nval: nowhere\n", encoding="utf-8")
    with pytest.raises(ReaderError, match="no train images"):
        quantize_reader(READER, [tmp_path / "empty.yaml"], tmp_path / "reader_int8.xml", progress=False)


def guandan(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)


@pytest.mark.slow
@pytest.mark.parametrize("command,option,what", [("quantize-reader", "--reader", "reader"),
                                                 ("quantize-boxes", "--boxes", "box refiner")])
def test_the_command_says_what_is_wrong(command: str, option: str, what: str, tmp_path: Path):
    """quantize-reader and quantize-boxes (the box refiner's, ``vision.training.box_quantize``)."""
    missing = guandan(command, "--calibration", str(tmp_path / "none.yaml"))
    assert missing.returncode != 0 and "no such dataset YAML" in missing.stderr and "Traceback" not in missing.stderr
    (tmp_path / "data.yaml").write_text("path: .\ntrain: images\nval: images\n")
    no_model = guandan(command, "--calibration", str(tmp_path / "data.yaml"), option, str(tmp_path / "none.onnx"))
    assert no_model.returncode != 0 and f"no such {what} model" in no_model.stderr
    assert "Traceback" not in no_model.stderr
    too_few = guandan(command, "--calibration", str(tmp_path / "data.yaml"), "--patches", "10")
    assert too_few.returncode != 0 and "at least 64" in too_few.stderr and "Traceback" not in too_few.stderr
