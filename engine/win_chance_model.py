"""The win-chance model's numbers (胜率): boosted trees and a calibration, read once from data.

The numbers are fitted by ``benchmarks/win_chance_fit.py`` and kept as data beside this
module, in ``win_chance_model.json`` (package data), not as generated Python: thousands of
thresholds and leaf values are no code to read or review. They are read the first time an
estimate asks (``model()``), once per process, into the typed values below;
``engine.win_chance`` walks them.

- ``Trees``: complete trees of one depth, node ``i``'s children at ``2i+1`` (``x <=
  threshold``) and ``2i+2``, the leaves after the nodes; with more than one class the
  trees take the classes in turn (softmax boosting).
- ``Calibration``: the place model's chances made to come true as often as they say (a
  double down given 80 % happens four times in five), fitted on hands kept apart from the
  trees'. While nobody is out, and with one seat out, a map of the place model's three
  scores and of the win model's score for the winning side, then softmax; with two out
  (the winner's partner racing the last opponent for third) a monotone table of the chance
  of third, which a map of scores cannot bend to the race's shape.
"""

from __future__ import annotations

import bisect
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
    """The place's calibration: ``maps[n]`` where ``n`` seats are out (a row per place: a
    weight per place score, one for the win score, then a constant), and where more are out
    than there are maps, ``race``: the chance of third (given third or last) as the scores
    put it, and as it comes true — points to go straight between, the raw chances rising."""

    maps: tuple[tuple[tuple[float, ...], ...], ...]
    race: tuple[tuple[float, ...], tuple[float, ...]] | None

    def chances(self, z: list[float], out: int, win: float) -> list[float]:
        """The chance of each place from the place scores ``z`` with ``out`` seats out,
        ``win`` the win model's score for the side whose partner's place this is."""
        if out >= len(self.maps) and self.race is not None:
            third = _between(1.0 / (1.0 + math.exp(z[2] - z[1])), *self.race)
            return [0.0, third, 1.0 - third]  # two out: an opponent was second
        rows = self.maps[min(out, len(self.maps) - 1)]
        return _softmax([row[0] * z[0] + row[1] * z[1] + row[2] * z[2] + row[3] * win + row[4] for row in rows])

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        race = data.get("race")
        return cls(tuple(tuple(tuple(float(w) for w in row) for row in rows) for rows in data["maps"]),
                   None if race is None else (tuple(map(float, race["raw"])), tuple(map(float, race["true"]))))


def _between(x: float, xs: tuple[float, ...], ys: tuple[float, ...]) -> float:
    """``ys`` at ``x``, straight between the points ``xs`` (rising), flat beyond them."""
    i = bisect.bisect_right(xs, x)
    if i == 0:
        return ys[0]
    if i == len(xs):
        return ys[-1]
    x0, x1 = xs[i - 1], xs[i]
    return ys[i - 1] + (ys[i] - ys[i - 1]) * (x - x0) / (x1 - x0)


def _softmax(z: list[float]) -> list[float]:
    top = max(z)
    e = [math.exp(v - top) for v in z]
    total = sum(e)
    return [v / total for v in e]


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
