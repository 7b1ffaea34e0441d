"""The statistics commentators read (docs/broadcast.md): per table, and each player's over
every table of the store (a tournament's, on a hall server), as pages and as JSON, every
word in 中文 and English (``rulebook.stat_words``).

Derived from the tables' replayed matches (``engine.stats``), worked out once per change
of a table and shared (``Hub.derived``).
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template

from engine.stats import PlayerStats, TableStats, match_stats
from rulebook.i18n import LANGS, term
from rulebook.stat_words import PLAYER_FIGURES, TABLE_FIGURES, figure, stat_labels, stat_word
from web.i18n import page_terms, pick_lang
from web.services import hub, known_table
from web.snapshot import TableView

bp = Blueprint("stats", __name__)




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


def all_stats() -> dict:
    """Every table's statistics, and each player's added up over the tables they played
    (a player is their name in the records' headers; a seat without one is its own)."""
    players: dict[tuple, tuple[PlayerStats, list[str]]] = {}
    tables, total = [], TableStats()
    for row in current_app.config["STORE"].tables():
        table = row["id"]
        found = hub().derived(table, _stats_of)
        if found is None:
            continue
        seats, whole = found
        total = total + whole
        tables.append({"table": table, **whole.to_json()})
        names = _seat_names(table)
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


@bp.get("/api/tables/<table>/stats")
def table_stats_json(table: str):
    known_table(table)
    return jsonify(table_stats(table))


@bp.get("/api/stats")
def all_stats_json():
    hub().catch_up()
    return jsonify(all_stats())


def _page(data: dict, title: str, **more):
    lang = pick_lang()
    words = {key: stat_word(key, lang) for key in ("players", "tables", "player", "seat", "table", "total",
                                                     "none_yet", "bombs_note", "think_note", "stats")}
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
