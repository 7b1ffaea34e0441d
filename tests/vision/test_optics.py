"""The camera blur put on the reader's training patches (``vision.training.optics``)."""

import numpy as np
import pytest

from vision.training.optics import KERNEL, blurred, defocus_kernel, draw_kernels, smear_kernel

torch = pytest.importorskip("torch")


def _sharpness(batch) -> np.ndarray:
    """Per patch: the mean squared difference between neighbouring pixels (edges' energy)."""
    x = batch.numpy()
    return ((np.diff(x, axis=3) ** 2).mean(axis=(1, 2, 3)) + (np.diff(x, axis=2) ** 2).mean(axis=(1, 2, 3)))


def _stripes(n: int = 64):
    """Patches of black and white squares two pixels wide: edges every way a smear may run."""
    board = ((np.arange(40)[:, None] // 2 + np.arange(40)[None, :] // 2) % 2).astype(np.float32)
    return torch.from_numpy(np.broadcast_to(board, (n, 3, 40, 40)).copy())


def test_every_kernel_keeps_the_patch_brightness():
    for k in (defocus_kernel(0.5), defocus_kernel(2.0), smear_kernel(2.0, 0.3), smear_kernel(6.0, 2.5),
              *draw_kernels(20, np.random.default_rng(1), 1.0)):
        assert k.shape == (KERNEL, KERNEL) and k.min() >= 0 and k.sum() == pytest.approx(1.0, abs=1e-5)


def test_a_smear_lies_along_its_angle():
    flat = smear_kernel(5.0, 0.0)  # horizontal
    assert flat[KERNEL // 2].sum() > 0.95 and flat[:, KERNEL // 2].sum() < 0.3


def test_no_share_leaves_the_batch_as_it_was():
    batch = _stripes()
    assert blurred(batch, np.random.default_rng(0), 0.0) is batch


def test_the_share_blurred_is_about_the_share_asked_and_the_rest_untouched():
    batch = _stripes(400)
    out = blurred(batch, np.random.default_rng(3), 0.5)
    changed = (out - batch).abs().amax(dim=(1, 2, 3)).numpy() > 1e-4
    assert 0.4 < changed.mean() < 0.75  # blurred (half) or sampled coarser (a quarter), or both
    assert torch.equal(out[~torch.from_numpy(changed)], batch[~torch.from_numpy(changed)])
    assert (_sharpness(out)[changed] < 0.8 * _sharpness(batch)[changed]).all()
    assert float(out.min()) >= 0.0 and float(out.max()) <= 1.0
