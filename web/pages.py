"""Public, read-only pages: the hall, a table, the OBS overlay, and the card faces."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request

from rulebook.tournament_live import seating_terms
from web.api import broadcast_delay
from web.cards import card_svg
from web.i18n import page_terms, pick_lang, refuse

bp = Blueprint("pages", __name__)

#: the overlay's layouts and their sizes (width, height) in CSS pixels
OVERLAY_LAYOUTS = {"full": (1920, 1080), "compact": (1920, 1080), "vertical": (1080, 1920), "square": (1080, 1080)}


def _table_or_404(table: str) -> None:
    if not current_app.config["STORE"].has_table(table):
        refuse(404, "unknown_table", table=table)


@bp.get("/")
def hall():
    lang = pick_lang()
    return render_template("hall.html", lang=lang, terms=page_terms(lang) | seating_terms(lang))


@bp.get("/table/<table>")
def table(table: str):
    _table_or_404(table)
    lang = pick_lang()
    return render_template("table.html", lang=lang, terms=page_terms(lang) | seating_terms(lang), table=table)


@bp.get("/overlay/<table>")
def overlay(table: str):
    """OBS browser source, transparent. URL options: lang=zh|en, layout=full|compact
    (1920×1080), vertical (1080×1920) or square (1080×1080: phone-shaped streams),
    delay=seconds (a broadcast delay: everything shows that much later)."""
    _table_or_404(table)
    lang = pick_lang()
    layout = request.args.get("layout", "full")
    if layout not in OVERLAY_LAYOUTS:
        refuse(400, "layout_choice")
    return render_template("overlay.html", lang=lang, terms=page_terms(lang), table=table, layout=layout,
                           delay=broadcast_delay())


@bp.get("/cards/<card>.svg")
def card(card: str):
    try:
        svg = card_svg(card)
    except KeyError:
        refuse(404, "no_card", card=card)
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})
