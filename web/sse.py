"""Server-Sent Events as the live pages hear them: the messages, the keep-alive, and what a
stream's URL asks for.

What each stream sends is written once, as its feed (``web.feeds``), in these messages.
Two servers follow the feeds: the stream loop beside waitress (``web.streams``), which serves
every live stream in production, and the Flask routes (``web.api``, ``web.broadcast``,
``web.tournament``), which serve the same feeds under Flask's own server (``--debug``) and
whatever the loop leaves to waitress. Both read a stream's URL as it is read here, so a page
cannot tell which one it follows.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

#: a comment is sent on a stream that has been quiet this long: proxies and OBS keep a quiet
#: connection open only while something comes through it
KEEPALIVE_S = 15.0
KEEPALIVE = ": keep-alive\n\n"
MAX_DELAY_S = 600.0  # the longest broadcast delay a table's stream may ask for
PUSHES = ("page", "standings")  # what a tournament follower may ask pushed (web.tournament makes them)
LANGS = ("zh", "en")


def sse(event: str, data: str, ident: int | str | None = None) -> str:
    """One Server-Sent Events message."""
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n"


def table_update(events: list[dict], snapshot: str) -> str:
    """An ``update`` message's data: the new events and the snapshot after them."""
    return f'{{"events": {json.dumps(events, ensure_ascii=False)}, "snapshot": {snapshot}}}'


def broadcast_delay(query: str) -> float | None:
    """The broadcast delay a table's stream asks for, in seconds (0: none, where ``delay``
    is absent), or None where it is not one (the route answers 400)."""
    try:
        delay = float(parse_qs(query).get("delay", ["0"])[-1])
    except ValueError:
        return None
    return delay if 0 <= delay <= MAX_DELAY_S else None


def asked_push(query: str) -> tuple[tuple[str, str] | None, str | None]:
    """What a tournament follower asks pushed — ``("page", lang)``, ``("standings", "")`` or
    None (``version`` only) — and the version its page shows (``since``), from its URL."""
    args = parse_qs(query)
    what = args.get("push", [""])[-1]
    since = args.get("since", [None])[-1]
    if what not in PUSHES:
        return None, since
    lang = args.get("lang", ["zh"])[-1]
    return (what, lang if lang in LANGS else "zh") if what == "page" else (what, ""), since


def push_key(push: tuple[str, str], version: str, live: int) -> tuple:
    """What a push shows, to tell whether a follower has it: the page shows the version and
    which hall tables exist (its links), the standings only the version."""
    return (version, live) if push[0] == "page" else (version,)
