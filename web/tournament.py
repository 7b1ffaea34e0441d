"""The tournament on the web: its page, the standings overlay for OBS, and its JSON API.

Public and read-only, like the rest of the site: ``/tournament/<id>`` (standings with the
profile's tie-break columns, the current round's draw with each table's state, each pair's
history, the printable sheets), ``/overlay/tournament/<id>`` (the standings, top N a page,
pages rotating), ``/api/tournaments/<id>/…`` (standings, draws, results, a stream).
Writes — entering a result, confirming a provisional one, drawing the next round — are the
desk's (``store.tournament_desk``, shared with ``guandan tournament``) behind
``auth.api_writer``, exactly as the rest of the API: a bearer token or a referee session
with its CSRF header.

The tournament lives in the server's own database (``--db``), beside the event store: one
database holds one tournament, whose id is 1 (the id in the URL leaves room for more).
Pages follow it live over Server-Sent Events (served by ``web.streams``): the stream
pushes what changed — the page's content in the viewer's language, the overlay's standings
— made once per change here (``Watch.pushed``) and shared by every follower, so a thousand
viewers cost one rendering a change, not a thousand requests. Fetched over HTTP (a first
load, a referee's page, a stream served by Flask's own route), the same text is served from
the same cache.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Blueprint, Response, current_app, g, jsonify, render_template, request, url_for
from markupsafe import Markup

from rulebook.tournament_live import PAGE, STATES, page_word
from rulebook.tournament_report import WORDS, sheet_html, standings_html
from store import tournament_desk as desk
from store.tournament_store import StoreError, TournamentStore
from web import tournament_rows as tr
from web import tournament_view as view
from web.auth import api_writer, current_user
from web.feeds import TournamentFeed, served
from web.i18n import page_terms, pick_lang, refuse
from web.sse import asked_push

if TYPE_CHECKING:
    from flask import Flask

bp = Blueprint("tournament", __name__)

#: the one tournament a database holds
TOURNAMENT_ID = 1
POLL_S = 0.5
NAV_RECHECK_S = 5.0
OVERLAY_TOP = (1, 32)  # the overlay's rows a page: at least, at most
_EXTENSION = "guandan.tournament"


class Watch:
    """The tournament store and its latest version, shared by every request of the app."""

    def __init__(self, store: TournamentStore, app: Flask) -> None:
        self.store = store
        self.app = app
        self._name: str | None = None
        self._lock = threading.Lock()
        self._version = store.version()
        self._read = time.monotonic()
        self._cache: dict[tuple, tuple[tuple, str]] = {}

    def version(self) -> str:
        """The store's version, read again at most every ``POLL_S`` whoever asks."""
        with self._lock:
            if time.monotonic() - self._read >= POLL_S:
                self._version = self.store.version()
                self._read = time.monotonic()
            return self._version

    def touched(self) -> None:
        """A write through this server: the next ask reads the store again."""
        with self._lock:
            self._read = 0.0

    def cached(self, key: tuple, build: Callable[[], str], stamp: object = None) -> str:
        """What ``build`` makes, made once per version of the store (and ``stamp``: what
        else it shows that may change) for every viewer who asks — a change wakes every
        page at once, and each fetches the same thing. One copy per ``key``."""
        version = (self.store.version(), stamp)
        with self._lock:
            hit = self._cache.get(key)
        if hit is not None and hit[0] == version:
            return hit[1]
        text = build()
        with self._lock:
            self._cache[key] = (version, text)
        return text

    def name(self) -> str:
        """The tournament's name (the page's title): written once, with the tournament."""
        if self._name is None:
            self._name = desk.load(self.store).name
        return self._name

    def pushed(self, what: str, lang: str) -> str:
        """The data of the stream's push ``what`` (``web.sse.PUSHES``): the page's content in
        ``lang`` as a JSON string, or the standings as ``/api/tournaments/1/standings`` gives
        them. Called by the stream's thread, outside any request: made as a request for the
        page would make it, from the same cache, so the page, the API and the push agree."""
        with self.app.test_request_context(f"/tournament/{TOURNAMENT_ID}", query_string={"lang": lang}):
            if what == "page":
                return json.dumps(public_body(self.store, lang), ensure_ascii=False)
            return standings_text(self.store)


def _opened() -> Watch | None:
    """The app's tournament, opened on first use (so a server started before ``guandan
    tournament new`` finds it later), or None where the database holds none."""
    watch = current_app.extensions.get(_EXTENSION)
    if watch is None:
        try:
            store = TournamentStore.open(current_app.config["STORE"].path)
        except StoreError:
            return None
        watch = current_app.extensions.setdefault(_EXTENSION, Watch(store, current_app._get_current_object()))
        if watch.store is not store:
            store.close()
    return watch


def _watch() -> Watch:
    """The app's tournament, or 404."""
    watch = _opened()
    if watch is None:
        refuse(404, "no_tournament_here")
    return watch


def tournament_open() -> bool:
    """Whether the server's database holds a tournament; a "no" is kept for ``NAV_RECHECK_S``
    so that every page of a hall without one does not try to open it."""
    if current_app.extensions.get(_EXTENSION) is not None:
        return True
    retry = current_app.extensions.get(_EXTENSION + ".none_until", 0.0)
    if time.monotonic() < retry:
        return False
    if _opened() is not None:
        return True
    current_app.extensions[_EXTENSION + ".none_until"] = time.monotonic() + NAV_RECHECK_S
    return False


def opened(app: Flask) -> Watch | None:
    """``app``'s tournament, opened here if its database holds one now, or None: for
    ``web.streams``, which takes a follower's request before any Flask route sees it — and
    on a server just started that request is often the tournament's first. (Not kept "no"
    as ``tournament_open`` does: a follower whose tournament is there is served by the loop
    at once, and one whose tournament is not is answered 404 and does not come back.)"""
    with app.app_context():
        return _opened()


@bp.app_context_processor
def tournament_nav() -> dict:
    """The site's menu links to the tournament where the database holds one."""
    if not tournament_open():
        return {"tournament_nav": None}
    lang = pick_lang()
    return {"tournament_nav": (f"/tournament/{TOURNAMENT_ID}?lang={lang}", page_word("nav", lang))}


def _store(tid: int) -> TournamentStore:
    if tid != TOURNAMENT_ID:
        refuse(404, "no_tournament_id", tid=tid, ours=TOURNAMENT_ID)
    return _watch().store


def derived(tid: int, key: str, build: Callable[[TournamentStore], str]) -> str:
    """What ``build`` makes of tournament ``tid``'s store (404: no such tournament here),
    made once per change of the tournament and shared: for the other parts of the site that
    read the tournament (its statistics, ``web.stats``)."""
    store = _store(tid)
    return _watch().cached(("derived", key), lambda: build(store))


def _live_tables() -> set[str]:
    """The hall's tables (the hub follows the store; catching up is one indexed query)."""
    hub = current_app.config["HUB"]
    hub.catch_up()
    return set(hub.views)


def words(lang: str) -> dict[str, str]:
    """The words of the tournament page and overlay in one language (standings columns,
    table states, headings), on top of the site's."""
    i = 0 if lang == "zh" else 1
    out = page_terms(lang)
    out.update({f"col.{k}": v[i] for k, v in WORDS.items() if "{" not in v[i]})
    out["col.group"] = WORDS["group_col"][i]  # the column's name ("group" itself is "第{n}组")
    out.update({f"state.{k}": v[i] for k, v in STATES.items()})
    out.update({f"t.{k}": v[i] for k, v in PAGE.items()})
    return out


# --- pages ----------------------------------------------------------------------------------

def page_body(store: TournamentStore, lang: str, referee: bool) -> str:
    """The page's content (``#tournament``: standings, the draw, histories, links), with a
    referee's buttons and CSRF token or without. The long tables' rows are made by
    ``web.tournament_rows`` (at a hall's size Jinja took most of a second for them)."""
    t = desk.load(store)
    data = view.snapshot(store, t, TOURNAMENT_ID, _live_tables())
    terms = words(lang)
    safe = tr.escaped(terms)
    cells = tr.pair_cells(data, safe)

    def link(live: str) -> str:
        return url_for("pages.table", table=live, lang=lang)
    rows = {"standings": tr.standings_rows(data, cells), "draw": tr.draw_rows(data, safe, cells, referee, link),
            "history": tr.history_rows(t.pairs, view.histories(store, t), safe, cells)}
    return render_template("tournament_body.html", lang=lang, terms=terms, data=data, rows=rows, referee=referee)


def public_body(store: TournamentStore, lang: str) -> str:
    """The public's page content in ``lang``, made once per change (and per count of the
    hall's tables: a table's number links to its page once the hall has it) and shared by
    the page and the stream that pushes it."""
    return _watch().cached(("body", lang), lambda: page_body(store, lang, referee=False), stamp=len(_live_tables()))


@bp.get("/tournament/<int:tid>")
def page(tid: int):
    """The tournament page; the public's is made once per change and language and shared
    (a referee's carries its session's CSRF token and buttons: made for each)."""
    store = _store(tid)
    lang = pick_lang()

    def around(body: str) -> str:
        return render_template("tournament.html", lang=lang, terms=words(lang), title=_watch().name(),
                               body=Markup(body))
    if current_user() is not None:
        return around(page_body(store, lang, referee=True))
    return _watch().cached(("page", lang), lambda: around(public_body(store, lang)), stamp=len(_live_tables()))


@bp.get("/tournament/<int:tid>/sheet/<int:round_no>")
def sheet(tid: int, round_no: int):
    """A round's score sheet (积分记录表), print-ready, as ``guandan tournament sheet`` writes it."""
    t = desk.load(_store(tid))
    if round_no not in t.draws:
        refuse(404, "not_drawn", round=round_no)
    return Response(sheet_html(t, round_no), mimetype="text/html")


@bp.get("/tournament/<int:tid>/standings")
def standings_sheet(tid: int):
    """The standings, print-ready (A4), as ``guandan tournament standings --html`` writes them."""
    return Response(standings_html(desk.load(_store(tid))), mimetype="text/html")


@bp.get("/overlay/tournament/<int:tid>")
def overlay(tid: int):
    """OBS browser source, 1920×1080, transparent: the standings, ``top`` rows a page
    (default 8), pages turning every ``seconds`` (default 10); ``lang=zh|en``."""
    _store(tid)
    lang = pick_lang()
    try:
        top = int(request.args.get("top", "8"))
        seconds = float(request.args.get("seconds", "10"))
        if not OVERLAY_TOP[0] <= top <= OVERLAY_TOP[1] or not 2 <= seconds <= 600:
            raise ValueError
    except ValueError:
        refuse(400, "overlay_rows", least=OVERLAY_TOP[0], most=OVERLAY_TOP[1])
    return render_template("tournament_overlay.html", lang=lang, terms=words(lang), tid=tid, top=top,
                           seconds=seconds)


# --- the API: reads -------------------------------------------------------------------------

def _json(text: str) -> Response:
    return Response(text, mimetype="application/json")


@bp.get("/api/tournaments/<int:tid>")
def api_snapshot(tid: int):
    store = _store(tid)
    return _json(_watch().cached(("snapshot",), lambda: json.dumps(
        view.snapshot(store, desk.load(store), tid, _live_tables()), ensure_ascii=False), stamp=len(_live_tables())))


def standings_text(store: TournamentStore) -> str:
    """The standings as JSON text, made once per change, however many overlays ask or are pushed it."""
    return _watch().cached(("standings",), lambda: json.dumps(
        view.standings(desk.load(store), store.withdrawals()), ensure_ascii=False))


@bp.get("/api/tournaments/<int:tid>/standings")
def api_standings(tid: int):
    """The standings; made once per change, however many overlays ask."""
    return _json(standings_text(_store(tid)))


@bp.get("/api/tournaments/<int:tid>/draws")
def api_draws(tid: int):
    """Every round drawn (or ``?round=N``), each table with its state and result."""
    store = _store(tid)
    t = desk.load(store)
    rounds = sorted(t.draws)
    if "round" in request.args:
        wanted = request.args.get("round", "")
        if not wanted.isdigit() or int(wanted) not in t.draws:
            refuse(404, "not_drawn", round=wanted)
        rounds = [int(wanted)]
    live = _live_tables()
    return jsonify([{"round": r, "tables": view.draw(store, t, r, live)} for r in rounds])


@bp.get("/api/tournaments/<int:tid>/results")
def api_results(tid: int):
    """Every entry in the order entered (corrections and confirmations included): the audit trail."""
    store = _store(tid)
    return jsonify([{"round": e.round, "table": e.table, **view.entry_json(e)} for e in store.entries()])


@bp.get("/api/tournaments/<int:tid>/results/<int:entry>/record")
def api_evidence(tid: int, entry: int):
    """The game record kept with a result entered from it (its evidence), as JSON lines."""
    text = _store(tid).evidence_record(entry)
    if text is None:
        refuse(404, "no_evidence_record", entry=entry)
    return Response(text, mimetype="application/x-ndjson")


@bp.get("/api/tournaments/<int:tid>/stream")
def api_stream(tid: int):
    """Server-Sent Events: ``version`` now, then again whenever anything is entered; a
    follower that asks ``?push=page&lang=…&since=V`` (or ``?push=standings``) is sent the
    page's content (or the standings) itself instead, whenever it shows another version
    (``web.feeds.TournamentFeed``). ``web.streams`` serves this beside waitress; here only
    under Flask's own server (``--debug``)."""
    _store(tid)
    watch = _watch()
    push, since = asked_push(request.query_string.decode())
    return served(TournamentFeed(watch.version, watch.pushed, lambda: len(_live_tables()), push, POLL_S), since)


# --- the API: writes ------------------------------------------------------------------------

def _body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        refuse(400, "send_json")
    return data


def _whole(data: dict, key: str, required: bool = True) -> int | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        refuse(400, "whole_from_1", key=key)
    return value


def _refusing(call):
    """Run a desk call; a refusal (the desk's or the engine's: ``desk.Refused``; the
    store's) is 400 with its message in both languages, the asker's first."""
    try:
        return call()
    except StoreError as exc:  # the desk's refusals (desk.Refused) among them
        refuse(400, exc.code, **exc.values)


@bp.post("/api/tournaments/<int:tid>/results")
@api_writer
def api_enter(tid: int):
    """A table's result: ``{"table", "round"?, "pairs": [A, B], "levels": [LA, LB], "winner"?}``
    or ``{"table", "round"?, "forfeit": PAIR_OR_SIDE}`` (final), or ``{"table", "round"?,
    "record": TEXT, "source"?}`` (provisional until confirmed)."""
    store = _store(tid)
    data = _body()
    table, round_no = _whole(data, "table"), _whole(data, "round", required=False)
    kinds = [k for k in ("levels", "forfeit", "record") if data.get(k) is not None]
    if len(kinds) != 1:
        refuse(400, "result_kinds_api")
    pairs = data.get("pairs") or []
    if not isinstance(pairs, list) or not all(isinstance(p, str) for p in pairs):
        refuse(400, "pairs_list")
    if not isinstance(data.get("winner"), str | None):
        refuse(400, "winner_id")
    if kinds == ["levels"]:
        levels = data["levels"]
        if len(pairs) != 2 or not isinstance(levels, list) or len(levels) != 2:
            refuse(400, "levels_with_pairs")
        entered = _refusing(lambda: desk.enter_levels(store, round_no, table, *pairs, *map(str, levels),
                                                      data.get("winner"), g.user))
    elif kinds == ["forfeit"]:
        entered = _refusing(lambda: desk.enter_forfeit(store, round_no, table, str(data["forfeit"]), pairs, g.user))
    else:
        if not isinstance(data["record"], str):
            refuse(400, "record_text")
        source = str(data.get("source") or f"api:{g.user}")
        entered = _refusing(lambda: desk.enter_record(store, round_no, table, data["record"], source, g.user))
    _watch().touched()
    return jsonify(entered.to_json() | {"entered_by": g.user}), 200 if entered.repeated else 201


@bp.post("/api/tournaments/<int:tid>/results/<int:table>/confirm")
@api_writer
def api_confirm(tid: int, table: int):
    """A referee confirms a table's provisional result; ``{"entry": N}`` (optional) is the
    entry the referee was shown, refused if the result has changed since."""
    store = _store(tid)
    data = request.get_json(silent=True) or {}
    if not isinstance(data, dict):
        refuse(400, "send_json")
    round_no, entry = _whole(data, "round", required=False), _whole(data, "entry", required=False)
    confirmed = _refusing(lambda: desk.confirm(store, round_no, table, g.user, entry))
    _watch().touched()
    return jsonify({"round": confirmed.round, "table": confirmed.table, **view.entry_json(confirmed)}), 201


@bp.post("/api/tournaments/<int:tid>/draws")
@api_writer
def api_draw(tid: int):
    """Draw the next round (``{"round": N}`` optional: it must be the next), once every
    result of the last one is in and final."""
    store = _store(tid)
    data = request.get_json(silent=True) or {}
    round_no = _whole(data, "round", required=False) if isinstance(data, dict) else None
    round_no, tables, forfeits = _refusing(lambda: desk.draw_next(store, round_no, g.user))
    _watch().touched()
    return jsonify({"round": round_no, "tables": [tb.to_json() for tb in tables],
                    "forfeits": [f.to_json() for f in forfeits]}), 201
