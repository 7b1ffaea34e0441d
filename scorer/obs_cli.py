"""``guandan serve --obs``: the server tells OBS Studio of each highlight at its tables
(``web.obs``: save the replay buffer, show a replay scene), per table or for all.

``--obs ws://HOST:4455`` serves every table; ``--obs TABLE=ws://HOST:4455`` (repeated)
one table each, an OBS for each camera's stream; both together: the tables named have
their own, the rest the plain one. The password is OBS's (Tools → WebSocket Server
Settings), from ``--obs-password`` or the ``GUANDAN_OBS_PASSWORD`` environment variable
(kept out of the process list). docs/broadcast.md says how to set OBS up.
"""

from __future__ import annotations

import os
from argparse import ArgumentTypeError, Namespace
from urllib.parse import urlsplit

from rulebook.commentary import obs_text
from web.obs import ObsCues, ObsTarget

PASSWORD_VARIABLE = "GUANDAN_OBS_PASSWORD"


def obs_option(text: str) -> tuple[str | None, str]:
    """An argparse type: ``ws://HOST:PORT`` (every table) or ``TABLE=ws://HOST:PORT``, as
    (table or None, URL); refused in both languages, Chinese first (read before ``--lang``)."""
    table, _, url = text.rpartition("=") if "=" in text.split("://", 1)[0] else ("", "", text)
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname or (table == "" and "=" in text.split("://", 1)[0]):
        zh, en = (obs_text("obs_option", lang, text=text) for lang in ("zh", "en"))
        raise ArgumentTypeError(f"{zh} / {en}")
    return table or None, url


def add_obs_options(parser) -> None:
    """``--obs``, ``--obs-password``, ``--obs-replay-scene``, ``--obs-replay-back``."""
    parser.add_argument("--obs", action="append", type=obs_option, default=[], metavar="[TABLE=]ws://HOST:4455",
                        help="tell OBS (obs-websocket 5) of each highlight: save its replay buffer; TABLE= for one "
                             "table's OBS (repeat the option), none for every table")
    parser.add_argument("--obs-password", default=os.environ.get(PASSWORD_VARIABLE), metavar="PW",
                        help=f"OBS's WebSocket password (or the {PASSWORD_VARIABLE} environment variable)")
    parser.add_argument("--obs-replay-scene", metavar="NAME",
                        help="after saving the replay, put this scene on the program (the replay scene)")
    parser.add_argument("--obs-replay-back", type=float, default=0.0, metavar="SECONDS",
                        help="go back to the scene shown before after this many seconds (default: stay)")


def start_obs(app, args: Namespace) -> ObsCues | None:
    """The OBS cues for ``app``'s tables, started, when ``--obs`` asks for them; what they
    do is printed in ``--lang``."""
    if not args.obs:
        return None
    targets = {table: ObsTarget(url, args.obs_password, args.obs_replay_scene, args.obs_replay_back)
               for table, url in args.obs}
    lang = args.lang

    def say(code: str, **values: object) -> None:
        print(f"# {obs_text(code, lang, **values)}", flush=True)

    return ObsCues(app.config["HUB"], targets, say).start()
