"""The referee console: log in, work the hall's queue (``web.referee_queue``) and the
tournament's results to confirm, correct plays, adjust levels, forfeits.

The page carries the first items of the queue; its script (``static/referee.js``) keeps
them live and decides them through the JSON API's referee acts with the session's CSRF
token, as any client would. The table tools are forms posted here (``act``). Either way
every act becomes an event in the table's record with the referee's name and reason
(``api.record_act``); nothing is overwritten. On a hall server's console an act on a
node's table goes down to the node, and the console lists such acts until the node has
answered (recorded as which event, or refused and why).
"""

from __future__ import annotations

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for

from engine.cards import InvalidCard, parse_cards
from engine.seats import PLAY_ORDER
from rulebook.tournament_live import refusal
from web.api import record_act
from web.auth import csrf_ok, referee_page
from web.i18n import page_terms, pick_lang, refuse
from web.referee_queue import PENALTIES, assignments, queue
from web.tournament import TOURNAMENT_ID, tournament_open, words

bp = Blueprint("referee", __name__, url_prefix="/referee")
#: items sent with the page and kept live: more than a referee decides before the queue moves
PAGE = 60


@bp.route("/login", methods=["GET", "POST"])
def login():
    lang = pick_lang()
    terms = page_terms(lang)
    error = None
    if request.method == "POST":
        who = request.remote_addr or "?"
        limiter = current_app.config["LOGIN_LIMITER"]
        if not csrf_ok():
            refuse(400, "csrf")
        if limiter.blocked(who):
            error = refusal("too_many_logins", lang)
            return render_template("login.html", lang=lang, terms=terms, error=error), 429
        name, password = request.form.get("user", ""), request.form.get("password", "")
        if current_app.config["STORE"].check_password(name, password):
            limiter.succeeded(who)
            session.clear()
            session["user"] = name
            session["lang"] = lang
            return redirect(_local(request.args.get("next")) or url_for("referee.console"))
        limiter.failed(who)
        error = refusal("wrong_login", lang)
    return render_template("login.html", lang=lang, terms=terms, error=error), (401 if error else 200)


@bp.post("/logout")
@referee_page
def logout():
    session.clear()
    return redirect(url_for("pages.hall"))


@bp.get("")
@referee_page
def console():
    """The queue, worst first: the first ``PAGE`` items come with the page, the script
    keeps them live over the hall's stream (web/static/referee.js). Where the database holds
    a tournament, its round's provisional results follow, fetched and kept live over the
    tournament's stream (web/static/referee_results.js)."""
    lang = pick_lang()
    store = current_app.config["STORE"]
    hall = current_app.config["HALL"]
    shown = queue(current_app.config["HUB"], store, g.user, limit=PAGE)
    return render_template("referee.html", lang=lang, terms=words(lang), queue=shown, page=PAGE,
                           penalties=PENALTIES, tables=store.tables(), user=g.user,
                           mine=assignments(store).get(g.user, []), sent=hall.sent.all() if hall is not None else [],
                           seats=PLAY_ORDER, tournament=TOURNAMENT_ID if tournament_open() else None)


@bp.post("/act")
@referee_page
def act():
    """One form for every act; the fields say which."""
    form = request.form
    table, kind = form.get("table", ""), form.get("act", "")
    if not current_app.config["STORE"].has_table(table):
        refuse(400, "unknown_table", table=table)
    why = form.get("why", "").strip()
    fields: dict
    if kind in ("ack", "dismiss"):
        fields = {"alert": _int(form.get("alert")), "action": kind, "why": why}
        kind = "alert_done"
    elif kind == "penalty":
        fields = {"seat": form.get("seat"), "penalty": form.get("penalty"), "why": why,
                  "alert": _int(form.get("alert")) if form.get("alert") else None}
    elif kind == "correction":
        fields = {"target": _int(form.get("target")), "cards": _cards(form.get("cards")), "why": why,
                  **({"void": True} if form.get("void") else {})}
    elif kind == "missed":
        before = (form.get("before") or "").strip()
        fields = {"seat": form.get("seat"), "cards": _cards(form.get("cards")), "why": why,
                  **({"before": _int(before)} if before else {})}
    elif kind == "level_adjust":
        fields = {"side": form.get("side"), "levels": _int(form.get("levels"), signed=True), "why": why}
    elif kind == "forfeit":
        fields = {"side": form.get("side"), "why": why}
    else:
        refuse(400, "unknown_act", act=kind)
    done = record_act(table, kind, fields, g.user)
    flash(page_terms(pick_lang())["sent_flash" if "sent" in done else "done"])
    return redirect(_local(request.form.get("back")) or url_for("referee.console"))


def _local(url: str | None) -> str | None:
    """Only a path on this site is followed after a form (no open redirects)."""
    return url if url and url.startswith("/") and not url.startswith("//") else None


def _cards(text: str | None) -> list[str]:
    """Cards as a referee types them: platform names split by spaces or commas."""
    try:
        return list(parse_cards((text or "").replace(",", " ").replace("，", " ").split()))
    except InvalidCard as exc:
        refuse(400, "cards_bad", why=exc)


def _int(text: str | None, signed: bool = False) -> int:
    value = (text or "").strip()
    digits = value[1:] if signed and value[:1] in "+-" else value
    if not digits.isdigit():
        refuse(400, "not_whole", text=text)
    return int(value)
