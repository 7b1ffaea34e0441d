"""A tournament: pairs, the rounds' draws, the tables' results and the standings.

Three formats from the rule books (RULES.md, "Tournament formats"):

``swiss``
    linquan's 积分编排制: a fixed number of rounds, each drawn by points once the previous
    round is complete, no rematch where one can be avoided, an odd field's bye (轮空)
    scored per the profile's ``match.bye`` (linquan: 1 point). See ``engine.pairing``.
``roundrobin``
    linyi's 分组循环: groups drawn by lot or seeded in a snake, then every pair in a group
    meets every other once; standings are per group.
``knockout``
    jiangsu's heats (单淘汰): a seeded bracket; a match must have a winner, so a tie is
    decided by one more hand (加打一副牌) and a draw is refused.

Like a match, the tournament is derived state: the store keeps pairs, draws and every
result entered (corrections included), and rebuilds a ``Tournament`` from them. Nothing
here does I/O; every random choice comes from the seed stored with the tournament, so
the same history always gives the same next draw and the same lot.

A table's result is scored by ``engine.match.match_result`` whichever way it arrives —
from a camera table's ``Result``, from the two final levels a referee types, or as a
forfeit — so a typed result and a recorded one can never disagree on arithmetic.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from engine.cards import parse_level
from engine.coded import Coded
from engine.match import LEVELS, PASSED, Result, match_result
from engine.pairing import bracket, make_groups, round_robin, swiss_draw
from engine.profile import Profile
from engine.seats import SIDES, Side, side_or_none
from engine.standings import Score, Standing, lots, rank

FORMATS = ("swiss", "roundrobin", "knockout")
SEEDINGS = ("lot", "order")
#: how a referee may write "passed A" (过A)
PASSED_A = ("A+", "PASS", "PASSED", "过A")


class TournamentError(Coded, ValueError):
    """A request the tournament's state or rules refuse. The engine names the refusal with
    a ``code`` and the ``values`` its words need (``engine.coded``); the words, in both
    languages and saying what to do, are the rule books' (``rulebook.tournament_live.refusal``),
    as a violation's are. ``str`` gives the code and values, for a log.

    >>> str(TournamentError("no_table", round=1, table=9))
    'no_table round=1 table=9'
    """


@dataclass(frozen=True)
class Pair:
    """A pair (组合): two partners who play every round together."""

    id: str
    name: str
    players: tuple[str, ...] = ()
    #: round robin: the group (1-based) the pair was drawn or seeded into
    group: int | None = None


@dataclass(frozen=True)
class Table:
    """One line of a round's draw: a game at a table (NS v EW), or a bye (``ew`` is None)."""

    table: int | None
    ns: str
    ew: str | None
    group: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.ew is None

    @property
    def number(self) -> int:
        """A game's table number; a bye has none (``ValueError``)."""
        if self.table is None:
            raise ValueError(f"a bye ({self.ns}) has no table")
        return self.table

    @property
    def ew_pair(self) -> str:
        """A game's East-West pair; a bye has none (``ValueError``)."""
        if self.ew is None:
            raise ValueError(f"a bye ({self.ns}) has no opponent")
        return self.ew

    def to_json(self) -> dict:
        out: dict = {"table": None, "bye": self.ns} if self.is_bye else {
            "table": self.table, "ns": self.ns, "ew": self.ew}
        if self.group is not None:
            out["group"] = self.group
        return out


@dataclass(frozen=True)
class Outcome:
    """A table's result as the standings need it: per pair, not per side."""

    winner: str | None
    reason: str
    scores: dict[str, Score]
    #: final levels per pair as written on the score sheet ("A+" = passed A); empty for
    #: a forfeit or a bye
    levels: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"winner": self.winner, "reason": self.reason, "levels": self.levels,
                "scores": {p: vars(s) for p, s in self.scores.items()}}

    @classmethod
    def from_json(cls, data: dict) -> Outcome:
        return cls(data["winner"], data["reason"],
                   {p: Score(**s) for p, s in data["scores"].items()}, dict(data["levels"]))


def parse_final_level(text: str) -> int:
    """A final level as typed: ``2``…``10``/``T``…``A``, or ``A+``/``pass``/``过A`` for a side
    that passed A; returns the level index (``PASSED`` for passed A)."""
    if str(text).strip().upper() in PASSED_A:
        return PASSED
    try:
        return LEVELS.index(parse_level(text))
    except ValueError:
        raise TournamentError("not_a_level", text=str(text)) from None


def _outcome(result: Result, table: Table) -> Outcome:
    by_side: dict[Side, str] = {"NS": table.ns, "EW": table.ew_pair}
    scores = {by_side[s]: Score(points=result.points[s], small_points=result.small_points[s],
                                level_points=result.level_points[s], upgrades=result.upgrades[s],
                                won=result.winner == s) for s in SIDES}
    levels = {} if result.reason == "forfeit" else {
        by_side[s]: "A+" if result.reason == "passed_a" and result.winner == s else result.levels[s]
        for s in SIDES}
    winner = by_side[result.winner] if result.winner else None
    return Outcome(winner, result.reason, scores, levels)


def _went_through(outcome: Outcome | None) -> str:
    """The pair a knockout table sent through: every table of a round has a winner before
    the next is drawn (``Tournament.draw`` asks; ``Tournament._checked`` refuses a draw)."""
    if outcome is None or outcome.winner is None:
        raise TournamentError("knockout_draw", table=None)
    return outcome.winner


def bye_outcome(profile: Profile, pair: str) -> Outcome:
    """A bye scores the profile's ``match.bye`` award; it counts as a win (胜轮次) when it is
    worth a win's points (linyi's 17:0 bye is; linquan's 1-point bye is not)."""
    award = profile.match.bye
    return Outcome(pair, "bye", {pair: Score(award.points, award.small_points, award.level_points, 0,
                                             won=award.points >= profile.match.points.win)})


def arrange(pairs: Sequence[Pair], fmt: str, groups: int, seeding: str, seed: int) -> list[Pair]:
    """The pairs in seeding order, each with its group in a round robin.

    ``seeding``: ``"order"`` takes the list as given (best first: snake groups, bracket
    seeds); ``"lot"`` draws (groups by lot, a random bracket) from ``seed``.
    """
    if fmt not in FORMATS:
        raise TournamentError("unknown_format", format=fmt, formats=", ".join(FORMATS))
    if seeding not in SEEDINGS:
        raise TournamentError("unknown_seeding", seeding=seeding, seedings=", ".join(SEEDINGS))
    if len(pairs) < 2:
        raise TournamentError("too_few_pairs")
    if fmt != "roundrobin" and groups != 1:
        raise TournamentError("groups_not_round_robin")
    if fmt == "swiss":
        return list(pairs)
    if fmt == "knockout":
        out = list(pairs)
        if seeding == "lot":
            random.Random(f"{seed}:seeding").shuffle(out)
        return out
    if not 1 <= groups <= len(pairs) // 2:
        raise TournamentError("groups_range", pairs=len(pairs), most=len(pairs) // 2, groups=groups)
    by_id = {p.id: p for p in pairs}
    method = "lot" if seeding == "lot" else "snake"
    drawn = make_groups([p.id for p in pairs], groups, method, random.Random(f"{seed}:groups"))
    return [Pair(p, by_id[p].name, by_id[p].players, g) for g, members in enumerate(drawn, 1) for p in members]


def planned_rounds(fmt: str, pairs: Sequence[Pair], rounds: int | None) -> int:
    """How many rounds the format plays: the given number for a Swiss event; what the
    schedule or bracket needs otherwise (a different number given is an error)."""
    if fmt == "swiss":
        if rounds is None or rounds < 1:
            raise TournamentError("swiss_rounds")
        return rounds
    if fmt == "roundrobin":
        needed = max(len(round_robin(g)) for g in _groups(pairs).values())
    else:
        needed = max(1, (len(pairs) - 1).bit_length())
    if rounds is not None and rounds != needed:
        raise TournamentError("rounds_fixed", format=fmt, needed=needed, rounds=rounds)
    return needed


def _groups(pairs: Sequence[Pair]) -> dict[int | None, list[str]]:
    """Pair ids by group, each group in seeding order."""
    groups: dict[int | None, list[str]] = {}
    for p in pairs:
        groups.setdefault(p.group, []).append(p.id)
    return groups


@dataclass
class Tournament:
    """A tournament's settings and history; every rule question is a method here.

    Methods that score a table return the ``Outcome`` without keeping it: the caller
    stores it (``store.tournament_store``) and the next rebuild sees it, so a refused or
    abandoned entry leaves nothing behind.
    """

    name: str
    format: str
    rounds: int
    profile: Profile
    seed: int
    #: in seeding order (see ``arrange``)
    pairs: list[Pair]
    draws: dict[int, list[Table]] = field(default_factory=dict)
    #: the result counting for each (round, table): the latest entered
    results: dict[tuple[int, int], Outcome] = field(default_factory=dict)

    # --- questions -----------------------------------------------------------------------

    @property
    def drawn(self) -> int:
        """The latest round drawn (0 before the first draw)."""
        return max(self.draws, default=0)

    @cached_property
    def _by_id(self) -> dict[str, Pair]:
        return {p.id: p for p in self.pairs}

    def pair(self, pair_id: str) -> Pair:
        try:
            return self._by_id[pair_id]
        except KeyError:
            raise TournamentError("unknown_pair", pair=pair_id) from None

    def table(self, round_no: int | None, table_no: int) -> tuple[int, Table]:
        """The round (the latest drawn when ``None``) and its table ``table_no``."""
        round_no = self.drawn_round(round_no)
        for t in self.draws[round_no]:
            if t.table == table_no:
                return round_no, t
        raise TournamentError("no_table", round=round_no, table=table_no)

    def missing(self, round_no: int) -> list[int]:
        """Tables of ``round_no`` still without a result."""
        return [t.number for t in self.draws.get(round_no, [])
                if not t.is_bye and (round_no, t.number) not in self.results]

    def outcomes(self, round_no: int) -> list[tuple[Table, Outcome | None]]:
        """Each line of a round's draw with the result that counts for it (None: not in yet)."""
        return [(t, bye_outcome(self.profile, t.ns) if t.is_bye else self.results.get((round_no, t.number)))
                for t in self.draws.get(round_no, [])]

    def standings(self) -> list[Standing]:
        """Every pair's totals, ranked by the profile's tie-break chain (per group in a
        round robin; in a knockout first by the round reached)."""
        lot = lots([p.id for p in self.pairs], self.seed)
        lines = {p.id: Standing(p.id, lot[p.id], group=p.group) for p in self.pairs}
        if self.format == "knockout":
            for s in lines.values():
                s.reached = self.drawn + 1
        for r in sorted(self.draws):
            for t, outcome in self.outcomes(r):
                if outcome is None:
                    continue
                for pair_id, score in outcome.scores.items():
                    lines[pair_id].add(score)
                if self.format == "knockout" and not t.is_bye:
                    lines[t.ew_pair if outcome.winner == t.ns else t.ns].reached = r
        return rank(lines.values(), self.profile.tiebreak.chain)

    # --- the next draw -------------------------------------------------------------------

    def draw(self, round_no: int | None = None) -> list[Table]:
        """The draw for the next round (``round_no``, if given, must be that round). Refuses
        a round drawn already, one beyond the plan, and one whose predecessor lacks results."""
        following = self.drawn + 1
        round_no = following if round_no is None else round_no
        if round_no in self.draws:
            raise TournamentError("drawn_already", round=round_no)
        if round_no != following:
            raise TournamentError("not_next", next=following, round=round_no)
        if round_no > self.rounds:
            raise TournamentError("all_drawn", rounds=self.rounds)
        missing = self.missing(round_no - 1)
        if missing:
            raise TournamentError("missing", round=round_no - 1, tables=", ".join(map(str, missing)))
        if self.format == "swiss":
            return self._swiss(round_no)
        if self.format == "roundrobin":
            return self._round_robin(round_no)
        return self._knockout(round_no)

    def _swiss(self, round_no: int) -> list[Table]:
        points = {p.id: 0 for p in self.pairs}
        met: dict[str, set[str]] = {p.id: set() for p in self.pairs}
        byes = {p.id: 0 for p in self.pairs}
        for r in self.draws:
            for t, outcome in self.outcomes(r):
                for pair_id, score in outcome.scores.items() if outcome is not None else ():
                    points[pair_id] += score.points
                if t.is_bye:
                    byes[t.ns] += 1
                else:
                    met[t.ns].add(t.ew_pair)
                    met[t.ew_pair].add(t.ns)
        order = [p.id for p in self.pairs]
        random.Random(f"{self.seed}:swiss:{round_no}").shuffle(order)  # lot within a score group
        order.sort(key=lambda p: -points[p])
        games, bye = swiss_draw(order, met, byes)
        tables = [Table(i, a, b) for i, (a, b) in enumerate(games, 1)]
        return tables + ([Table(None, bye, None)] if bye else [])

    def _round_robin(self, round_no: int) -> list[Table]:
        games: list[Table] = []
        byes: list[Table] = []
        for g, members in _groups(self.pairs).items():
            schedule = round_robin(members)
            if round_no > len(schedule):
                continue
            for a, b in schedule[round_no - 1]:
                if b is None:
                    byes.append(Table(None, a, None, g))
                else:
                    games.append(Table(len(games) + 1, a, b, g))
        return games + byes

    def _knockout(self, round_no: int) -> list[Table]:
        seed_no = {p.id: i for i, p in enumerate(self.pairs)}
        games: list[tuple[str, str | None]]
        if round_no == 1:
            games = bracket([p.id for p in self.pairs])
        else:
            winners = [_went_through(outcome) for _, outcome in self.outcomes(round_no - 1)]
            games = [(a, b) if seed_no[a] < seed_no[b] else (b, a)
                     for a, b in zip(winners[::2], winners[1::2], strict=True)]
        out = []
        number = 0
        for a, b in games:  # in bracket order, byes in their place: round 2 pairs neighbours
            if b is None:
                out.append(Table(None, a, None))
            else:
                number += 1
                out.append(Table(number, a, b))
        return out

    # --- results -------------------------------------------------------------------------

    def score_levels(self, round_no: int | None, table_no: int, a: str, b: str, level_a: str, level_b: str,
                     winner: str | None = None) -> tuple[int, Outcome]:
        """Score a table from the final levels of pairs ``a`` and ``b`` (either order).

        Unequal levels decide the match. Equal levels are a draw, unless ``winner`` names
        the pair that won the extra hand (or reached the level first, per the profile) —
        and in a knockout they must: a knockout match is never drawn.
        """
        round_no, table = self._table_of(round_no, table_no, (a, b))
        index = {a: parse_final_level(level_a), b: parse_final_level(level_b)}
        if index[a] == index[b] == PASSED:
            raise TournamentError("both_passed_a")
        side: dict[str, Side] = {table.ns: "NS", table.ew_pair: "EW"}
        if winner is not None:
            self.pair(winner)
            if winner not in side:
                raise TournamentError("winner_elsewhere", winner=winner, table=table_no)
        by_level = max(index, key=index.__getitem__) if index[a] != index[b] else None
        if by_level is not None:
            if winner is not None and winner != by_level:
                raise TournamentError("levels_say", won=by_level, winner=winner)
            winner = by_level
            reason = "passed_a" if index[winner] == PASSED else "time"
        elif winner is not None:
            tie = self.profile.match.tie
            reason = tie if tie in ("extra_hand", "first_to_level") else "extra_hand"
        elif self.format == "knockout":
            raise TournamentError("knockout_tie", table=table_no, level=level_a)
        else:
            reason = "draw"
        levels = {side[p]: index[p] for p in index}
        result = match_result(self.profile, side[winner] if winner else None, reason, levels, dict(levels))
        return round_no, self._checked(round_no, table, _outcome(result, table))

    def score_forfeit(self, round_no: int | None, table_no: int, who: str,
                      pairs: Sequence[str] = ()) -> tuple[int, Outcome]:
        """Score a forfeit (弃权) by ``who`` — a pair id, or the side "NS"/"EW" — per the
        profile's ``match.forfeit`` award; ``pairs``, if given, must be the table's two."""
        round_no, table = self._table_of(round_no, table_no, pairs)
        sides: dict[str, Side] = {table.ns: "NS", table.ew_pair: "EW"}
        named = sides.get(who) or side_or_none(who.upper())
        if named is not None:
            side = named
        else:
            self.pair(who)
            raise TournamentError("pair_elsewhere", pair=who, round=round_no, table=table_no, ns=table.ns,
                                  ew=table.ew)
        winner: Side = "EW" if side == "NS" else "NS"
        zero: dict[Side, int] = {s: 0 for s in SIDES}
        result = match_result(self.profile, winner, "forfeit", zero, dict(zero))
        return round_no, self._checked(round_no, table, _outcome(result, table))

    def score_result(self, round_no: int | None, table_no: int, result: Result) -> tuple[int, Outcome]:
        """Score a table from its match ``Result`` (a camera table's record): its NS and
        EW are the draw's."""
        round_no, table = self._table_of(round_no, table_no, ())
        return round_no, self._checked(round_no, table, _outcome(result, table))

    def _table_of(self, round_no: int | None, table_no: int, pairs: Sequence[str]) -> tuple[int, Table]:
        for p in pairs:
            self.pair(p)
        round_no, table = self.table(round_no, table_no)
        for p in pairs:
            if p not in (table.ns, table.ew):
                raise TournamentError("pair_elsewhere", pair=p, round=round_no, table=table_no, ns=table.ns,
                                      ew=table.ew)
        if len(set(pairs)) == 1:
            raise TournamentError("same_pair")
        return round_no, table

    def _checked(self, round_no: int, table: Table, outcome: Outcome) -> Outcome:
        """A knockout never takes a draw, nor, once the next round is drawn, a correction
        that would change who went through (the published draw stands: 更正不改变已公布的编排)."""
        if self.format != "knockout":
            return outcome
        if outcome.winner is None:
            raise TournamentError("knockout_draw", table=table.table)
        before = self.results.get((round_no, table.number))
        if round_no < self.drawn and before is not None and before.winner != outcome.winner:
            raise TournamentError("winner_fixed", next=round_no + 1, table=table.table)
        return outcome

    def drawn_round(self, round_no: int | None) -> int:
        """``round_no`` if it has been drawn; ``None`` means the latest drawn round."""
        if not self.draws:
            raise TournamentError("none_drawn")
        if round_no is None:
            return self.drawn
        if round_no not in self.draws:
            raise TournamentError("round_not_drawn", round=round_no, drawn=self.drawn)
        return round_no
