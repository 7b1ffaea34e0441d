"""Fit the win-chance model (胜率) on bot-played hands and write ``engine/win_chance_model.json``.

Gradient-boosted trees, written here with numpy (no new dependency): the public state as
``engine.win_chance.features`` reads it, each feature cut into at most ``BINS`` ranges at
its quantiles, complete trees of ``--depth`` grown level by level on the logistic (or, for
the partner's place, the softmax) loss's gradients, shrunk by ``--rate``; the number of
rounds is chosen on a validation set of other seeds (early stopping). Then the partner's
place is calibrated on other seeds again (``CALIB_SEEDS``; ``win_chance_calibration.py``).
The measure (``win_chance.py``) uses a fourth range of seeds that none of them saw, and
nothing is chosen on it. The naive baseline the measure compares against — the logistic of
the card-count gap between the sides — is fitted here too, on the same training hands,
and written beside the model.

Run: ``.venv/bin/python benchmarks/win_chance_fit.py`` (the hands are played first, about
20 minutes on one core, and cached in var/win_chance/; the fit takes about 10 more);
``--calibration-only`` keeps the committed trees and fits their calibration again.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

if not __package__:  # run as a file, this folder would shadow the ``engine`` package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.win_chance_calibration import calibration  # noqa: E402
from benchmarks.win_chance_data import CALIB_SEEDS, TRAIN_SEEDS, VALID_SEEDS, States, states  # noqa: E402
from engine.win_chance import FEATURES, PLACES  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "var" / "win_chance"
OUT = ROOT / "engine" / "win_chance_model.json"
BINS = 48
US_WINS = FEATURES.index("us_wins")
OUT_COUNT = FEATURES.index("out_count")


# --- boosted trees ------------------------------------------------------------------------

def cut_points(x: np.ndarray) -> list[np.ndarray]:
    """Each feature's candidate thresholds: its values where it has few, else its quantiles."""
    out = []
    for f in range(x.shape[1]):
        values = np.unique(x[:, f])
        if len(values) > BINS:
            values = np.unique(np.quantile(x[:, f], np.linspace(0, 1, BINS + 1)[1:-1], method="nearest"))
        out.append(values[:-1] if len(values) > 1 else values)
    return out


def binned(x: np.ndarray, cuts: list[np.ndarray]) -> np.ndarray:
    """Bin ``b`` of a feature holds the values in (cuts[b-1], cuts[b]]: x <= cuts[b] is bins 0..b."""
    return np.stack([np.searchsorted(c, x[:, f], side="left") for f, c in enumerate(cuts)], axis=1).astype(np.uint8)


def grow(bins: np.ndarray, cuts: list[np.ndarray], g: np.ndarray, h: np.ndarray, depth: int, lam: float,
         min_hess: float) -> tuple[list[int], list[float], np.ndarray, np.ndarray]:
    """One complete tree of ``depth`` on gradients ``g`` and hessians ``h``: (features,
    thresholds, leaf values before shrinking, each row's leaf)."""
    n, nf = bins.shape
    width = BINS + 1
    node = np.zeros(n, dtype=np.int64)
    feats: list[int] = []
    thresholds: list[float] = []
    offsets = np.arange(nf, dtype=np.int64) * width
    for level in range(depth):
        nodes = 1 << level
        index = (node[:, None] * (nf * width) + offsets[None, :] + bins).ravel()
        size = nodes * nf * width
        hg = np.bincount(index, weights=np.repeat(g, nf), minlength=size).reshape(nodes, nf, width)
        hh = np.bincount(index, weights=np.repeat(h, nf), minlength=size).reshape(nodes, nf, width)
        gl, hl = np.cumsum(hg, axis=2), np.cumsum(hh, axis=2)
        gt, ht = gl[:, :, -1:], hl[:, :, -1:]
        gr, hr = gt - gl, ht - hl
        gain = gl ** 2 / (hl + lam) + gr ** 2 / (hr + lam) - gt ** 2 / (ht + lam)
        valid = (hl >= min_hess) & (hr >= min_hess)
        for f, c in enumerate(cuts):
            valid[:, f, len(c):] = False  # no threshold past the feature's last cut
        gain = np.where(valid, gain, -np.inf)
        go_right = np.zeros(n, dtype=bool)
        for k in range(nodes):
            best = int(np.argmax(gain[k]))
            f, b = divmod(best, width)
            if not np.isfinite(gain[k, f, b]) or gain[k, f, b] <= 1e-9:
                feats.append(0)
                thresholds.append(float("inf"))  # no split worth making: everything goes left
                continue
            feats.append(f)
            thresholds.append(float(cuts[f][b]))
            rows = node == k
            go_right[rows] = bins[rows, f] > b
        node = 2 * node + go_right  # index within the next level
    leaves = 1 << depth
    sg = np.bincount(node, weights=g, minlength=leaves)
    sh = np.bincount(node, weights=h, minlength=leaves)
    return feats, thresholds, -sg / (sh + lam), node


def apply(x: np.ndarray, tree: tuple, depth: int) -> np.ndarray:
    """The leaf value of each row of ``x`` (raw features), as the engine walks the tree."""
    feats, thresholds, leaves = tree
    i = np.zeros(len(x), dtype=np.int64)
    for _ in range(depth):
        f = np.asarray(feats)[i]
        t = np.asarray(thresholds)[i]
        i = np.where(x[np.arange(len(x)), f] <= t, 2 * i + 1, 2 * i + 2)
    return np.asarray(leaves)[i - ((1 << depth) - 1)]


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def boost(x: np.ndarray, y: np.ndarray, xv: np.ndarray, yv: np.ndarray, classes: int, depth: int, rate: float,
          rounds: int, lam: float, min_hess: float, sample: float, seed: int = 0, patience: int = 25,
          label: str = "") -> dict:
    """Boosted trees for ``classes`` == 1 (logistic, ``y`` in {0, 1}) or more (softmax, ``y``
    the class), each tree grown on a ``sample`` of the rows, stopped where the validation log
    loss was lowest."""
    rng = np.random.default_rng(seed)
    cuts = cut_points(x)
    bins = binned(x, cuts)
    k = max(classes, 1)
    onehot = np.eye(k)[y.astype(int)] if classes > 1 else y.astype(float)[:, None]
    prior = onehot.mean(axis=0)
    base = np.log(prior) if classes > 1 else np.log(prior / (1 - prior))
    z = np.tile(base, (len(x), 1))
    zv = np.tile(base, (len(xv), 1))
    trees: list[tuple] = []
    best, best_round, history = np.inf, 0, []
    start = time.perf_counter()
    for r in range(rounds):
        rows = np.flatnonzero(rng.random(len(x)) < sample)
        p = softmax(z[rows]) if classes > 1 else 1 / (1 + np.exp(-z[rows]))
        for c in range(k):
            g = p[:, c] - onehot[rows, c]
            h = np.maximum(p[:, c] * (1 - p[:, c]), 1e-6)
            feats, thresholds, values, _ = grow(bins[rows], cuts, g, h, depth, lam, min_hess)
            tree = (feats, thresholds, (rate * values).tolist())
            z[:, c] += apply(x, tree, depth)
            trees.append(tree)
            zv[:, c] += apply(xv, tree, depth)
        loss = log_loss(zv, yv, classes)
        history.append(loss)
        if loss < best - 1e-6:
            best, best_round = loss, r + 1
        if r % 10 == 9 or r == rounds - 1:
            print(f"  {label} round {r + 1}: validation log loss {loss:.5f} (best {best:.5f} at {best_round}) "
                  f"{time.perf_counter() - start:.0f} s", flush=True)
        if r + 1 - best_round >= patience:
            break
    return {"depth": depth, "base": [float(b) for b in base], "trees": trees[:best_round * k],
            "rounds": best_round, "valid_log_loss": best}


def log_loss(z: np.ndarray, y: np.ndarray, classes: int) -> float:
    if classes > 1:
        p = softmax(z)[np.arange(len(y)), y.astype(int)]
    else:
        p = np.where(y, 1 / (1 + np.exp(-z[:, 0])), 1 / (1 + np.exp(z[:, 0])))
    return float(-np.mean(np.log(np.clip(p, 1e-12, 1))))


def card_gap_logistic(s: States) -> float:
    """The baseline's slope ``a``: P(East-West wins) = σ(a · (North-South's cards left −
    East-West's)), by Newton's method on the undecided training states (no intercept:
    neither side is favoured by its name)."""
    keep = ~s.decided
    d = (s.left[keep, 1] - s.left[keep, 0]).astype(float)
    y = (s.win[keep] == s.ew[keep]).astype(float)  # East-West won
    a = 0.0
    for _ in range(30):
        p = 1 / (1 + np.exp(-a * d))
        a -= np.sum((p - y) * d) / np.sum(p * (1 - p) * d * d)
    return a


# --- the upgrades' calibration -------------------------------------------------------------

def scores(x: np.ndarray, part: dict) -> np.ndarray:
    """The trees' raw scores, one column per class, as the engine sums them."""
    k = len(part["base"])
    z = np.tile(np.asarray(part["base"], dtype=float), (len(x), 1))
    for t, tree in enumerate(part["trees"]):
        z[:, t % k] += apply(x, tree, part["depth"])
    return z


def calibration_of(win: dict, place: dict, s: States) -> dict:
    """The place's calibration fitted on ``s`` (``win_chance_calibration``)."""
    x, y = place_rows(s)
    score = scores(s.x, win)[:, 0]  # the side to act's; the side that won's below
    return calibration(scores(x, place), np.where(s.win, score, -score), y, x[:, OUT_COUNT].astype(int))


# --- writing the model ---------------------------------------------------------------------

def _threshold(v: float) -> float | None:
    if v == float("inf"):
        return None  # a node that does not split
    return float(np.float32(v)) if float(v).is_integer() else float(f"{v:.6g}")


def _trees_json(part: dict) -> dict:
    return {"depth": part["depth"], "rounds": part["rounds"], "base": [float(f"{b:.6g}") for b in part["base"]],
            "trees": [[list(map(int, feats)), [_threshold(t) for t in thresholds], [float(f"{v:.4g}") for v in leaves]]
                      for feats, thresholds, leaves in part["trees"]]}


def model_json(win: dict, place: dict, calibrated: dict, gap: float, shares: np.ndarray, about: str) -> dict:
    """The model as ``engine.win_chance_model`` reads it."""
    return {"about": about, "features": list(FEATURES), "win": _trees_json(win), "place": _trees_json(place),
            "calibration": calibrated,
            "baseline": {"card_gap": float(f"{gap:.6g}"), "place_shares": [round(float(v), 4) for v in shares]}}


def write_model(data: dict) -> None:
    """Write ``data`` as JSON with a tree a line (a diff of two fits stays readable)."""
    def dump(v) -> str:
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))

    lines = ["{"]
    for key, value in data.items():
        if key in ("win", "place"):
            head = ", ".join(f"{dump(k)}: {dump(v)}" for k, v in value.items() if k != "trees")
            trees = ",\n".join("  " + dump(t) for t in value["trees"])
            lines.append(f"{dump(key)}: {{{head}, \"trees\": [\n{trees}\n]}},")
        else:
            lines.append(f"{dump(key)}: {dump(value)},")
    lines[-1] = lines[-1].rstrip(",")
    OUT.write_text("\n".join(lines) + "\n}\n", encoding="utf-8")


def read_model() -> tuple[dict, dict]:
    """The committed trees (win, place), as ``boost`` makes them."""
    data = json.loads(OUT.read_text(encoding="utf-8"))
    parts = []
    for name in ("win", "place"):
        part = dict(data[name])
        part["trees"] = [(feats, [float("inf") if t is None else t for t in thresholds], leaves)
                         for feats, thresholds, leaves in part["trees"]]
        parts.append(part)
    return parts[0], parts[1]


def cached(name: str, seeds, hands: int) -> States:
    path = CACHE / f"{name}-{seeds.start}-{hands}.npz"
    if path.exists():
        return States.load(path)
    start = time.perf_counter()
    s = states(seeds, hands_wanted=hands)
    print(f"{name}: {s.hands} hands, {len(s.x)} states, {time.perf_counter() - start:.0f} s", flush=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    s.save(path)
    return s


def _hand_ends(s: States) -> np.ndarray:
    """One row per hand (its first state), to count hands' outcomes once each."""
    return np.flatnonzero(np.r_[True, s.hand[1:] != s.hand[:-1]])


def place_rows(s: States) -> tuple[np.ndarray, np.ndarray]:
    x = s.x.copy()
    x[:, US_WINS] = s.win
    return x, s.place


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8000, help="training hands (default 8000)")
    parser.add_argument("--valid", type=int, default=1500, help="validation hands, for the rounds (default 1500)")
    parser.add_argument("--calib", type=int, nargs=2, default=(10000, 4000), metavar=("N", "M"),
                        help="calibration hands from each range of CALIB_SEEDS (default 10000 4000: all they have)")
    parser.add_argument("--calibration-only", action="store_true",
                        help="keep the committed trees; fit their calibration again")
    parser.add_argument("--depth", type=int, default=4, help="the win model's trees' depth")
    parser.add_argument("--rounds", type=int, default=300, help="the win model's most rounds")
    parser.add_argument("--place-depth", type=int, default=4, help="the place model's trees' depth")
    parser.add_argument("--place-rounds", type=int, default=400, help="the place model's most rounds")
    parser.add_argument("--rate", type=float, default=0.2, help="shrinkage")
    parser.add_argument("--lam", type=float, default=10.0, help="L2 penalty on leaf values")
    parser.add_argument("--min-hess", type=float, default=50.0, help="least hessian in a child")
    parser.add_argument("--sample", type=float, default=0.25, help="share of the rows each tree is grown on")
    parser.add_argument("--dry", action="store_true", help="fit and report, but write nothing")
    args = parser.parse_args()
    train = cached("train", TRAIN_SEEDS, args.hands)
    valid = cached("valid", VALID_SEEDS, args.valid)
    calib = States.joined([cached("calib", seeds, n) for seeds, n in zip(CALIB_SEEDS, args.calib, strict=True)])
    gap = card_gap_logistic(train)
    print(f"baseline: P(EW) = σ({gap:.4f} · (NS cards left − EW cards left))")
    if args.calibration_only:
        win, place = read_model()
        about = json.loads(OUT.read_text(encoding="utf-8"))["about"].split(" The partner's place calibrated")[0]
    else:
        open_t, open_v = ~train.decided, ~valid.decided
        win = boost(train.x[open_t], train.win[open_t], valid.x[open_v], valid.win[open_v], 1, args.depth,
                    args.rate, args.rounds, args.lam, args.min_hess, args.sample, label="win")
        xp, yp = place_rows(train)
        xpv, ypv = place_rows(valid)
        place = boost(xp, yp, xpv, ypv, len(PLACES), args.place_depth, args.rate, args.place_rounds, args.lam,
                      args.min_hess, args.sample, label="place")
        print(f"win: {win['rounds']} rounds, validation log loss {win['valid_log_loss']:.5f}; "
              f"place: {place['rounds']} rounds, {place['valid_log_loss']:.5f}")
        about = (f"Fitted on {train.hands} bot hands (self-play seeds from {TRAIN_SEEDS.start}), rounds chosen on "
                 f"{valid.hands} others (seeds from {VALID_SEEDS.start}); depth {args.depth} (places: "
                 f"{args.place_depth}), rate {args.rate}, rows sampled {args.sample}, L2 {args.lam}, least hessian "
                 f"{args.min_hess}.")
    calibrated = calibration_of(win, place, calib)
    about += (f" The partner's place calibrated on {calib.hands} hands more (seeds from "
              f"{' and '.join(str(seeds.start) for seeds in CALIB_SEEDS)}).")
    if not args.dry:
        shares = np.bincount(train.place[_hand_ends(train)], minlength=len(PLACES)) / train.hands
        write_model(model_json(win, place, calibrated, gap, shares, about))
        print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
