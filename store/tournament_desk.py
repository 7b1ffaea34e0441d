"""The tournament desk: what a director or referee does to a tournament — enter a result,
confirm one, withdraw a pair, draw the next round — each checked whole and written in one
transaction of the tournament store, so a refused request leaves nothing behind.

It sits between the rules (``engine.tournament``: scoring, the next draw) and the facts
(``store.tournament_store``) and is shared by ``guandan tournament`` and the web's
tournament API, so a result entered at the terminal and one confirmed in a browser pass the
same checks. A refusal is a ``Refused`` in both languages (``rulebook.tournament_live``),
the engine's own (``TournamentError``, a code) among them.

Results arrive two ways:
    - typed by a referee (final levels, a forfeit): final as entered; entered again for
      the same table it is a correction, the earlier entry kept;
    - read from a table's game record (the evidence, kept with it): provisional until a
      referee confirms it. The same record delivered again is the same entry (a table
      node resending after a restart yields one result); a different record for a table
      that has a result, or a record already scoring another table, is refused.

A withdrawn pair forfeits every table it is drawn at from its withdrawal on (the profile's
``match.forfeit`` award), entered with the draw itself: the pairings stay the engine's, and
its opponents are never left without a result.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from engine.events import RecordError
from engine.match import Match
from engine.profile import ProfileError
from engine.record import parse_lines, replay
from engine.tournament import Outcome, Table, Tournament, TournamentError
from rulebook import profiles
from rulebook.tournament_live import state_word
from store.tournament_store import Entry, Evidence, StoreError, TournamentStore

#: who confirmed a result its table's players confirmed with their seat buttons, a player of
#: each side pressing (``hall.draw_post``), as a referee's name says who confirmed theirs
SEAT_BUTTONS = "座位按键/seat buttons"


class Refused(StoreError):
    """A request the desk refuses (rather than a store that cannot be opened), in both
    languages as every ``StoreError``: ``str`` gives Chinese first, ``text(lang)`` the
    asker's language first."""

    @property
    def key(self) -> str:
        return self.code


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _worded(action: Callable[_P, _R]) -> Callable[_P, _R]:
    """A desk action whose refusals by the engine (a code and its values) reach the asker
    as the desk's own: in both languages."""
    @functools.wraps(action)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return action(*args, **kwargs)
        except TournamentError as exc:
            raise Refused(exc.code, **exc.values) from None
    return run


@dataclass(frozen=True)
class Entered:
    """A result as the desk entered it (or found it entered already: ``repeated``)."""

    round: int
    table: Table
    outcome: Outcome
    entry: int
    correction: bool
    provisional: bool
    repeated: bool = False

    def to_json(self) -> dict:
        return {"round": self.round, "table": self.table.table, "entry": self.entry, "correction": self.correction,
                "state": "provisional" if self.provisional else "final", "repeated": self.repeated,
                **self.outcome.to_json()}


def load(store: TournamentStore) -> Tournament:
    return store.load(profiles.load)


def table_of(t: Tournament, round_no: int | None, table_no: int) -> tuple[int, Table]:
    """The round (the latest drawn when ``None``) and its table, or a refusal."""
    if not t.draws:
        raise Refused("none_drawn")
    round_no = t.drawn if round_no is None else round_no
    if round_no not in t.draws:
        raise Refused("not_drawn", round=round_no)
    for tb in t.draws[round_no]:
        if tb.table == table_no and not tb.is_bye:
            return round_no, tb
    raise Refused("no_table", round=round_no, table=table_no)


def _entered(store: TournamentStore, t: Tournament, round_no: int, table: Table, outcome: Outcome, by: str,
             evidence: Evidence | None = None) -> Entered:
    correction = (round_no, table.number) in t.results
    entry = store.add_result(round_no, table.number, outcome, by, evidence)
    return Entered(round_no, table, outcome, entry, correction, evidence is not None)


@_worded
def enter_levels(store: TournamentStore, round_no: int | None, table_no: int, a: str, b: str, level_a: str,
                 level_b: str, winner: str | None, by: str) -> Entered:
    """A referee's result from the two pairs' final levels: final as entered."""
    with store.transaction():
        t = load(store)
        round_no, table = table_of(t, round_no, table_no)
        round_no, outcome = t.score_levels(round_no, table_no, a, b, level_a, level_b, winner=winner)
        return _entered(store, t, round_no, table, outcome, by)


@_worded
def enter_forfeit(store: TournamentStore, round_no: int | None, table_no: int, who: str, pairs: list[str],
                  by: str) -> Entered:
    """A referee's forfeit (弃权) by a pair or side: final as entered."""
    with store.transaction():
        t = load(store)
        round_no, table = table_of(t, round_no, table_no)
        round_no, outcome = t.score_forfeit(round_no, table_no, who, pairs)
        return _entered(store, t, round_no, table, outcome, by)


def table_named(name: str) -> tuple[int | None, int] | None:
    """The tournament table a hall table or a record's header names: ``7`` is table 7 of
    the latest round drawn, ``2-7`` table 7 of round 2; (round or None, table), or None
    for any other name (``demo``, ``t7``)."""
    found = _TABLE_NAME.match(str(name).strip())
    if found is None:
        return None
    return (int(found.group(1)) if found.group(1) else None), int(found.group(2))


_TABLE_NAME = re.compile(r"^(?:(\d+)-)?(\d+)$")


def replay_record(text: str) -> Match:
    """A table's finished match from its game record's text, or a refusal."""
    try:
        match = replay(parse_lines(text.splitlines()), profiles.load)
    except (RecordError, ProfileError) as exc:  # the record's, its profile's: their own words, in each language
        raise Refused("record_broken", why=exc) from None
    if match.result is None:
        raise Refused("record_unfinished")
    return match


@_worded
def enter_record(store: TournamentStore, round_no: int | None, table_no: int, text: str, source: str,
                 by: str, replayed: Match | None = None) -> Entered:
    """A result read from a table's game record: provisional until a referee confirms it,
    the record kept as its evidence. The same record again is the entry already made.

    ``replayed``: the match of exactly ``text``'s events, pushed in order by a caller that
    followed it as it was played (the hall's result feed: ``hall.results``), so that it is not
    replayed a second time — replaying a whole match is most of what entering it costs, and
    a hall enters thousands in a round. Never one whose record holds a referee's
    correction: a replay applies those in place (``engine.referee_events.with_corrections``)."""
    match = replayed if replayed is not None and replayed.result is not None else replay_record(text)
    with store.transaction():
        return _enter_record(store, load(store), round_no, table_no, text, source, by, match)


@dataclass(frozen=True)
class RecordIn:
    """One table's game record for ``enter_records``, as ``enter_record`` takes it."""

    round: int | None
    table: int
    text: str
    source: str
    replayed: Match | None = None


def enter_records(store: TournamentStore, records: list[RecordIn], by: str) -> list[Entered | Refused]:
    """Several tables' records entered as ``enter_record`` enters each, in one transaction:
    one load of the tournament and one commit (an fsync) for all of them. A hall's results
    come in bursts — time called in the whole hall at once — and one by one each would pay
    the load, the write lock and the fsync, falling behind a hall's round
    (``benchmarks/tournament_hall.py``). Each record is checked against
    the tournament with those before it entered; a refused one is returned in its place,
    not raised, and the others go in."""
    matches: list[Match | Refused] = []
    for r in records:
        try:
            matches.append(r.replayed if r.replayed is not None and r.replayed.result is not None
                           else replay_record(r.text))
        except Refused as exc:
            matches.append(exc)
    out: list[Entered | Refused] = []
    with store.transaction():
        t = load(store)
        for r, match in zip(records, matches, strict=True):
            if isinstance(match, Refused):
                out.append(match)
                continue
            try:  # a refusal comes before anything is written for its record
                entered = _enter_record(store, t, r.round, r.table, r.text, r.source, by, match)
            except Refused as exc:
                out.append(exc)
                continue
            except TournamentError as exc:
                out.append(Refused(exc.code, **exc.values))
                continue
            if not entered.repeated:
                t.results[(entered.round, entered.table.number)] = entered.outcome
            out.append(entered)
    return out


def _enter_record(store: TournamentStore, t: Tournament, round_no: int | None, table_no: int, text: str,
                  source: str, by: str, match: Match) -> Entered:
    """``enter_record``'s checks and entry, inside its transaction, ``t`` loaded in it."""
    evidence = Evidence(source, text)
    round_no, table = table_of(t, round_no, table_no)
    for seen in store.entries(digest=evidence.digest):
        if (seen.round, seen.table) != (round_no, table_no):
            raise Refused("record_used", round=seen.round, table=seen.table)
        latest = store.latest_at(round_no, table_no)
        if latest is not None and latest.id == seen.id:
            return Entered(round_no, table, seen.outcome, seen.id, False, seen.provisional, repeated=True)
    if match.profile.name != t.profile.name:
        raise Refused("record_profile", played=match.profile.name, used=t.profile.name)
    named = table_named(match.header.table)
    if named is not None and (named[1] != table_no or named[0] not in (None, round_no)):
        raise Refused("record_table", other=match.header.table, table=table_no)
    before = store.latest_at(round_no, table_no)
    if before is not None:
        raise Refused("has_result", round=round_no, table=table_no, entry=before.id,
                      state_zh=state_word(before.state, "zh"), state_en=state_word(before.state, "en"))
    if match.result is None:  # the caller enters finished matches only
        raise Refused("record_unfinished")
    round_no, outcome = t.score_result(round_no, table_no, match.result)
    return _entered(store, t, round_no, table, outcome, by, evidence)


@_worded
def confirm(store: TournamentStore, round_no: int | None, table_no: int, by: str, entry: int | None = None) -> Entry:
    """A referee — or the table's players with their seat buttons (``by=SEAT_BUTTONS``) —
    makes a table's provisional result final. ``entry``: the one they were shown; refused if
    the table's result has changed since."""
    with store.transaction():
        return _confirm(store, load(store), round_no, table_no, by, entry)


def confirm_many(store: TournamentStore, asked: list[tuple[int | None, int, int | None]], by: str
                 ) -> list[Entry | Refused]:
    """Several tables' confirmations (round, table, entry shown), each as ``confirm`` takes it,
    in one transaction: one load of the tournament and one commit for all. At a hall the
    seat buttons confirm by the dozen a second (``hall.draw_post``), and one by one each paid
    a load of the whole tournament. A refused one is returned in its place, not raised."""
    out: list[Entry | Refused] = []
    with store.transaction():
        t = load(store)
        for round_no, table_no, entry in asked:
            try:  # a refusal comes before anything is written for its table
                out.append(_confirm(store, t, round_no, table_no, by, entry))
            except Refused as exc:
                out.append(exc)
            except TournamentError as exc:
                out.append(Refused(exc.code, **exc.values))
    return out


def _confirm(store: TournamentStore, t: Tournament, round_no: int | None, table_no: int, by: str,
             entry: int | None) -> Entry:
    """``confirm``'s checks and confirmation, inside its transaction, ``t`` loaded in it."""
    round_no, _ = table_of(t, round_no, table_no)
    latest = store.latest_at(round_no, table_no)
    if latest is None:
        raise Refused("nothing_to_confirm", round=round_no, table=table_no)
    if entry is not None and entry != latest.id:
        raise Refused("changed", round=round_no, table=table_no, entry=latest.id)
    if not latest.provisional:
        raise Refused("already_final", round=round_no, table=table_no)
    store.confirm(latest.id, by)
    return store.entries(round_no, table_no)[-1]


def unfinished(store: TournamentStore, t: Tournament, round_no: int) -> tuple[list[int], list[int]]:
    """A round's tables without a result, and those whose result is provisional."""
    latest = store.latest(round_no)
    provisional = [tb.number for tb in t.draws.get(round_no, [])
                   if not tb.is_bye and (e := latest.get((round_no, tb.number))) is not None and e.provisional]
    return t.missing(round_no), provisional


@_worded
def draw_next(store: TournamentStore, round_no: int | None, by: str) -> tuple[int, list[Table], list[Entered]]:
    """Draw the next round once every result of the last one is in and final; a withdrawn
    pair's tables in it are entered as its forfeits in the same transaction."""
    with store.transaction():
        t = load(store)
        following = t.drawn + 1
        if t.drawn and round_no in (None, following) and following <= t.rounds:
            missing, provisional = unfinished(store, t, t.drawn)
            if missing:
                raise Refused("missing", round=t.drawn, tables=", ".join(map(str, missing)))
            if provisional:
                raise Refused("provisional", round=t.drawn, tables=", ".join(map(str, provisional)))
        tables = t.draw(round_no)
        store.add_draw(following, tables)
        t.draws[following] = tables
        return following, tables, _forfeit_withdrawn(store, t, following, by)


def _forfeit_withdrawn(store: TournamentStore, t: Tournament, round_no: int, by: str) -> list[Entered]:
    gone = store.withdrawals()
    out = []
    for tb in t.draws.get(round_no, []):
        if tb.is_bye or (round_no, tb.number) in t.results:
            continue
        for pair in (tb.ns, tb.ew_pair):
            if pair in gone:
                _, outcome = t.score_forfeit(round_no, tb.number, pair)
                out.append(_entered(store, t, round_no, tb, outcome, by))
                break
    return out


@_worded
def withdraw(store: TournamentStore, pair: str, by: str) -> tuple[int, list[Entered]]:
    """A pair leaves mid-event: from the latest round drawn on, its tables without a result
    are its forfeits (entered now, and at each later draw). Returns that round and the
    forfeits entered now."""
    with store.transaction():
        t = load(store)
        if pair not in {p.id for p in t.pairs}:
            raise Refused("unknown_pair", pair=pair)
        gone = store.withdrawals()
        if pair in gone:
            raise Refused("withdrawn", pair=pair, round=gone[pair])
        if t.drawn >= t.rounds and not t.missing(t.drawn):
            raise Refused("withdraw_done")
        round_no = max(t.drawn, 1)
        store.add_withdrawal(pair, round_no, by)
        return round_no, _forfeit_withdrawn(store, t, t.drawn, by) if t.drawn else []


def table_states(store: TournamentStore, t: Tournament, round_no: int) -> list[tuple[Table, str, Entry | None]]:
    """Each line of a round's draw with its state — ``playing`` (no result yet),
    ``provisional``, ``final``, or ``bye`` — and the entry that counts."""
    latest = store.latest(round_no)
    out: list[tuple[Table, str, Entry | None]] = []
    for tb in t.draws.get(round_no, []):
        if tb.is_bye:
            out.append((tb, "bye", None))
            continue
        entry = latest.get((round_no, tb.number))
        out.append((tb, "playing" if entry is None else entry.state, entry))
    return out
