"""Standings (名次): totals per pair, ordered by the profile's tie-break chain.

Each rule book ranks differently (RULES.md, "A match"): linyi by 总积分 → 胜轮次 →
升级数 → 级差分 → 抽签; linquan by 积分 → 小分 → 抽签; jiangsu's groups by the 26:0
level points. The chain is data (``Profile.tiebreak.chain``); this module only sums and
sorts, so a new event's order is a profile edit, not code.

``lot`` (抽签) is drawn once per tournament from its stored seed, so the same results
always give the same order — a standings page never reshuffles on reload.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Score:
    """What one pair scored in one match (or bye)."""

    points: int
    small_points: int
    level_points: int
    upgrades: int
    won: bool


@dataclass
class Standing:
    """One pair's line in the standings."""

    pair: str
    lot: int
    group: int | None = None
    #: knockout: the round the pair went out in (rounds drawn + 1 while still in)
    reached: int | None = None
    played: int = 0
    points: int = 0
    wins: int = 0
    upgrades: int = 0
    level_points: int = 0
    small_points: int = 0
    rank: int = 0
    #: the values the ranking compared, in chain order (for equal ranks)
    key: tuple = field(default=(), repr=False)

    def add(self, score: Score) -> None:
        self.played += 1
        self.points += score.points
        self.wins += int(score.won)
        self.upgrades += score.upgrades
        self.level_points += score.level_points
        self.small_points += score.small_points


def lots(pairs: Sequence[str], seed: int) -> dict[str, int]:
    """抽签: a number 1..N for each pair, drawn from the tournament's seed; lower ranks first."""
    order = sorted(pairs)
    random.Random(f"{seed}:lot").shuffle(order)
    return {p: i + 1 for i, p in enumerate(order)}


def rank(standings: Iterable[Standing], chain: Sequence[str]) -> list[Standing]:
    """Sort by (group, round reached, then ``chain``) and number the places within each
    group from 1; lines equal on every compared value share a rank. Every total ranks
    biggest first; ``lot`` (抽签) smallest first."""

    def key(s: Standing) -> tuple:
        values = tuple(s.lot if name == "lot" else -getattr(s, name) for name in chain)
        return (-(s.reached or 0), *values)

    out = sorted(standings, key=lambda s: (s.group or 0, key(s)))
    previous: Standing | None = None
    for i, s in enumerate(out):
        s.key = key(s)
        if previous is None or previous.group != s.group:
            start = i
            s.rank = 1
        elif previous.key == s.key:
            s.rank = previous.rank
        else:
            s.rank = i - start + 1
        previous = s
    return out
