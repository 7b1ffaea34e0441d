"""The app's services as the blueprints reach them: the hub and the store of the running app,
and a table checked to exist before a view works on it."""

from __future__ import annotations

from flask import current_app

from web.i18n import refuse


def hub():
    return current_app.config["HUB"]


def known_table(table: str) -> None:
    """Refuse (404) a table the store does not hold; otherwise bring the hub up to date."""
    if not current_app.config["STORE"].has_table(table):
        refuse(404, "unknown_table", table=table)
    hub().catch_up()
