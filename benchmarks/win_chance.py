"""Win chance (胜率): how well the committed model's estimates come true, and how fast they are.

Bot matches on seeds that neither the fit nor its early stopping saw (``TEST_SEEDS``),
each hand's public states — before its first play and after every play or pass — estimated
by ``engine.win_chance.win_chance`` as the table page would, and checked against how the hand
ended. While the hand's first place is unknown: the Brier score and log loss of East-West's
chance, and a reliability table by decile of the chance (the mean estimate beside the
share of those states East-West won), against two naive baselines — "the side with fewer
cards left wins" as 1 / 0.5 / 0, and as the logistic of the card gap fitted on the
training hands (the model's ``card_gap``). Over every state until the hand ends: the six
outcomes (which side wins × the partner's place: +3 双下, +2, +1), as a multi-class Brier
score against the card-gap baseline times the training hands' place shares, and the
reliability of the chance that the hand gives +3, +2 and +1 (either side), each decile with
a 95 % interval of its gap over hands (a hand's states share its outcome, so a decile of a
few hundred hands is uncertain by several points). Then the time per estimate on this core,
by the wall clock and in processor time (the difference: waits while other jobs had it).

Run: ``.venv/bin/python benchmarks/win_chance.py [--hands 2000]`` (about 3 minutes a
2,000 hands on one core).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

if not __package__:  # run as a file, this folder would shadow the ``engine`` package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.machine import describe  # noqa: E402
from benchmarks.win_chance_data import TEST_SEEDS, States, states  # noqa: E402
from engine.win_chance_model import model  # noqa: E402

CALIBRATION_LIMIT = 0.05  # the most a decile's mean estimate may stray from what happened


def brier(p: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((p - y) ** 2))


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def reliability(p: np.ndarray, y: np.ndarray, title: str, hand: np.ndarray | None = None) -> float:
    """Print the table by decile of ``p``; return the largest gap between a decile's mean
    estimate and its observed rate (deciles with states only). With ``hand``, each decile's
    hands too and a 95 % interval of its gap, resampling its hands."""
    print(f"\n{title}")
    more = "     hands   95 % interval" if hand is not None else ""
    print(f"  decile      states   mean estimate   observed    gap{more}")
    worst = 0.0
    rng = np.random.default_rng(0)
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        keep = (p >= lo) & ((p < hi) if k < 9 else (p <= hi))
        n = int(keep.sum())
        if not n:
            print(f"  {lo:.1f}–{hi:.1f}  {0:9,}")
            continue
        mean, seen = float(p[keep].mean()), float(y[keep].mean())
        worst = max(worst, abs(mean - seen))
        line = f"  {lo:.1f}–{hi:.1f}  {n:9,}        {mean:6.3f}      {seen:6.3f}   {seen - mean:+.3f}"
        if hand is not None:
            a, b = by_hand_interval(y[keep] - p[keep], hand[keep], rng)
            line += f"   {len(np.unique(hand[keep])):7,}   {a:+.3f} to {b:+.3f}"
        print(line)
    return worst


def by_hand_interval(d: np.ndarray, hand: np.ndarray, rng: np.random.Generator, draws: int = 400) -> tuple:
    """A 95 % interval of the mean of ``d`` resampling whole hands (a hand's states are not
    independent of each other)."""
    hands = np.unique(hand)
    sums = np.bincount(hand, weights=d, minlength=hands.max() + 1)
    counts = np.bincount(hand, minlength=hands.max() + 1)
    means = []
    for _ in range(draws):
        pick = rng.choice(hands, size=len(hands))
        means.append(sums[pick].sum() / counts[pick].sum())
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="held-out hands at least (default 2000)")
    args = parser.parse_args()
    print(f"machine: {describe()}")
    print(f"command: python benchmarks/win_chance.py --hands {args.hands}")
    start = time.perf_counter()
    s: States = states(TEST_SEEDS, with_chance=True, hands_wanted=args.hands)
    print(f"{s.hands:,} held-out bot hands (self-play seeds from {TEST_SEEDS.start}), {len(s.win):,} public states "
          f"({int((~s.decided).sum()):,} before the first place is known), {time.perf_counter() - start:.0f} s")

    open_ = ~s.decided
    ew_won = (s.win == s.ew).astype(float)  # East-West finished first
    p = s.chance[:, 0]
    y = ew_won[open_]
    pm = p[open_]
    gap = (s.left[:, 1] - s.left[:, 0]).astype(float)[open_]
    fitted = model()
    logistic = 1 / (1 + np.exp(-fitted.card_gap * gap))
    hard = np.where(gap > 0, 1.0, np.where(gap < 0, 0.0, 0.5))
    print("\nEast-West finishes first, while the hand's first place is unknown:")
    print(f"  {'estimate':44} {'Brier':>7} {'log loss':>9}")
    for name, q in (("win chance (engine.win_chance)", pm),
                    (f"baseline: σ({fitted.card_gap:.3f} · card gap), fitted on training", logistic),
                    ("baseline: fewer cards left wins (1 / 0.5 / 0)", hard), ("a coin (0.5)", np.full_like(pm, 0.5))):
        print(f"  {name:44} {brier(q, y):7.4f} {log_loss(q, y):9.4f}")
    rng = np.random.default_rng(0)
    lo, hi = by_hand_interval((logistic - y) ** 2 - (pm - y) ** 2, s.hand[open_], rng)
    print(f"  the model's Brier below the logistic baseline's by {brier(logistic, y) - brier(pm, y):.4f} "
          f"(95 % interval over hands {lo:.4f} to {hi:.4f})")
    worst = reliability(pm, y, "reliability of the win chance (East-West's), by decile:")
    worst_base = reliability(logistic, y, "reliability of the logistic card-gap baseline, by decile:")
    print(f"\nlargest decile gap: model {worst * 100:.1f} points, baseline {worst_base * 100:.1f} "
          f"(limit {CALIBRATION_LIMIT * 100:.0f}): {'within' if worst <= CALIBRATION_LIMIT else 'OUTSIDE'}")

    # the six outcomes: EW wins with partner 2nd/3rd/4th, NS likewise (+3, +2, +1 levels)
    outcome = np.zeros((len(s.win), 6))
    outcome[np.arange(len(s.win)), np.where(ew_won == 1, 0, 3) + s.place] = 1
    place_share = np.array(fitted.place_shares)
    gap_all = (s.left[:, 1] - s.left[:, 0]).astype(float)
    p_ew = np.where(s.decided, ew_won, 1 / (1 + np.exp(-fitted.card_gap * gap_all)))
    base6 = np.concatenate([p_ew[:, None] * place_share, (1 - p_ew)[:, None] * place_share], axis=1)
    model6 = s.chance[:, 1:7]
    print("\nthe hand's outcome (side × partner's place: +3 双下, +2, +1), every state until the hand ends:")
    for name, q in (("win chance's places", model6), ("baseline (card gap × training place shares)", base6)):
        print(f"  {name:44}  multi-class Brier {np.mean(np.sum((q - outcome) ** 2, axis=1)):.4f}")
    worst_levels = []
    for place, gain in enumerate((3, 2, 1)):
        cols = [place, 3 + place]
        title = f"reliability of the chance that the hand gives +{gain} (either side{', 双下' if gain == 3 else ''}):"
        worst_levels.append(reliability(model6[:, cols].sum(axis=1), outcome[:, cols].sum(axis=1), title, s.hand))
    worst = max(worst_levels)
    each = " / ".join(f"+{g} {w * 100:.1f}" for g, w in zip((3, 2, 1), worst_levels, strict=True))
    print(f"\nlargest decile gap of the upgrades: {each} points (limit {CALIBRATION_LIMIT * 100:.0f}): "
          f"{'within' if worst <= CALIBRATION_LIMIT else 'OUTSIDE'}")

    for clock, seconds in (("wall clock", s.took), ("processor time", s.cpu)):
        took = sorted(seconds)
        print(f"\nspeed ({clock}): {len(took):,} estimates on one core, median {statistics.median(took) * 1e3:.2f} "
              f"ms, p99 {took[int(len(took) * 0.99)] * 1e3:.2f} ms, slowest {took[-1] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
