"""The index reader's patches (vision/reader.py): framing, turning, borders, and model errors."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.reader import CLASSES, PAD, PATCH, IndexReader, ReaderError, patch, to_tensor


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
    import torch

    from vision.reader_train import build_net, widths_of

    state = torch.load(Path(__file__).parents[2] / "models" / "reader.pt", map_location="cpu", weights_only=True)
    net = build_net(widths_of(state))
    net.load_state_dict(state)
    return net.eval()


def test_a_widened_reader_reads_exactly_as_the_narrow_one_did():
    import torch

    from vision.reader_train import widen, widths_of

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
    from vision.reader_train import build_net, widen

    with pytest.raises(ValueError, match="widening only"):
        widen(committed_reader(), (16, 32, 48, 128))
    with pytest.raises(ValueError, match="four stages"):
        build_net((16, 32, 64))


def test_a_patch_and_its_half_turn_read_alike():
    """Each patch is read as cut and half turned, and the two readings averaged (a card's
    two corner indices are half-turn copies): which of the two views came first cannot
    matter. The committed reader, on the sample zones' labelled indices."""
    from vision.evaluate import label_for, read_labels

    reader = IndexReader(Path(__file__).parents[2] / "models" / "reader.onnx")
    patches = []
    for path in sorted((Path(__file__).parents[2] / "datasets" / "samples" / "images").glob("*.jpg")):
        image = cv2.imread(str(path))
        _cards, boxes = read_labels(label_for(path), image.shape[1], image.shape[0])
        patches += [patch(image, tuple(b), pad=reader.pad) for b in boxes]
    patches = np.stack(patches)
    upright = reader.probabilities(patches)
    turned = reader.probabilities(np.ascontiguousarray(patches[:, ::-1, ::-1]))
    assert upright.shape == (len(patches), CLASSES) and np.allclose(upright.sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(upright, turned, atol=1e-5)
    assert len({int(c) for c in upright.argmax(axis=1)}) > 10  # different indices read differently
