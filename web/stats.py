"""The statistics commentators read (docs/broadcast.md): per table, each player's over every
table of the store, and over one tournament's matches, as pages and as JSON, every word in
中文 and English (``rulebook.stat_words``).

Derived from replayed matches (``engine.stats``). A table's are worked out once per change
of the table and shared (``Hub.derived``). A tournament's count only its own matches: the
records kept with its results (the entry that counts for each table of each round), never
the other tables of the store — a friendly, a demo, another event's tables played on the
same hall; a record is replayed once, the first time it is asked for, and the whole made
once per change of the tournament (``web.tournament.derived``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from flask import Blueprint, Response, current_app, jsonify, render_template

from engine.stats import PlayerStats, TableStats, match_stats
from rulebook.i18n import LANGS, term
from rulebook.stat_words import PLAYER_FIGURES, TABLE_FIGURES, figure, stat_labels, stat_word
from store import tournament_desk as desk
from store.tournament_store import TournamentStore
from web import tournament
from web.i18n import page_terms, pick_lang
from web.services import hub, known_table
from web.snapshot import TableView

bp = Blueprint("stats", __name__)

#: app.extensions' key for the figures of each result's record, by entry (a record never changes)
_BY_ENTRY = "guandan.stats.entries"
#: one match's figures as the lists add them up: (its name, its seats' player names, seats, table)
Played = tuple[str, dict[str, str], dict[str, PlayerStats], TableStats]


def _stats_of(view: TableView) -> tuple[dict[str, PlayerStats], TableStats] | None:
    return match_stats(view.match) if view.match is not None else None


def _seat_names(table: str) -> dict[str, str]:
    view = hub().view(table)
    return dict(view.match.header.players) if view is not None and view.match is not None else {}


def _player_rows(table: str, seats: dict[str, PlayerStats]) -> list[dict]:
    names = _seat_names(table)
    return [{"seat": seat, "seat_name": {lang: term(seat, lang) for lang in LANGS}, "name": names.get(seat),
             **stats.to_json()} for seat, stats in seats.items()]


def table_stats(table: str) -> dict:
    """A table's statistics: each seat's and the table's, with the figures' names."""
    found = hub().derived(table, _stats_of)
    seats, whole = found if found is not None else ({}, TableStats())
    return {"table": table, "labels": stat_labels(), "players": _player_rows(table, seats),
            "table_stats": whole.to_json()}


def gathered(matches: Iterable[Played]) -> dict:
    """Each match's table figures, each player's added up over the matches they played (a
    player is their name in the records' headers; a seat without one is its own), and the total."""
    players: dict[tuple, tuple[PlayerStats, list[str]]] = {}
    tables, total = [], TableStats()
    for table, names, seats, whole in matches:
        total = total + whole
        tables.append({"table": table, **whole.to_json()})
        for seat, stats in seats.items():
            key = (names[seat],) if names.get(seat) else ("", table, seat)
            have, played = players.get(key, (PlayerStats(), []))
            players[key] = (have + stats, [*played, table])
    rows = []
    for key, (stats, played) in sorted(players.items()):
        if key[0]:
            label = {lang: key[0] for lang in LANGS}
        else:
            label = {lang: stat_word("unnamed", lang, table=key[1], seat=term(key[2], lang)) for lang in LANGS}
        rows.append({"player": key[0] or None, "label": label, "tables": played, **stats.to_json()})
    return {"labels": stat_labels(), "players": rows, "tables": tables, "total": total.to_json()}


def all_stats() -> dict:
    """Every table's statistics, and each player's added up over the tables they played."""
    def each() -> Iterable[Played]:
        for row in current_app.config["STORE"].tables():
            found = hub().derived(row["id"], _stats_of)
            if found is not None:
                yield row["id"], _seat_names(row["id"]), *found
    return gathered(each())


def tournament_stats(store: TournamentStore, tid: int) -> dict:
    """Tournament ``tid``'s statistics: its matches are the records kept with its results,
    the entry that counts for each round's table (named ``R-N``, round R's table N); a
    result typed or forfeited has no record, and is counted in ``without_record`` only."""
    known: dict[int, Played] = current_app.extensions.setdefault(_BY_ENTRY, {})
    matches: list[Played] = []
    without = 0
    for (round_no, table_no), entry in sorted(store.latest().items()):
        if entry.id not in known:
            text = store.evidence_record(entry.id) if entry.digest is not None else None
            if text is None:
                without += 1
                continue
            match = desk.replay_record(text)
            known[entry.id] = (f"{round_no}-{table_no}", dict(match.header.players), *match_stats(match))
        matches.append(known[entry.id])
    return {"tournament": tid, "name": desk.load(store).name, **gathered(matches), "without_record": without}


def _tournament_json(tid: int) -> str:
    return tournament.derived(tid, "stats", lambda store: json.dumps(tournament_stats(store, tid), ensure_ascii=False))


@bp.get("/api/tables/<table>/stats")
def table_stats_json(table: str):
    known_table(table)
    return jsonify(table_stats(table))


@bp.get("/api/stats")
def all_stats_json():
    hub().catch_up()
    return jsonify(all_stats())


@bp.get("/api/tournaments/<int:tid>/stats")
def tournament_stats_json(tid: int):
    """A tournament's statistics: its matches only, made once per change of the tournament."""
    return Response(_tournament_json(tid), mimetype="application/json")


def _page(data: dict, title: str, **more):
    lang = pick_lang()
    words = {key: stat_word(key, lang) for key in ("players", "tables", "player", "seat", "table", "total",
                                                     "none_yet", "bombs_note", "think_note", "stats", "matches_heading",
                                                     "match")}
    more.setdefault("matches", False)  # a tournament's: its matches by round and table, no table pages
    more.setdefault("without_note", None)
    return render_template("stats.html", lang=lang, terms=page_terms(lang), words=words, data=data, title=title,
                           player_figures=PLAYER_FIGURES, table_figures=TABLE_FIGURES, figure=figure, **more)


@bp.get("/stats/<table>")
def table_stats_page(table: str):
    known_table(table)
    lang = pick_lang()
    data = table_stats(table)
    return _page(data, stat_word("stats_of", lang, table=table), one_table=table)


@bp.get("/stats")
def all_stats_page():
    hub().catch_up()
    return _page(all_stats(), stat_word("all_stats", pick_lang()), one_table=None)


@bp.get("/tournament/<int:tid>/stats")
def tournament_stats_page(tid: int):
    lang = pick_lang()
    data = json.loads(_tournament_json(tid))
    note = stat_word("without_record", lang, n=data["without_record"]) if data["without_record"] else None
    return _page(data, stat_word("tournament_stats", lang, name=data["name"]), one_table=None, matches=True,
                 without_note=note)
