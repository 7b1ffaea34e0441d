"""A client for OBS Studio's WebSocket server (obs-websocket, protocol v5), and the cues
it is sent: a highlight at a table (``engine.highlights``) saves OBS's replay buffer and,
if a replay scene is named, puts it on the program (docs/broadcast.md).

The protocol, as this client speaks it (JSON text frames, ``{"op": n, "d": {…}}``): the
server says Hello (op 0), with ``authentication: {challenge, salt}`` when it has a
password; the client identifies (op 1) with ``rpcVersion: 1`` and, to a password,
``authentication = base64(sha256(base64(sha256(password + salt)) + challenge))``; the
server answers Identified (op 2), or closes with 4009 when the password is wrong. A
request is op 6 ``{requestType, requestId, requestData}``, its response op 7 with
``requestStatus: {result, code, comment}``; events (op 5) are not asked for.

``ObsCues`` follows the hub as the pages do (``Hub.subscribe``: called from the hub's
thread, so it only wakes its own) and talks to OBS from a thread of its own: an OBS that
is closed or slow never holds up a page. A highlight is cued once, and only while new:
an event received more than ``FRESH_S`` ago (the server started on a match under way, a
record loaded at once) is no moment to save.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from engine.coded import Coded
from engine.highlights import Highlight, highlights
from rulebook.commentary import obs_text
from web.hub import Hub
from web.snapshot import TableView

RPC_VERSION = 1
SUBPROTOCOL = "obswebsocket.json"
AUTH_FAILED = 4009  # the server's close code for a wrong password
TIMEOUT_S = 5.0
FRESH_S = 30.0  # a highlight whose event was received longer ago than this is not cued
OP_HELLO, OP_IDENTIFY, OP_IDENTIFIED, OP_REQUEST, OP_RESPONSE = 0, 1, 2, 6, 7


class ObsError(Coded):
    """OBS could not be reached, refused us, or refused a request: a code and its values,
    worded by the rule books (``rulebook.commentary.OBS_WORDS``); ``str`` in both languages."""

    def text(self, lang: str) -> str:
        return obs_text(self.code, lang, **self.values)

    def __str__(self) -> str:
        return f"{self.text('zh')} / {self.text('en')}"


def auth_string(password: str, salt: str, challenge: str) -> str:
    """What Identify answers a Hello's challenge with, for ``password``.

    >>> auth_string("supersecretpassword", "lM1GncleQOaCu9lT1yeUZhFYnqhsLLP1G5lAGo3ixaI=",
    ...             "+IxH4CnCiqpX1rM9scsNynZzbOe4KhDeYcTNS3PDaeY=")
    '1Ct943GAT+6YQUUX47Ia/ncufilbe6+oD6lY+5kaCu4='
    """
    secret = base64.b64encode(hashlib.sha256((password + salt).encode()).digest()).decode()
    return base64.b64encode(hashlib.sha256((secret + challenge).encode()).digest()).decode()


class ObsClient:
    """One OBS's WebSocket server at ``url`` (``ws://HOST:4455``). ``request`` connects
    (and identifies) when it is not connected, and once more if the connection had
    dropped; safe to share between threads."""

    def __init__(self, url: str, password: str | None = None, timeout: float = TIMEOUT_S) -> None:
        self.url = url
        self.password = password
        self.timeout = timeout
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def connect(self) -> None:
        """Connect and identify, or raise ``ObsError``."""
        with self._lock:
            self._connect()

    def _connect(self) -> None:
        self._close()
        try:
            ws = connect(self.url, open_timeout=self.timeout, close_timeout=1, subprotocols=[SUBPROTOCOL],
                         legacy=True)  # a connection kept open between requests, not a ``with`` block
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            raise ObsError("obs_unreachable", url=self.url, why=exc) from None
        try:
            hello = self._receive(ws, OP_HELLO)
            identify: dict = {"rpcVersion": RPC_VERSION, "eventSubscriptions": 0}
            challenge = hello.get("authentication")
            if challenge:
                if not self.password:
                    raise ObsError("obs_needs_password", url=self.url)
                identify["authentication"] = auth_string(self.password, challenge["salt"], challenge["challenge"])
            ws.send(json.dumps({"op": OP_IDENTIFY, "d": identify}))
            self._receive(ws, OP_IDENTIFIED)
        except ConnectionClosed as exc:
            ws.close()
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code == AUTH_FAILED:
                raise ObsError("obs_wrong_password", url=self.url) from None
            raise ObsError("obs_unreachable", url=self.url, why=exc) from None
        except (TimeoutError, ValueError, KeyError, TypeError) as exc:
            ws.close()
            raise ObsError("obs_not_obs", url=self.url, why=exc) from None
        except ObsError:
            ws.close()
            raise
        self._ws = ws

    def _receive(self, ws: ClientConnection, op: int, request_id: str | None = None) -> dict:
        """The next message of kind ``op`` (the one answering ``request_id``), others
        skipped; its ``d``."""
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no op {op} from OBS in {self.timeout:g} s")
            message = json.loads(ws.recv(timeout=left))
            if message["op"] == op and (request_id is None or message["d"].get("requestId") == request_id):
                return message["d"]

    def request(self, request_type: str, data: dict | None = None) -> dict:
        """Make a request; its ``responseData`` ({} when it has none). ``ObsError`` when OBS
        cannot be reached or the request fails (``obs_request_failed``: its code and comment)."""
        with self._lock:
            for attempt in (1, 2):
                if self._ws is None:
                    self._connect()
                request_id = str(next(self._ids))
                body = {"requestType": request_type, "requestId": request_id}
                if data:
                    body["requestData"] = data
                try:
                    self._ws.send(json.dumps({"op": OP_REQUEST, "d": body}))
                    answer = self._receive(self._ws, OP_RESPONSE, request_id)
                    break
                except (ConnectionClosed, OSError, TimeoutError) as exc:
                    self._close()
                    if attempt == 2:
                        raise ObsError("obs_unreachable", url=self.url, why=exc) from None
        status = answer.get("requestStatus", {})
        if not status.get("result"):
            raise ObsError("obs_request_failed", url=self.url, request=request_type, status=status.get("code"),
                           comment=status.get("comment") or "")
        return answer.get("responseData") or {}

    def close(self) -> None:
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self._ws is not None:
            ws, self._ws = self._ws, None
            ws.close()


@dataclass(frozen=True)
class ObsTarget:
    """What a table's highlights are sent to: one OBS (its URL, its password) and, if set,
    the scene a replay is shown in and the seconds after which the program goes back to
    the scene it showed (0: stays on the replay scene)."""

    url: str
    password: str | None = None
    replay_scene: str | None = None
    back_after: float = 0.0


def _fresh_highlights(view: TableView) -> list[tuple[Highlight, float]]:
    """A table's highlights with the time each one's event was received."""
    if view.match is None:
        return []
    received = {s.seq: s.received for s in view.stored}
    return [(h, received.get(h.seq, 0.0)) for h in highlights(view.match)]


class ObsCues:
    """Sends each new highlight of the hub's tables to its OBS (``targets``: table → target,
    ``None`` for every table without its own). ``say(code, **values)`` is told what
    happened (an ``obs_*`` code of ``rulebook.commentary.OBS_WORDS``)."""

    def __init__(self, hub: Hub, targets: dict[str | None, ObsTarget],
                 say: Callable[..., None] = lambda code, **values: None) -> None:
        self.hub = hub
        self.targets = targets
        self.say = say
        self.clients: dict[str, ObsClient] = {}
        self.cued: dict[str, set[tuple[str, int]]] = {}  # table → highlights' keys seen
        self.sent: list[tuple[str, str, dict]] = []  # (table, request type, data), newest last
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="obs-cues", daemon=True)

    def start(self) -> ObsCues:
        for target in {t.url: t for t in self.targets.values()}.values():
            self.clients[target.url] = ObsClient(target.url, target.password)
        self.hub.subscribe(self._changed)
        self._thread.start()
        self._wake.set()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self.hub.unsubscribe(self._changed)
        self._thread.join(5)
        for client in self.clients.values():
            client.close()

    def _changed(self) -> None:
        self._wake.set()

    def _run(self) -> None:
        for url, client in self.clients.items():  # say at start whether each OBS answers
            try:
                client.connect()
                self.say("obs_connected", url=url)
            except ObsError as exc:
                self.say(exc.code, **exc.values)
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._stop.is_set() or self.hub.stopped:
                return
            self.cue_new()

    def target(self, table: str) -> ObsTarget | None:
        return self.targets.get(table) or self.targets.get(None)

    def cue_new(self, now: float | None = None) -> None:
        """Cue each highlight not cued before whose event is fresh: one save (and scene
        change) an event, however many highlights it made."""
        now = time.time() if now is None else now
        for table in sorted(self.hub.views):
            target = self.target(table)
            if target is None:
                continue
            found = self.hub.derived(table, _fresh_highlights) or []
            seen = self.cued.setdefault(table, set())
            events: dict[int, list[Highlight]] = {}
            for h, received in found:
                if h.key not in seen:
                    seen.add(h.key)
                    if now - received <= FRESH_S:
                        events.setdefault(h.seq, []).append(h)
            for seq, made in sorted(events.items()):
                self._cue(table, target, seq, made)

    def _cue(self, table: str, target: ObsTarget, seq: int, made: list[Highlight]) -> None:
        client = self.clients[target.url]
        kinds = ", ".join(h.kind for h in made)
        try:
            self._send(table, client, "SaveReplayBuffer")
            self.say("obs_saved", table=table, seq=seq, kinds=kinds)
            if target.replay_scene:
                shown = client.request("GetCurrentProgramScene")
                was = shown.get("sceneName") or shown.get("currentProgramSceneName")
                self._send(table, client, "SetCurrentProgramScene", {"sceneName": target.replay_scene})
                self.say("obs_scene", table=table, scene=target.replay_scene)
                if target.back_after and was and was != target.replay_scene:
                    timer = threading.Timer(target.back_after, self._back, (table, client, target, was))
                    timer.daemon = True
                    timer.start()
        except ObsError as exc:
            self.say(exc.code, **exc.values)

    def _back(self, table: str, client: ObsClient, target: ObsTarget, scene: str) -> None:
        """The replay is over: back to the scene shown before, unless someone has changed it."""
        try:
            shown = client.request("GetCurrentProgramScene")
            if (shown.get("sceneName") or shown.get("currentProgramSceneName")) == target.replay_scene:
                self._send(table, client, "SetCurrentProgramScene", {"sceneName": scene})
                self.say("obs_scene", table=table, scene=scene)
        except ObsError as exc:
            self.say(exc.code, **exc.values)

    def _send(self, table: str, client: ObsClient, request_type: str, data: dict | None = None) -> dict:
        answer = client.request(request_type, data)
        self.sent.append((table, request_type, data or {}))
        return answer
