"""The win-chance model's numbers (胜率): boosted trees and a calibration, read once from data.

The numbers are fitted by ``benchmarks/win_chance_fit.py`` and kept as data beside this
module, in ``win_chance_model.json`` (package data), not as generated Python: thousands of
thresholds and leaf values are no code to read or review. They are read the first time an
estimate asks (``model()``), once per process, into the typed values below;
``engine.win_chance`` walks them.

- ``Trees``: complete trees of one depth, node ``i``'s children at ``2i+1`` (``x <=
  threshold``) and ``2i+2``, the leaves after the nodes; with more than one class the
  trees take the classes in turn (softmax boosting).
- ``Calibration``: the place model's three scores mapped again (``W · (scores, 1)``), one
  map for each count of seats already out, fitted on hands kept apart from the trees'
  (``CALIB_SEEDS``), so that a chance of a double down of 80 % comes true four times in five.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from importlib import resources

#: the data file, in this package
DATA = "win_chance_model.json"


@dataclass(frozen=True)
class Trees:
    """Boosted trees: ``base`` scores (one per class) plus each tree's leaf."""

    depth: int
    base: tuple[float, ...]
    trees: tuple[tuple[tuple[int, ...], tuple[float, ...], tuple[float, ...]], ...]

    def scores(self, x: list[float]) -> list[float]:
        """The raw scores (one per class) for the features ``x``."""
        depth = self.depth
        inner = (1 << depth) - 1
        scores = list(self.base)
        k = len(scores)
        for t, (feats, cuts, leaves) in enumerate(self.trees):
            i = 0
            for _ in range(depth):
                i = 2 * i + 1 if x[feats[i]] <= cuts[i] else 2 * i + 2
            scores[t % k] += leaves[i - inner]
        return scores

    @classmethod
    def from_json(cls, data: dict) -> Trees:
        """A threshold of ``null`` is a node that does not split (everything goes left)."""
        return cls(int(data["depth"]), tuple(float(b) for b in data["base"]), tuple(
            (tuple(int(f) for f in feats), tuple(math.inf if c is None else float(c) for c in cuts),
             tuple(float(v) for v in leaves)) for feats, cuts, leaves in data["trees"]))


@dataclass(frozen=True)
class Calibration:
    """The place scores mapped again: ``maps[n]`` (one row per class: a weight per score,
    then a constant) where ``n`` seats are out, the last map for that many or more."""

    maps: tuple[tuple[tuple[float, ...], ...], ...]

    def scores(self, z: list[float], out: int) -> list[float]:
        rows = self.maps[min(out, len(self.maps) - 1)]
        return [sum(w * v for w, v in zip(row, z, strict=False)) + row[-1] for row in rows]

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        return cls(tuple(tuple(tuple(float(w) for w in row) for row in rows) for rows in data["maps"]))


@dataclass(frozen=True)
class Model:
    """The fitted model: the features it reads (``engine.win_chance.FEATURES``), the trees
    of "the side to act finishes first" (``win``) and of the winner's partner's place
    (``place``), the place's calibration; and the measure's naive baseline fitted on the
    same hands (``card_gap``: the slope of the logistic of the card gap; ``place_shares``:
    how often the winner's partner came 2nd, 3rd, 4th)."""

    about: str
    features: tuple[str, ...]
    win: Trees
    place: Trees
    calibration: Calibration
    card_gap: float
    place_shares: tuple[float, ...]

    @classmethod
    def from_json(cls, data: dict) -> Model:
        return cls(str(data["about"]), tuple(data["features"]), Trees.from_json(data["win"]),
                   Trees.from_json(data["place"]), Calibration.from_json(data["calibration"]),
                   float(data["baseline"]["card_gap"]), tuple(float(v) for v in data["baseline"]["place_shares"]))


@functools.cache
def model() -> Model:
    """The committed model, read on first use and kept."""
    text = resources.files(__package__).joinpath(DATA).read_text(encoding="utf-8")
    return Model.from_json(json.loads(text))
