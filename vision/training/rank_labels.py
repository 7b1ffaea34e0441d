"""Learning from patches whose rank is known and whose suit is not.

The real photos name each card's rank only (``vision.training.real_patches``). Taking the
reader's own guess of the suit as the truth would teach it its own mistakes (a spade ace the
reader calls a club would be learnt as a club), so for those patches the loss asks only that
the reader put its probability on the right rank, whichever suit: minus the log of the
summed probabilities of that rank's cards.
"""

from __future__ import annotations

import numpy as np

from engine.cards import ALL_CARDS, rank_of


def same_rank() -> np.ndarray:
    """(classes × classes) booleans: class i and class k name the same rank. The last class,
    *no index*, is a rank of its own."""
    ranks = [rank_of(card) for card in ALL_CARDS] + ["none"]
    return np.array([[a == b for b in ranks] for a in ranks])


def mixed_loss(logits, truth, rank_only, smoothing: float = 0.05):
    """Mean loss of a batch: cross-entropy (with ``smoothing``) on the fully labelled patches,
    the rank's summed probability on those whose ``rank_only`` is set."""
    import torch
    import torch.nn.functional as F

    full = F.cross_entropy(logits, truth, reduction="none", label_smoothing=smoothing)
    groups = torch.from_numpy(same_rank()).to(logits.device)[truth]
    log_p = F.log_softmax(logits, dim=1).masked_fill(~groups, float("-inf"))
    by_rank = -torch.logsumexp(log_p, dim=1)
    return torch.where(rank_only, by_rank, full).mean()
