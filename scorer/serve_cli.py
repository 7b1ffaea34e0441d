"""``guandan serve``, ``guandan user`` and ``guandan table``: the web server and its store.

The server runs under waitress (a production WSGI server); Flask's own server only with
``--debug``. Referee accounts and API tokens live in the store (passwords hashed).
``guandan table load RECORD`` puts a recorded game into the store — at once, or played back
in real time (``--speed``) so the live pages can be watched or tested. ``--db`` is a SQLite
file or a ``postgresql://`` URL (docs/storage.md). What the user can fix is one line in both
languages, ``--lang``'s first (``ServeError``, worded in ``rulebook.tournament_live``).
"""

from __future__ import annotations

import getpass
import sys
from argparse import ArgumentTypeError, Namespace
from pathlib import Path

from waitress.server import create_server

from engine.events import Header, RecordError
from engine.record import parse_lines
from rulebook import profiles
from rulebook.i18n import LANGS
from rulebook.tournament_live import Refusal, refusal
from scorer.heap import keep_full_collections_short
from scorer.obs_cli import add_obs_options, start_obs
from scorer.playback import play_back
from store.db import display, is_url
from store.event_store import Store, StoreError
from web import create_app
from web.stream_handover import hand_streams_over

DEFAULT_DB = "guandan.db"
DB_HELP = (f"event store: a SQLite file (default {DEFAULT_DB}) or a PostgreSQL database, "
           "postgresql://USER[:PASSWORD]@HOST:PORT/DB")


# Connections waitress keeps beyond its busy threads: pages' kept-alive connections between
# fetches (a thousand standings pages fetch again on every result), each only a channel in
# its poll(). Past the limit waitress stops accepting, streams' new connections included.
IDLE_CONNECTIONS = 4000


class ServeError(Refusal, ValueError):
    """Something the user of ``guandan serve``, ``user`` or ``table`` can fix (a store that
    is not there, a port taken): named by a code, worded in both languages."""


def open_store(path: str, must_exist: bool = False) -> Store:
    """The store, or a one-line ``ServeError`` (bad URL, server down, not a database)."""
    if must_exist and not is_url(path) and not Path(path).exists():
        raise ServeError("no_store", path=path)
    try:
        return Store(path)
    except StoreError as exc:
        raise ServeError(exc.code, **exc.values) from None


def tcp_port(text: str) -> int:
    """An argparse type: a TCP port to listen on, 1 to 65535 (refused in both languages,
    Chinese first: it is read before ``--lang``)."""
    try:
        port = int(text)
    except ValueError:
        raise ArgumentTypeError(refusal("not_a_port", "zh", text=text)) from None
    if not 1 <= port <= 65535:
        raise ArgumentTypeError(refusal("port_range", "zh", text=text))
    return port


def listening(app, host: str, port: int, **options):
    """A waitress server for ``app`` already bound to ``host:port`` (``options`` go to
    waitress); run it with ``.run()``. Bound here, in the caller's thread, so a port another
    program holds is one clear error before anything starts, not a traceback in a server
    thread while the command goes on printing an address that shows someone else's pages.
    The live pages' streams are taken from waitress by ``web.streams`` on the same port."""
    try:
        # poll(), not select(): a thousand open streams are past select's 1,024 descriptors
        server = create_server(app, host=host, port=port, asyncore_use_poll=True, **options)
    except OSError as exc:
        raise ServeError("port_taken", host=host, port=port, why=exc.strerror or exc) from None
    hand_streams_over(server, app)  # live pages' streams: a socket each, not a thread (web.streams)
    return server


def serve(args: Namespace) -> None:
    keep_full_collections_short()  # its live pages hold every table's match replayed: millions of objects
    app = create_app(open_store(args.db), secure_cookies=args.secure_cookies)
    start_obs(app, args)  # --obs: highlights tell OBS to save a replay (docs/broadcast.md)
    if args.debug:
        print(f"# http://{args.host}:{args.port}/  (store {display(args.db)})", flush=True)
        app.run(host=args.host, port=args.port, debug=True, threaded=True, use_reloader=False)
        return
    server = listening(app, args.host, args.port, threads=args.threads, channel_timeout=3600,
                       connection_limit=args.threads + IDLE_CONNECTIONS, ident="guandan")
    print(f"# http://{args.host}:{args.port}/  (store {display(args.db)})", flush=True)
    server.run()


def user_add(args: Namespace) -> None:
    store = open_store(args.db)
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass(f"password for {args.name}: ")
        if getpass.getpass("again: ") != password:
            raise ServeError("passwords_differ")
    try:
        store.add_user(args.name, password, args.role)
    except StoreError as exc:
        raise ServeError(exc.code, **exc.values) from None
    print(f"{args.name}: {args.role} added")


def user_token(args: Namespace) -> None:
    try:
        print(open_store(args.db, must_exist=True).new_token(args.name))
    except StoreError as exc:
        raise ServeError(exc.code, **exc.values) from None


def table_load(args: Namespace) -> None:
    """Store a record as a table; with ``--speed`` play it back in (scaled) real time."""
    try:
        record = parse_lines(Path(args.record).read_text(encoding="utf-8").splitlines())
        profiles.load(record.header.profile)
    except FileNotFoundError:
        raise ServeError("no_file", path=args.record) from None
    except RecordError as exc:
        raise ServeError("record_unreadable", path=args.record, why=exc) from None
    store = open_store(args.db)
    table = args.id or record.header.table or Path(args.record).stem
    header: Header = record.header
    try:
        store.add_table(table, header.to_json())
    except StoreError as exc:
        raise ServeError(exc.code, **exc.values) from None
    body = [e.to_json() for e in record.events[1:]]
    if not args.speed:
        store.append(table, body)
        print(f"table {table}: {len(body)} events stored in {display(args.db)}")
        return
    play_back(store, table, record, args.speed)
    print(f"table {table}: {len(body)} events played back into {display(args.db)}")


def lang_option(parser) -> None:
    """``--lang``: which language comes first in the command's one-line errors."""
    parser.add_argument("--lang", choices=LANGS, default="zh", help="language of the messages (default zh)")


def add_parsers(sub) -> None:
    """Register serve, user and table with the ``guandan`` parser."""
    p = sub.add_parser("serve", help="the web server: hall, tables, OBS overlays, referee console",
                       description="Serve the live hall, table pages, OBS overlays, the referee console and "
                                   "the JSON API from the event store.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=tcp_port, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE|URL", help=DB_HELP)
    p.add_argument("--threads", type=int, default=300,
                   help="worker threads for pages and the API; live streams need none (default 300)")
    p.add_argument("--secure-cookies", action="store_true", help="send session cookies over HTTPS only")
    p.add_argument("--debug", action="store_true", help="Flask's development server with debugging (never in a hall)")
    add_obs_options(p)
    lang_option(p)
    p.set_defaults(func=serve)

    p = sub.add_parser("user", help="referee accounts and API tokens",
                       description="Create referee accounts (passwords are stored hashed) and API tokens.")
    usub = p.add_subparsers(dest="user_command", required=True, metavar="ACTION")
    a = usub.add_parser("add", help="add a referee account (asks for the password)")
    a.add_argument("name")
    a.add_argument("--role", default="referee", choices=["referee", "chief"], help="role (default referee)")
    a.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    a.add_argument("--db", default=DEFAULT_DB, metavar="FILE|URL", help=DB_HELP)
    lang_option(a)
    a.set_defaults(func=user_add)
    t = usub.add_parser("token", help="make an API bearer token for a user (shown once)")
    t.add_argument("name")
    t.add_argument("--db", default=DEFAULT_DB, metavar="FILE|URL", help=DB_HELP)
    lang_option(t)
    t.set_defaults(func=user_token)

    p = sub.add_parser("table", help="put game records into the store",
                       description="Tables in the event store.")
    tsub = p.add_subparsers(dest="table_command", required=True, metavar="ACTION")
    lo = tsub.add_parser("load", help="store a record as a table (optionally played back in real time)")
    lo.add_argument("record", help="a game record (.jsonl)")
    lo.add_argument("--id", help="table id (default: the header's table name or the file name)")
    lo.add_argument("--speed", type=float, default=0.0,
                    help="play back at this many times real time (default: store everything at once)")
    lo.add_argument("--db", default=DEFAULT_DB, metavar="FILE|URL", help=DB_HELP)
    lang_option(lo)
    lo.set_defaults(func=table_load)
