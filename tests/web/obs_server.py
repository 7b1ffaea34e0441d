"""A stand-in for OBS Studio's WebSocket server (obs-websocket 5), for the tests of
``web.obs`` (not a test module itself): it says Hello with a challenge, checks the
Identify's authentication string as OBS does, answers requests and records them.

Written from the protocol's description (docs/broadcast.md), apart from the client it
tests: the authentication string is worked out here again.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import ServerConnection, serve

from tests.ports import free_port


class FakeObs:
    """OBS's WebSocket server on a free loopback port: ``requests`` lists (requestType,
    requestData) as they came; ``failing`` names requests it answers with a failure (as
    OBS answers SaveReplayBuffer while its replay buffer is off); ``identified`` counts
    clients that got in, ``refused`` those whose authentication was wrong."""

    def __init__(self, password: str | None = "obs-pass-1", port: int | None = None) -> None:
        self.password = password
        self.port = port or free_port()
        self.url = f"ws://127.0.0.1:{self.port}"
        self.requests: list[tuple[str, dict]] = []
        self.failing: set[str] = set()
        self.scene = "Table"
        self.identified = 0
        self.refused = 0
        self.subprotocols: list[str | None] = []
        self._server = serve(self._handle, "127.0.0.1", self.port, subprotocols=["obswebsocket.json"])
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> FakeObs:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._thread.join(5)

    def expected(self, salt: str, challenge: str) -> str:
        secret = base64.b64encode(hashlib.sha256((self.password + salt).encode()).digest()).decode()
        return base64.b64encode(hashlib.sha256((secret + challenge).encode()).digest()).decode()

    def _handle(self, ws: ServerConnection) -> None:
        self.subprotocols.append(ws.subprotocol)
        hello = {"obsWebSocketVersion": "5.5.0", "rpcVersion": 1}
        salt, challenge = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        if self.password:
            hello["authentication"] = {"challenge": challenge, "salt": salt}
        ws.send(json.dumps({"op": 0, "d": hello}))
        try:
            identify = json.loads(ws.recv(timeout=5))
            if identify["op"] != 1 or identify["d"].get("rpcVersion") != 1:
                ws.close(4006, "not identified")
                return
            if self.password and identify["d"].get("authentication") != self.expected(salt, challenge):
                self.refused += 1
                ws.close(4009, "Authentication failed.")
                return
            ws.send(json.dumps({"op": 2, "d": {"negotiatedRpcVersion": 1}}))
            self.identified += 1
            for text in ws:
                message = json.loads(text)
                if message["op"] != 6:
                    continue
                request = message["d"]
                kind, data = request["requestType"], request.get("requestData", {})
                self.requests.append((kind, data))
                reply = {"requestType": kind, "requestId": request["requestId"],
                         "requestStatus": {"result": True, "code": 100}}
                if kind in self.failing:
                    reply["requestStatus"] = {"result": False, "code": 501, "comment": "Replay buffer is not active."}
                elif kind == "GetCurrentProgramScene":
                    reply["responseData"] = {"sceneName": self.scene, "currentProgramSceneName": self.scene}
                elif kind == "SetCurrentProgramScene":
                    self.scene = data["sceneName"]
                ws.send(json.dumps({"op": 7, "d": reply}))
        except (ConnectionClosed, TimeoutError):
            pass

    def wait_for(self, count: int, timeout: float = 10.0) -> list[tuple[str, dict]]:
        """The requests once there are ``count`` of them (or all there are at ``timeout``)."""
        deadline = time.monotonic() + timeout
        while len(self.requests) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return list(self.requests)
