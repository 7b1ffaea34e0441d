"""Highlights on the stream (docs/broadcast.md): the client for OBS's WebSocket server
(web.obs) against a stand-in that checks its authentication as OBS does
(tests/web/obs_server.py); the cues a table's new highlights send; and, end to end, a
bomb played at a table served by ``guandan serve --obs``: its highlight on the overlay's
stream, animated on the overlay in Chromium, and OBS told to save its replay and show the
replay scene."""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from store.event_store import Store
from tests.ports import free_port
from tests.web.conftest import ARTIFACTS, header_json, start_serve
from tests.web.obs_server import FakeObs
from web.hub import Hub
from web.obs import ObsClient, ObsCues, ObsError, ObsTarget

BOMB = {"seq": 2, "t": 3, "type": "play", "seat": "E", "cards": ["S9", "H9", "D9", "C9"]}


def test_the_client_identifies_with_the_password_and_makes_requests():
    with FakeObs() as obs:
        client = ObsClient(obs.url, obs.password)
        assert client.request("SaveReplayBuffer") == {}
        assert client.request("GetCurrentProgramScene")["sceneName"] == "Table"
        client.request("SetCurrentProgramScene", {"sceneName": "Replay"})
        assert obs.requests == [("SaveReplayBuffer", {}), ("GetCurrentProgramScene", {}),
                                ("SetCurrentProgramScene", {"sceneName": "Replay"})]
        assert obs.identified == 1 and obs.refused == 0 and obs.subprotocols == ["obswebsocket.json"]
        client.close()


def test_a_wrong_or_missing_password_is_said_in_both_languages():
    with FakeObs() as obs:
        with pytest.raises(ObsError) as wrong:
            ObsClient(obs.url, "not-it").request("SaveReplayBuffer")
        assert wrong.value.code == "obs_wrong_password" and obs.refused == 1 and obs.requests == []
        assert "密码不对" in wrong.value.text("zh") and "wrong password" in wrong.value.text("en")
        with pytest.raises(ObsError) as missing:
            ObsClient(obs.url).connect()
        assert missing.value.code == "obs_needs_password" and "--obs-password" in str(missing.value)
    with FakeObs(password=None) as open_obs:  # a server without a password takes anyone
        assert ObsClient(open_obs.url).request("GetCurrentProgramScene")["sceneName"] == "Table"


def test_an_obs_not_there_and_a_failed_request():
    with pytest.raises(ObsError) as gone:
        ObsClient(f"ws://127.0.0.1:{free_port()}", "x", timeout=2).connect()
    assert gone.value.code == "obs_unreachable"
    with FakeObs() as obs:
        obs.failing.add("SaveReplayBuffer")
        with pytest.raises(ObsError) as failed:
            ObsClient(obs.url, obs.password).request("SaveReplayBuffer")
        assert failed.value.code == "obs_request_failed" and failed.value.values["status"] == 501
        assert "回放缓存" in failed.value.text("zh") and "replay buffer" in failed.value.text("en")


def test_the_client_connects_again_after_obs_restarts():
    with FakeObs() as obs:
        client = ObsClient(obs.url, obs.password)
        client.request("SaveReplayBuffer")
    with FakeObs(port=obs.port) as again:  # OBS closed and opened again: the old connection is gone
        client.request("SaveReplayBuffer")
        assert again.requests == [("SaveReplayBuffer", {})] and again.identified == 1
    client.close()


def test_cues_send_each_new_highlight_once_and_go_back_to_the_scene(tmp_path):
    store = Store(tmp_path / "obs.db")
    store.add_table("t9", header_json("t9"))
    store.append("t9", [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}])
    hub = Hub(store).start()
    said = []
    with FakeObs() as obs:
        cues = ObsCues(hub, {None: ObsTarget(obs.url, obs.password, "Replay", back_after=0.3)},
                       lambda code, **values: said.append(code)).start()
        try:
            store.append("t9", [BOMB])
            requests = obs.wait_for(3)
            assert requests[:3] == [("SaveReplayBuffer", {}), ("GetCurrentProgramScene", {}),
                                    ("SetCurrentProgramScene", {"sceneName": "Replay"})]
            requests = obs.wait_for(5)  # 0.3 s later: back to the scene it showed
            assert requests[3:] == [("GetCurrentProgramScene", {}), ("SetCurrentProgramScene", {"sceneName": "Table"})]
            assert said[:3] == ["obs_connected", "obs_saved", "obs_scene"]
            store.append("t9", [{"seq": 3, "t": 5, "type": "pass", "seat": "N"}])  # nothing new to show
            time.sleep(0.5)
            assert len(obs.requests) == 5 and cues.sent[0] == ("t9", "SaveReplayBuffer", {})
        finally:
            cues.stop()
            hub.stop()


def test_highlights_of_events_received_long_ago_are_not_cued(tmp_path):
    """A record loaded at once, or a server started on a match under way: its old bombs
    are no moment to save a replay of."""
    store = Store(tmp_path / "old.db")
    store.add_table("t9", header_json("t9"))
    store.append("t9", [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}, BOMB])
    hub = Hub(store)
    with FakeObs() as obs:
        cues = ObsCues(hub, {"t9": ObsTarget(obs.url, obs.password)})
        cues.clients[obs.url] = ObsClient(obs.url, obs.password)
        cues.cue_new(now=time.time() + 120)
        cues.cue_new()  # seen once: not cued later either
        assert obs.requests == [] and cues.cued == {"t9": {("bomb", 2)}}
    hub.stop()


# --- end to end: guandan serve --obs ------------------------------------------------------

def post(base: str, path: str, body: dict, token: str) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def sse_messages(response, until, timeout: float = 10.0):
    """The Server-Sent Events messages of an open ``response`` as (event, data, id), until
    ``until(messages)`` holds."""
    messages, event, data, ident = [], None, [], None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = response.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif line.startswith("id: "):
            ident = line[4:]
        elif line == "" and event is not None:
            messages.append((event, json.loads("\n".join(data)), ident))
            event, data, ident = None, [], None
            if until(messages):
                return messages
    raise AssertionError(f"not there after {timeout} s: {messages[-3:]}")


@pytest.fixture
def obs_server(tmp_path):
    """A fake OBS, and ``guandan serve --obs`` on a store with table t9 dealt: (base, token, obs)."""
    store = Store(tmp_path / "stream.db")
    store.add_user("li", "s3cret-pass")
    token = store.new_token("li")
    store.add_table("t9", header_json("t9"))
    store.append("t9", [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}])
    with FakeObs() as obs:
        proc, base = start_serve(str(store.path), 8, "--obs", obs.url, "--obs-password", obs.password,
                                "--obs-replay-scene", "Replay", "--lang", "en")
        try:
            yield base, token, obs
        finally:
            proc.terminate()
            out = proc.communicate(timeout=10)[0].decode()
            assert f"OBS {obs.url}: connected" in out


def test_a_bomb_is_on_the_overlays_stream_and_obs_saves_the_replay(obs_server):
    base, token, obs = obs_server
    with urllib.request.urlopen(base + "/api/tables/t9/stream", timeout=10) as stream:
        first = sse_messages(stream, lambda m: m)[0]
        assert first[0] == "snapshot" and first[1]["highlights"] == []
        post(base, "/api/tables/t9/events", {"events": [BOMB]}, token)
        got = sse_messages(stream, lambda m: m and m[-1][1]["snapshot"]["highlights"])
    (h,) = got[-1][1]["snapshot"]["highlights"]
    assert (h["kind"], h["seat"], h["size"], h["seq"]) == ("bomb", "E", 4, 2)
    assert h["title"] == {"zh": "4张炸弹", "en": "4-card bomb"}
    assert h["line"]["zh"] == "东家首出4张炸弹 9999"
    assert got[-1][1]["snapshot"]["ticker"][-1]["zh"] == "东家首出4张炸弹 9999"
    assert obs.wait_for(3)[:3] == [("SaveReplayBuffer", {}), ("GetCurrentProgramScene", {}),
                                   ("SetCurrentProgramScene", {"sceneName": "Replay"})]


def test_the_overlay_animates_a_bomb(obs_server, browser):
    base, token, obs = obs_server
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(base + "/overlay/t9?lang=zh")
    page.wait_for_selector("#o-E .o-count")
    post(base, "/api/tables/t9/events", {"events": [BOMB]}, token)
    banner = page.wait_for_selector('#o-highlight .hl[data-kind="bomb"]', timeout=5000)
    assert banner.inner_text().split("\n")[0] == "4张炸弹"
    assert "东家首出4张炸弹 9999" in banner.inner_text()
    assert page.evaluate("getComputedStyle(document.querySelector('#o-highlight .hl')).animationName") == "hl-show"
    assert len(page.query_selector_all("#o-highlight .hl-cards img.card")) == 4
    page.wait_for_timeout(900)  # sprung in, holding
    page.screenshot(path=str(ARTIFACTS / "overlay-highlight.png"), omit_background=True)
    assert page.inner_text("#o-ticker .tk-line:last-child") == "东家首出4张炸弹 9999"
    page.wait_for_selector("#o-highlight .hl", state="detached", timeout=8000)  # gone when the animation ends
    assert obs.wait_for(1)[0] == ("SaveReplayBuffer", {})
    page.close()
