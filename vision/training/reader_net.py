"""The index reader's network: its shape (stages of widths, an optional strided first
stage), widening a trained one, and the batches it learns from (bytes moved to the
device, then scaled; light photometric changes). Shared by the reader's training, its
distillation into a cheaper reader, and the suit reader's and box refiner's training.

torch is imported inside each function: a table node runs the exported models without it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.cards import ALL_CARDS, BIG_JOKER, RANKS, SMALL_JOKER, SUITS, rank_of, suit_of
from vision.live.reader import CLASSES, NOT_AN_INDEX, PATCH

WIDTHS = (16, 32, 64, 128)  # channels of the four stages, from scratch
STEM_KERNEL = 4  # a strided first stage's first convolution (``stem``)


def card_map():
    """The fixed map from the network's parts to card logits: a card's logit is its rank's
    plus its suit's, so what the network learns about a spade's shape is learnt once for all
    thirteen spades; the two jokers and *no index* have their own."""
    import torch

    parts = len(RANKS) + len(SUITS) + 3  # ranks, suits, small joker, big joker, no index
    m = torch.zeros(CLASSES, parts)
    for i, card in enumerate(ALL_CARDS):
        if card == SMALL_JOKER:
            m[i, len(RANKS) + len(SUITS)] = 1
        elif card == BIG_JOKER:
            m[i, len(RANKS) + len(SUITS) + 1] = 1
        else:
            m[i, RANKS.index(rank_of(card))] = m[i, len(RANKS) + SUITS.index(suit_of(card))] = 1
    m[NOT_AN_INDEX, -1] = 1
    return m


def check_widths(widths: tuple[int, ...], start: tuple[int, ...] | None = None) -> None:
    """Raise ValueError unless ``widths`` can be a reader's, grown from ``start``'s if given."""
    if len(widths) != 4 or min(widths) < 1:
        raise ValueError(f"a reader has four stages, each at least one channel wide, not {widths}")
    if start is not None and any(w < o for w, o in zip(widths, start, strict=True)):
        raise ValueError(f"widening only: {widths} is narrower than {start} somewhere")


def stage(cin: int, cout: int) -> list:
    """Two 3×3 convolutions with batch norm and ReLU: one stage of a patch reader's network."""
    import torch.nn as nn

    return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]


def stem(width: int) -> list:
    """A strided first stage: a 4×4 convolution that halves the patch, then a 3×3 one.

    In place of a full-size stage and its pool it does about a quarter of the arithmetic, and
    the full-size stage took over a quarter of the 8-bit reader's time. Why it might lose
    little: a small index — the hard ones — is enlarged to fill the patch, so full size holds
    no more detail than half size. Not used by the committed reader: a short run read fewer
    held-out indices (``docs/experiments.md``); a run as long as the committed one's is untried."""
    import torch.nn as nn

    return [nn.Conv2d(3, width, STEM_KERNEL, stride=2, padding=1, bias=False), nn.BatchNorm2d(width),
            nn.ReLU(inplace=True), *stage(width, width)[3:]]


def build_net(widths: tuple[int, ...] = WIDTHS, strided: bool = False):
    """The reader network: 40×40 patch → CLASSES logits (through rank and suit parts).
    ``strided``: the first stage is a ``stem`` (an identity stands where the pool was, so the
    layers keep their places and names: weights move between the two kinds layer by layer)."""
    import torch.nn as nn

    check_widths(widths)
    parts = card_map()

    a, b, c, d = widths
    return nn.Sequential(
        *(stem(a) + [nn.Identity()] if strided else stage(3, a) + [nn.MaxPool2d(2)]),  # 20
        *stage(a, b), nn.MaxPool2d(2),      # 10
        *stage(b, c), nn.MaxPool2d(2),      # 5
        *stage(c, d), nn.AvgPool2d(PATCH // 8), nn.Flatten(),
        nn.Dropout(0.2), nn.Linear(d, parts.shape[1]), _fixed_linear(parts),
    )


def is_strided(state: dict) -> bool:
    """Whether saved reader weights begin with a strided ``stem``."""
    return state["0.weight"].shape[-1] == STEM_KERNEL


def load_net(path: Path):
    """The reader network saved at ``path`` (the .pt beside an exported reader), in eval mode."""
    import torch

    state = torch.load(path, map_location="cpu", weights_only=True)
    net = build_net(widths_of(state), strided=is_strided(state))
    net.load_state_dict(state)
    return net.eval()


def widths_of(state: dict) -> tuple[int, ...]:
    """The stage widths of saved reader weights (each stage's first convolution's outputs)."""
    convs = [v for v in state.values() if getattr(v, "ndim", 0) == 4]
    return tuple(int(w.shape[0]) for w in convs[0::2])


def widen(net, widths: tuple[int, ...], *, noise: float = 0.01, seed: int = 0):
    """A wider reader that reads exactly as ``net`` does (before ``noise``), to train on from.

    Each new channel copies a randomly chosen old one of its stage (the convolution that
    makes it and its batch norm), and whatever reads the copied channels gets its weights
    shared out among the copies, so the sum is unchanged (Net2Net's widening). Training
    from the narrow reader's knowledge is far cheaper than a wide one from scratch on a
    CPU. ``noise`` (relative to each weight's scale) lets the copies drift apart; without
    it they would get the same gradients and stay copies."""
    import torch
    import torch.nn as nn

    old = widths_of(net.state_dict())
    check_widths(widths, old)
    wide = build_net(widths, strided=is_strided(net.state_dict()))
    gen = torch.Generator().manual_seed(seed)
    convs = [m for m in net if isinstance(m, nn.Conv2d)]
    norms = [m for m in net if isinstance(m, nn.BatchNorm2d)]
    wide_convs = [m for m in wide if isinstance(m, nn.Conv2d)]
    wide_norms = [m for m in wide if isinstance(m, nn.BatchNorm2d)]
    picks = []  # per stage: which old channel each new channel copies
    for o, w in zip(old, widths, strict=True):
        extra = torch.randint(0, o, (w - o,), generator=gen)
        picks.append(torch.cat([torch.arange(o), extra]))
    with torch.no_grad():
        fan_in = torch.arange(3)  # the image's colours, never widened
        share = torch.ones(3)
        for i, (conv, norm, wconv, wnorm) in enumerate(zip(convs, norms, wide_convs, wide_norms, strict=True)):
            pick = picks[i // 2]
            weight = conv.weight[pick][:, fan_in] / share.view(1, -1, 1, 1)
            copies = torch.arange(len(pick)) >= old[i // 2]
            scale = weight.std() * noise
            weight[copies] += torch.randn(weight[copies].shape, generator=gen) * scale
            wconv.weight.copy_(weight)
            for name in ("weight", "bias", "running_mean", "running_var"):
                getattr(wnorm, name).copy_(getattr(norm, name)[pick])
            fan_in, share = pick, torch.bincount(pick, minlength=old[i // 2]).float()[pick]
        head, wide_head = net[-2], wide[-2]
        wide_head.weight.copy_(head.weight[:, fan_in] / share.view(1, -1))
        wide_head.bias.copy_(head.bias)
    return wide


def _fixed_linear(weights):
    import torch.nn as nn

    layer = nn.Linear(weights.shape[1], weights.shape[0], bias=False)
    layer.weight.data.copy_(weights)
    layer.weight.requires_grad_(False)
    return layer


def batch_of(images: np.ndarray, idx: np.ndarray | slice, device: str = "cpu"):
    """The patches ``images[idx]`` as the network's input on ``device``: what ``to_tensor``
    gives, but moved as bytes and scaled there (a quarter of the copying to an accelerator)."""
    import torch

    x = torch.from_numpy(np.ascontiguousarray(images[idx])).to(device)
    return x.permute(0, 3, 1, 2).contiguous().float() / 255.0


def augment(batch, rng: np.random.Generator):
    """Light, cheap photometric changes per patch: contrast, brightness, colour cast, noise."""
    import torch

    n, device = batch.shape[0], batch.device

    def drawn(low: float, high: float, shape: tuple):
        return torch.from_numpy(rng.uniform(low, high, shape).astype(np.float32)).to(device)

    gain = drawn(0.6, 1.3, (n, 1, 1, 1))
    bias = drawn(-0.15, 0.15, (n, 1, 1, 1))
    cast = drawn(-0.06, 0.06, (n, 3, 1, 1))
    noise = torch.randn_like(batch) * drawn(0, 0.05, (n, 1, 1, 1))
    return (batch * gain + bias + cast + noise).clamp(0, 1)
