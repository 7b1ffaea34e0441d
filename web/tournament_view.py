"""What the tournament page, its overlay and its API show, worked out from the store once
per request: the standings with the profile's tie-break columns, a round's draw with each
table's state (playing, provisional, final, bye), and each pair's history.

Plain data (dicts with the engine's English keys, as ``guandan tournament … --json`` gives
them), so the JSON API and the templates read the same thing; words are added by whoever
shows it (``rulebook.tournament_report``, ``rulebook.tournament_live``).
"""

from __future__ import annotations

from engine.tournament import Tournament
from rulebook.tournament_report import columns, standing_rows
from store import tournament_desk as desk
from store.tournament_store import Entry, TournamentStore


def summary(t: Tournament, tid: int) -> dict:
    return {"id": tid, "name": t.name, "format": t.format, "rounds": t.rounds, "drawn": t.drawn,
            "profile": t.profile.name}


def standings(t: Tournament, withdrawn: dict[str, int]) -> dict:
    """The ranked standings as they stand in ``round`` (the latest drawn; its provisional
    results count): ``columns`` in the profile's tie-break order, then the rows."""
    rows = [r | {"withdrawn": withdrawn.get(r["pair"])} for r in standing_rows(t)]
    return {"round": t.drawn, "columns": columns(t), "rows": rows}


def entry_json(entry: Entry | None) -> dict | None:
    if entry is None:
        return None
    return {"entry": entry.id, "state": entry.state, "entered_by": entry.entered_by, "entered_at": entry.entered_at,
            "confirmed_by": entry.confirmed_by, "source": entry.source, **entry.outcome.to_json()}


def draw(store: TournamentStore, t: Tournament, round_no: int, live_tables: set[str]) -> list[dict]:
    """A round's draw, line by line, each with its state and the result that counts;
    ``live`` is the hall's table playing it (``R-N`` or ``N``, as ``hall.results`` reads
    them), None where the hall has no such table."""
    out = []
    for tb, state, entry in desk.table_states(store, t, round_no):
        named = [] if tb.table is None else [f"{round_no}-{tb.table}", str(tb.table)]
        live = next((name for name in named if name in live_tables), None)
        out.append(tb.to_json() | {"state": state, "result": entry_json(entry), "live": live})
    return out


def histories(store: TournamentStore, t: Tournament) -> dict[str, list[dict]]:
    """Each pair's rounds in order: the table, the opponent (None: a bye), what it scored
    there and the result's state."""
    out: dict[str, list[dict]] = {p.id: [] for p in t.pairs}
    latest = store.latest()
    for round_no in sorted(t.draws):
        for tb, outcome in t.outcomes(round_no):
            entry = latest.get((round_no, tb.table)) if not tb.is_bye else None
            state = "bye" if tb.is_bye else ("playing" if outcome is None else entry.state)
            for me, other in ((tb.ns, tb.ew), (tb.ew, tb.ns)):
                if me is None:
                    continue
                score = outcome.scores.get(me) if outcome else None
                out[me].append({"round": round_no, "table": tb.table, "opponent": other, "state": state,
                                "won": None if outcome is None else outcome.winner == me,
                                "levels": [outcome.levels.get(me), outcome.levels.get(other)] if outcome else None,
                                "reason": outcome.reason if outcome else None,
                                "score": vars(score) if score else None})
    return out


def snapshot(store: TournamentStore, t: Tournament, tid: int, live_tables: set[str]) -> dict:
    """Everything the page shows, as the JSON API gives it."""
    withdrawn = store.withdrawals()
    return {"tournament": summary(t, tid), "standings": standings(t, withdrawn),
            "draw": {"round": t.drawn, "tables": draw(store, t, t.drawn, live_tables) if t.drawn else []},
            "names": {p.id: p.name for p in t.pairs}, "withdrawn": withdrawn, "version": store.version()}
