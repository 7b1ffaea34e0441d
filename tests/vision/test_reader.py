"""The index reader's patches (vision/live/reader.py): framing, turning, borders, and model errors."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.live.reader import CLASSES, PAD, PATCH, IndexReader, ReaderError, patch, to_tensor


def marked_image() -> np.ndarray:
    """Grey image with a white 20×40 box at (100, 50); its top half red, so turning shows."""
    image = np.full((200, 300, 3), 90, np.uint8)
    image[50:90, 100:120] = 255
    image[50:70, 100:120] = (0, 0, 255)
    return image


@pytest.mark.parametrize("pad", [PAD, 0.8])
def test_a_patch_frames_the_box_square_and_centred(pad):
    out = patch(marked_image(), (100, 50, 120, 90), pad=pad)
    assert out.shape == (PATCH, PATCH, 3) and out.dtype == np.uint8
    bright = np.argwhere(out.max(axis=2) > 200)
    (top, left), (bottom, right) = bright.min(axis=0), bright.max(axis=0)
    height = bottom - top + 1
    assert abs(height - PATCH / (1 + pad)) <= 2  # the box's long side fills the patch, less the margin
    assert abs((top + bottom) / 2 - (PATCH - 1) / 2) <= 1 and abs((left + right) / 2 - (PATCH - 1) / 2) <= 1


def test_turning_a_patch_turns_its_content():
    image = marked_image()
    upright = patch(image, (100, 50, 120, 90))
    turned = patch(image, (100, 50, 120, 90), angle=180)
    red = lambda p: np.argwhere((p[:, :, 2] > 200) & (p[:, :, 1] < 80))[:, 0].mean()  # noqa: E731  row of red
    assert red(upright) < PATCH / 2 < red(turned)  # red on top, then red at the bottom
    assert np.abs(cv2.rotate(upright, cv2.ROTATE_180).astype(int) - turned.astype(int)).mean() < 8


def test_a_box_at_the_edge_repeats_the_border_instead_of_black():
    image = np.full((100, 100, 3), 200, np.uint8)
    out = patch(image, (-10, -10, 10, 10))
    assert out.min() == 200


def test_model_input_is_channels_first_and_scaled():
    x = to_tensor(np.full((2, PATCH, PATCH, 3), 255, np.uint8))
    assert x.shape == (2, 3, PATCH, PATCH) and x.dtype == np.float32 and x.max() == 1.0


def test_a_missing_or_foreign_model_is_a_clear_error(tmp_path):
    with pytest.raises(ReaderError, match="no such reader model"):
        IndexReader(tmp_path / "none.onnx")
    import torch

    net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * PATCH * PATCH, 7))
    torch.onnx.export(net, torch.zeros(1, 3, PATCH, PATCH), str(tmp_path / "seven.onnx"), dynamo=False)
    with pytest.raises(ReaderError, match="gives 7 classes"):
        IndexReader(tmp_path / "seven.onnx")


def committed_reader():
    from vision.training.reader_net import load_net

    return load_net(Path(__file__).parents[2] / "models" / "reader.pt")


def test_a_widened_reader_reads_exactly_as_the_narrow_one_did():
    import torch

    from vision.training.reader_net import widen, widths_of

    narrow = committed_reader()
    assert widths_of(narrow.state_dict()) == (16, 32, 96, 128)  # the committed reader, widened once already
    wide = widen(narrow, (24, 40, 128, 160), noise=0.0).eval()
    assert widths_of(wide.state_dict()) == (24, 40, 128, 160)
    x = torch.rand(16, 3, PATCH, PATCH)
    with torch.no_grad():
        before, after = narrow(x), wide(x)
    assert torch.allclose(before, after, atol=1e-4)
    # with the symmetry-breaking noise it reads nearly the same, and its copies differ
    noisy = widen(narrow, (24, 40, 128, 160)).eval()
    with torch.no_grad():
        assert (noisy(x).argmax(1) == before.argmax(1)).float().mean() >= 0.9
    first = noisy[0].weight  # 16 old channels, then 8 copies of some of them
    assert not any(torch.equal(new, old) for new in first[16:] for old in first[:16])
    exact = widen(narrow, (24, 40, 128, 160), noise=0.0)[0].weight
    assert all(any(torch.equal(new, old) for old in exact[:16]) for new in exact[16:])


def test_widening_only_widens():
    from vision.training.reader_net import build_net, widen

    with pytest.raises(ValueError, match="widening only"):
        widen(committed_reader(), (16, 32, 48, 128))
    with pytest.raises(ValueError, match="four stages"):
        build_net((16, 32, 64))


def test_a_reader_taught_at_its_teachers_widths_begins_reading_exactly_as_it_does():
    import torch

    from vision.training.reader_distil import narrowed
    from vision.training.reader_net import is_strided, widths_of

    teacher = committed_reader()
    widths = widths_of(teacher.state_dict())
    student = narrowed(teacher, widths, is_strided(teacher.state_dict())).eval()
    x = torch.rand(8, 3, PATCH, PATCH)
    with torch.no_grad():
        assert torch.allclose(student(x), teacher(x), atol=1e-5)


def test_a_narrower_taught_reader_keeps_the_channels_that_weigh_most():
    import torch
    import torch.nn as nn

    from vision.training.reader_distil import narrowed
    from vision.training.reader_net import build_net, widths_of

    teacher = build_net((16, 32, 96, 128)).eval()
    with torch.no_grad():
        for m in teacher:
            if isinstance(m, nn.BatchNorm2d):
                m.weight.copy_(-torch.linspace(0.1, 2, m.num_features))  # the last weigh most (by size)
    student = narrowed(teacher, (16, 32, 64, 128), strided=True)
    assert widths_of(student.state_dict()) == (16, 32, 64, 128)
    convs = lambda net: [m.weight for m in net if isinstance(m, nn.Conv2d)]  # noqa: E731
    t, s = convs(teacher), convs(student)
    # the third stage keeps its 64 heaviest of 96 channels (the last 64),
    # and the fourth reads only those
    assert torch.equal(s[4], t[4][32:]) and torch.equal(s[5], t[5][32:, 32:]) and torch.equal(s[6], t[6][:, 32:])
    assert torch.equal(s[2], t[2]) and torch.equal(s[7], t[7])  # stages as wide as the teacher's: copied
    assert s[0].shape == (16, 3, 4, 4)  # a strided first stage is new
    with pytest.raises(ValueError, match="at most as wide as its teacher"):
        narrowed(teacher, (16, 32, 128, 128), strided=False)


def test_a_strided_reader_exports_reads_and_widens_as_a_strided_one(tmp_path):
    import torch

    from vision.training.reader_net import build_net, is_strided, widen, widths_of
    from vision.training.reader_train import export_onnx

    net = build_net((16, 32, 64, 128), strided=True).eval()
    assert is_strided(net.state_dict()) and not is_strided(build_net().state_dict())
    assert widths_of(net.state_dict()) == (16, 32, 64, 128)
    with torch.no_grad():
        assert net(torch.rand(3, 3, PATCH, PATCH)).shape == (3, CLASSES)
    reader = IndexReader(export_onnx(net, tmp_path / "strided.onnx"))
    assert reader.probabilities(np.zeros((2, PATCH, PATCH, 3), np.uint8)).shape == (2, CLASSES)
    wide = widen(net, (16, 32, 96, 128), noise=0.0).eval()
    x = torch.rand(4, 3, PATCH, PATCH)
    with torch.no_grad():
        assert is_strided(wide.state_dict()) and torch.allclose(wide(x), net(x), atol=1e-4)


def test_a_reader_that_says_it_reads_once_reads_each_patch_once(tmp_path):
    import torch

    from vision.live.reader import softmax
    from vision.training.reader_train import export_onnx

    net = committed_reader()
    once = IndexReader(export_onnx(net, tmp_path / "once.onnx", reads=1))
    both = IndexReader(export_onnx(net, tmp_path / "both.onnx"))
    assert (once.reads, both.reads) == (1, 2)
    patches = sample_patches(once.pad)
    alone, turned = once.probabilities(patches), once.probabilities(np.ascontiguousarray(patches[:, ::-1, ::-1]))
    with torch.no_grad():
        network = softmax(net(torch.from_numpy(to_tensor(patches))).numpy())
    assert (alone.argmax(1) == network.argmax(1)).mean() >= 0.95  # the network's own reading (OpenVINO rounds its way)
    assert np.allclose(both.probabilities(patches), (alone + turned) / 2, atol=2e-3)
    assert np.abs(alone - turned).max() > 0.1  # so reading once is not reading both ways
    bad = onnx_with(tmp_path / "once.onnx", tmp_path / "bad.onnx", reads="3")
    with pytest.raises(ReaderError, match="reads metadata must be 1 or 2"):
        IndexReader(bad)


def sample_patches(pad: float) -> np.ndarray:
    """Patches around the committed sample zones' labelled indices."""
    from vision.training.evaluate import label_for, read_labels

    patches = []
    for path in sorted((Path(__file__).parents[2] / "datasets" / "samples" / "images").glob("*.jpg")):
        image = cv2.imread(str(path))
        _cards, boxes = read_labels(label_for(path), image.shape[1], image.shape[0])
        patches += [patch(image, tuple(b), pad=pad) for b in boxes]
    return np.stack(patches)


def onnx_with(source: Path, out: Path, **props: str) -> Path:
    """A copy of an ONNX model with other metadata."""
    import onnx

    model = onnx.load(str(source))
    onnx.helper.set_model_props(model, props)
    onnx.save(model, str(out))
    return out


def test_a_patch_and_its_half_turn_read_alike():
    """Each patch is read as cut and half turned, and the two readings averaged (a card's
    two corner indices are half-turn copies): which of the two views came first cannot
    matter. The committed reader, on the sample zones' labelled indices."""

    reader = IndexReader(Path(__file__).parents[2] / "models" / "reader.onnx")
    patches = sample_patches(reader.pad)
    upright = reader.probabilities(patches)
    turned = reader.probabilities(np.ascontiguousarray(patches[:, ::-1, ::-1]))
    assert upright.shape == (len(patches), CLASSES) and np.allclose(upright.sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(upright, turned, atol=1e-5)
    assert len({int(c) for c in upright.argmax(axis=1)}) > 10  # different indices read differently
