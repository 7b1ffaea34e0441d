"""The win chance's upgrades calibrated (胜率): the partner's place made to come true as often as it says.

The place model's trees alone are too shy of an upgrade on its way: among the states where
they give a double down 80 %, more than 80 % end in one. This fits what
``engine.win_chance_model.Calibration`` reads, on hands neither the trees nor their stopping
saw (``CALIB_SEEDS``), with the true winner as the place model's input:

- while nobody is out and with one seat out, a map of the place model's three scores —
  and, while nobody is out, of the win model's score for the side that won (how sure a
  win is says something of how big it will be) — fitted by multinomial log loss
  (``scaling``), pulled gently towards leaving the scores as they are;
- with two out (an opponent second: the winner's partner races the last opponent for
  third), a monotone table from the scores' chance of third to how often third came
  (``monotone``): the race's errors bend one way at 75–85 % and the other above 90 %, which
  no map of the scores can follow.
"""

from __future__ import annotations

import numpy as np

MAPS = 2  # maps for none out and one out; with more out, the race's table
LEAST = 1e-3  # the race's table keeps each chance this far from certain
BINS = 40  # the race's chances grouped into this many quantiles before the monotone fit
L2 = 1e-3


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def scaling(a: np.ndarray, y: np.ndarray, classes: int = 3, lam: float = L2, steps: int = 50) -> np.ndarray:
    """The map ``W`` (a row per class: a weight per input, then a constant) with which
    softmax(W · (a, 1)) fits the classes ``y`` best (multinomial log loss, Newton's method),
    pulled by ``lam`` towards leaving the first ``classes`` inputs (the scores) as they are."""
    n, m = a.shape
    a = np.concatenate([a, np.ones((n, 1))], axis=1)
    d = m + 1
    same = np.zeros((classes, d))
    same[:, :classes] = np.eye(classes)
    w = same.copy()
    onehot = np.eye(classes)[y]
    for _ in range(steps):
        p = softmax(a @ w.T)
        grad = ((p - onehot).T @ a / n + lam * (w - same)).ravel()
        hess = np.zeros((classes * d, classes * d))
        for i in range(classes):
            for j in range(classes):
                hess[i * d:(i + 1) * d, j * d:(j + 1) * d] = (a * (p[:, i] * ((i == j) - p[:, j]))[:, None]).T @ a / n
        step = np.linalg.lstsq(hess + lam * np.eye(classes * d), grad, rcond=None)[0].reshape(classes, d)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def monotone(q: np.ndarray, y: np.ndarray, bins: int = BINS) -> tuple[np.ndarray, np.ndarray]:
    """Points (raw chance, observed rate), the rates made rising (pool adjacent violators)
    over ``bins`` quantiles of ``q``."""
    edges = np.unique(np.quantile(q, np.linspace(0, 1, bins + 1)))
    b = np.clip(np.searchsorted(edges, q, side="right") - 1, 0, len(edges) - 2)
    n = np.bincount(b, minlength=len(edges) - 1).astype(float)
    keep = n > 0
    raw = np.bincount(b, weights=q, minlength=len(n))[keep] / n[keep]
    rate = np.bincount(b, weights=y, minlength=len(n))[keep] / n[keep]
    blocks: list[list[float]] = []  # [rate, weight, count of points]
    for r, w in zip(rate, n[keep], strict=True):
        blocks.append([r, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            r2, w2, c2 = blocks.pop()
            blocks[-1] = [(blocks[-1][0] * blocks[-1][1] + r2 * w2) / (blocks[-1][1] + w2), blocks[-1][1] + w2,
                          blocks[-1][2] + c2]
    fitted = np.repeat([blk[0] for blk in blocks], [int(blk[2]) for blk in blocks])
    return raw, np.clip(fitted, LEAST, 1 - LEAST)


def calibration(z: np.ndarray, win: np.ndarray, y: np.ndarray, out: np.ndarray) -> dict:
    """The calibration as ``engine.win_chance_model`` reads it, from each state's place
    scores ``z`` (with the true winner as input), the win model's score ``win`` for the
    side that won, the partner's place ``y`` (an index of ``PLACES``) and seats ``out``."""
    maps = []
    for n in range(MAPS):
        rows = np.minimum(out, MAPS) == n
        inputs = np.concatenate([z[rows], win[rows, None] if n == 0 else np.zeros((int(rows.sum()), 1))], axis=1)
        w = scaling(inputs, y[rows].astype(int))
        maps.append(w)
        print(f"  calibration, {n} out: {int(rows.sum())} states, map {np.round(w, 3).tolist()}", flush=True)
    race = out >= MAPS
    third = softmax(z[race][:, 1:])[:, 0]  # the scores' chance of third, given third or last
    raw, true = monotone(third, (y[race] == 1).astype(float))
    print(f"  calibration, {MAPS} or more out: {int(race.sum())} states, {len(raw)} points", flush=True)
    return {"maps": [[[float(f"{v:.6g}") for v in row] for row in w] for w in maps],
            "race": {"raw": [round(float(v), 5) for v in raw], "true": [round(float(v), 5) for v in true]}}
