"""The Flask server: live tables, OBS overlays and the referee console.

``create_app`` is the factory: it takes the event store (a path or a ``Store``) and wires
the blueprints — ``pages`` (hall, table, overlay; public and read-only), ``referee``
(login and the console), ``api`` (JSON, Server-Sent Events, OpenAPI), ``tournament`` (the
tournament in the same database: its page, standings overlay and API), ``broadcast``
(highlights and the commentary ticker) and ``stats`` (statistics for commentators) —
around one live ``Hub`` that follows the store.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from rulebook import profiles
from rulebook.tournament_live import REFUSALS, refusal
from store.event_store import Store
from web import api, broadcast, pages, referee, stats, tournament
from web.auth import LoginLimiter, csrf_token
from web.hub import Hub
from web.i18n import pick_lang
from web.replays import Replays

if TYPE_CHECKING:
    from hall.ingest import Ingest


def create_app(store: Store | str | Path, *, secure_cookies: bool = False, start_hub: bool = True,
               hall: Ingest | None = None) -> Flask:
    """The web app on ``store``. ``hall``: a hall server's intake, when the app is its
    console — a referee's act on a table whose record comes from its node goes down to
    the node (docs/hall.md)."""
    if not isinstance(store, Store):
        store = Store(store)
    app = Flask(__name__)
    app.config.update(
        STORE=store,
        HUB=Hub(store),
        PROFILE_FOR=profiles.load,
        REPLAYS=Replays(),
        HALL=hall,
        OPEN_TOURNAMENT=partial(tournament.opened, app),  # for the live streams (web.streams): outside a request
        LOGIN_LIMITER=LoginLimiter(),
        SECRET_KEY=store.secret_key(),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=secure_cookies,
        MAX_CONTENT_LENGTH=4 * 1024 * 1024,
        JSON_AS_ASCII=False,
    )
    app.json.ensure_ascii = False
    app.jinja_env.globals["csrf_token"] = csrf_token

    app.register_blueprint(pages.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(tournament.bp)
    app.register_blueprint(broadcast.bp)  # highlights and the ticker (docs/broadcast.md)
    app.register_blueprint(stats.bp)  # statistics for commentators

    @app.errorhandler(HTTPException)
    def error(exc: HTTPException):
        message = _words(exc)
        if request.path.startswith("/api/"):
            return jsonify({"error": message}), exc.code
        return render_template("error.html", code=exc.code, message=message), exc.code

    @app.after_request
    def headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        if not request.path.startswith("/overlay/"):  # OBS embeds the overlay; nothing else is framed
            response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    if start_hub:
        app.config["HUB"].start()
    return app


def _words(exc: HTTPException) -> str:
    """What an error says: the route's own refusal (``web.i18n.refuse``: both languages,
    the asker's first), or where Flask answered by itself (no such page, a method a route
    does not take, a body past ``MAX_CONTENT_LENGTH``) the rule books' words for its status
    instead of werkzeug's English."""
    if exc.description and exc.description != type(exc).description:
        return exc.description
    code = f"http_{exc.code}"
    return refusal(code if code in REFUSALS else "http_error", pick_lang(), code=exc.code)
