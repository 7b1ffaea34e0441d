"""Bot-played hands as the win-chance model sees them: every public state, with how the hand ended.

``states(seeds)`` plays one bot match per seed (``engine.bots.self_play``, the profile by the
seed: jiangsu, linyi, linquan in turn) and replays its record; after each play or pass of a
hand in play — and once before the hand's first play — it takes the public state seen from
the seat to act (``engine.win_chance.features``), and, when the hand ends, labels each
state with its outcome. The fit (``win_chance_fit.py``) and the measure (``win_chance.py``)
read disjoint seed ranges: ``TRAIN_SEEDS`` (and ``VALID_SEEDS``, where the fit stops, and
``CALIB_SEEDS``, where the upgrades are calibrated) and ``TEST_SEEDS``.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

if not __package__:  # run as a file, this folder would shadow the ``engine`` package
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from engine.bots import self_play  # noqa: E402
from engine.events import Pass, PlayCards  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.phases import PLAY  # noqa: E402
from engine.seats import side_of  # noqa: E402
from engine.win_chance import FEATURES, PLACES, features, seen, win_chance  # noqa: E402
from rulebook import profiles  # noqa: E402

PROFILES = ("jiangsu", "linyi", "linquan")
#: the fit's matches, and the measure's: never the same seeds (a match is about 12 hands)
TRAIN_SEEDS = range(100_000, 101_000)
VALID_SEEDS = range(500_000, 501_000)  # the fit's early stopping
#: the upgrades' calibration, fitted after the trees (win_chance_calibration.py): two ranges
CALIB_SEEDS = (range(700_000, 701_000), range(300_000, 301_000))
TEST_SEEDS = range(900_000, 901_000)


@dataclass
class States:
    """Public states of bot hands, one row each: ``x`` the features from the seat to act,
    ``win`` whether that seat's side finished first, ``place`` the winner's partner's place
    as an index of ``PLACES``, ``ew`` whether the seat to act is East-West's, ``decided``
    whether the hand's first place was known, ``hand`` the hand's number in this set,
    ``left`` East-West's and North-South's cards left; when asked for, the committed
    model's estimate: ``chance`` East-West's chance to win, then its chance to win with the
    partner 2nd, 3rd, 4th, then North-South's three (else empty), ``took`` the seconds
    ``win_chance`` took and ``cpu`` the seconds of this thread's processor time in them (a
    wait while other jobs had the core is in ``took``, not in ``cpu``), each timed with
    Python's garbage collector held off: a collection of the half million states kept here
    (up to half a second) would be charged to whichever estimate it fell in."""

    x: np.ndarray
    win: np.ndarray
    place: np.ndarray
    ew: np.ndarray
    decided: np.ndarray
    hand: np.ndarray
    left: np.ndarray
    chance: np.ndarray
    took: np.ndarray
    hands: int
    cpu: np.ndarray | None = None

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **{k: v for k, v in self.__dict__.items() if v is not None})

    @classmethod
    def joined(cls, parts: list[States]) -> States:
        """The states of ``parts`` as one set, their hands numbered on."""
        first = 0
        hand = []
        for part in parts:
            hand.append(part.hand + first)
            first += part.hands
        names = ("x", "win", "place", "ew", "decided", "left", "chance", "took")
        fields = {k: np.concatenate([getattr(part, k) for part in parts]) for k in names}
        return cls(**fields, hand=np.concatenate(hand), hands=first)

    @classmethod
    def load(cls, path: Path) -> States:
        with np.load(path) as f:
            return cls(**{k: (f[k] if f[k].ndim else int(f[k])) for k in f.files})


def states(seeds, with_chance: bool = False, hands_wanted: int | None = None) -> States:
    """Every public state of the bot matches of ``seeds`` (stopping once ``hands_wanted``
    hands are done); with ``with_chance``, the committed model's East-West chance too."""
    rows, labels, estimates = [], [], []
    cache = {name: profiles.load(name) for name in PROFILES}
    hands = 0
    for seed in seeds:
        profile = cache[PROFILES[seed % len(PROFILES)]]
        events = self_play(profile, random.Random(seed))
        match = Match(profile, events[0])
        pending: list[tuple] = []
        for event in events[1:]:
            match.push(event)
            hand = match.hand
            if hand is None:
                continue
            if hand.outcome is not None:
                if pending:
                    o = hand.outcome
                    for x, seat, decided, left, chance, took, cpu in pending:
                        rows.append(x)
                        labels.append((side_of(seat) == o.winner_side, PLACES.index(o.partner_place),
                                       side_of(seat) == "EW", decided, hands, *left))
                        estimates.append((*chance, took, cpu))
                    hands += 1
                    pending = []
                continue
            if hand.phase != PLAY or hand.turn is None:
                continue
            if not isinstance(event, PlayCards | Pass) and hand.first_play_made:
                continue  # reports and the like change nothing public the model reads
            seat = hand.turn
            ew = sum(hand.counts[s] for s in "EW" if s not in hand.finished)
            ns = sum(hand.counts[s] for s in "NS" if s not in hand.finished)
            chance, took, cpu = (), 0.0, 0.0
            if with_chance:
                gc.disable()  # a collection of the states kept here is this loop's cost, not the estimate's
                start, cpu_start = time.perf_counter(), time.thread_time()
                c = win_chance(hand)
                took, cpu = time.perf_counter() - start, time.thread_time() - cpu_start
                gc.enable()
                chance = (c.win["EW"], *(c.places["EW"][p] for p in PLACES), *(c.places["NS"][p] for p in PLACES))
            pending.append((features(seen(hand), seat), seat, bool(hand.finished), (ew, ns), chance, took, cpu))
        if hands_wanted is not None and hands >= hands_wanted:
            break
    lab = np.array(labels, dtype=np.float64).reshape(-1, 7)
    est = np.array(estimates, dtype=np.float64).reshape(len(lab), -1)
    return States(x=np.array(rows, dtype=np.float32).reshape(-1, len(FEATURES)), win=lab[:, 0].astype(bool),
                  place=lab[:, 1].astype(np.int8), ew=lab[:, 2].astype(bool), decided=lab[:, 3].astype(bool),
                  hand=lab[:, 4].astype(np.int32), left=lab[:, 5:7].astype(np.int16), chance=est[:, :-2],
                  took=est[:, -2], hands=hands, cpu=est[:, -1])
