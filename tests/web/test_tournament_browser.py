"""The tournament page and its overlay in a real headless Chromium against the real server
(``guandan serve``, waitress, SSE) on a database holding the hall and the tournament: a
result arriving shows live as provisional, a referee confirms it on the page, the standings
shown are what ``guandan tournament standings --json`` says, and the overlay turns pages.
A visitor's page (in Chinese and in English) and the overlay show a result the stream
pushes without fetching anything again."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import urllib.request
from urllib.parse import urlsplit

import cv2
import pytest

from engine.bots import self_play
from engine.record import dumps
from engine.tournament import Pair, Tournament
from rulebook import profiles
from store import tournament_desk as desk
from store.tournament_store import TournamentStore
from tests.web.conftest import ARTIFACTS, PASSWORD
from tests.web.test_browser import post
from tests.web.test_tournament import ROOT


@pytest.fixture
def tournament(store):
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 7)]
    with TournamentStore.open(store.path, create=True) as t_store:
        t_store.save_tournament(Tournament("公司杯", "swiss", 2, profiles.load("linquan"), 7, pairs), "linquan")
        desk.draw_next(t_store, None, "裁判长")
    return store.path


def cli_standings(db: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "scorer.cli", "tournament", "standings", "--json", "--db", db],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_result_shows_live_and_a_referee_confirms_it_on_the_page(tournament, server, browser, token):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(server + "/referee/login?next=/tournament/1")
    page.fill('input[name="user"]', "li")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_selector("#draw tr.state-playing")
    assert page.locator("#standings tbody tr").count() == 6
    record = dumps(self_play(profiles.load("linquan"), random.Random(5), max_hands=3))
    post(server, "/api/tournaments/1/results", {"table": 1, "record": record, "source": "hall:1"}, token)
    page.wait_for_selector('#draw tr.state-provisional[data-table="1"] button.t-confirm', timeout=10_000)
    assert "待确认" in page.inner_text('#draw tr[data-table="1"]')
    page.click('#draw tr[data-table="1"] button.t-confirm')
    page.wait_for_selector('#draw tr.state-final[data-table="1"]', timeout=10_000)
    assert "已确认" in page.inner_text('#draw tr[data-table="1"]')
    shown = [cell.split(" ")[0] for cell in page.locator("#standings tbody td.c-pair").all_inner_texts()]
    assert shown == [row["pair"] for row in cli_standings(tournament)]
    assert page.is_disabled("button.t-draw") and "未完赛 2 桌" in page.inner_text("#t-queue")
    page.screenshot(path=str(ARTIFACTS / "tournament-page.png"), full_page=True)
    with urllib.request.urlopen(server + "/api/tournaments/1/draws?round=1", timeout=10) as answer:
        others = json.loads(answer.read())[0]["tables"][1:]
    for line in others:
        post(server, "/api/tournaments/1/results", {"table": line["table"], "pairs": [line["ns"], line["ew"]],
                                                    "levels": ["K", "7"]}, token)
    page.wait_for_selector("button.t-draw:not([disabled])", timeout=10_000)
    page.click("button.t-draw")
    page.wait_for_selector("text=第2轮对阵", timeout=10_000)
    assert page.locator("#draw tr.state-playing").count() == 3


def test_a_referees_buttons_wait_for_the_pages_script(tournament, server, browser, token):
    """A press on a button its script has not bound yet would be lost without a word (the hall
    test's referee pressed one on a loaded machine): the page comes with its buttons disabled,
    and they come alive when the script is in."""
    record = dumps(self_play(profiles.load("linquan"), random.Random(5), max_hands=1))
    post(server, "/api/tournaments/1/results", {"table": 1, "record": record, "source": "hall:1"}, token)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    held = []
    page.route("**/static/tournament.js", lambda route: held.append(route))
    page.goto(server + "/referee/login?next=/tournament/1")
    page.fill('input[name="user"]', "li")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_selector('#draw tr[data-table="1"] button.t-confirm', state="attached", timeout=10_000)
    page.wait_for_function("document.readyState === 'interactive'", timeout=10_000)
    assert held and page.is_disabled('#draw tr[data-table="1"] button.t-confirm') and page.is_disabled("button.t-draw")
    held[0].continue_()
    page.click('#draw tr[data-table="1"] button.t-confirm')
    page.wait_for_selector('#draw tr.state-final[data-table="1"]', timeout=10_000)
    page.close()


def test_the_standings_overlay_is_transparent_and_turns_its_pages(tournament, server, browser):
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(server + "/overlay/tournament/1?top=4&seconds=2&lang=en")
    page.wait_for_selector('#board[data-page="1"] td.c-rank')
    assert page.locator("#board tbody tr").count() == 4 and "Standings" in page.inner_text("#board")
    shot = ARTIFACTS / "tournament-overlay-1920x1080.png"
    page.screenshot(path=str(shot), omit_background=True)
    alpha = cv2.imread(str(shot), cv2.IMREAD_UNCHANGED)[:, :, 3]
    assert alpha.shape == (1080, 1920) and alpha[540, 200] == 0 and (alpha > 0).mean() > 0.02
    page.wait_for_selector('#board[data-page="2"]', timeout=5_000)
    assert page.locator("#board tbody tr").count() == 2 and "page 2 of 2" in page.inner_text("#board")


def fetched(page, paths: list[str]) -> list[str]:
    """Record the paths of ``page``'s requests (the page itself, scripts, its stream, fetches) into ``paths``."""
    page.on("request", lambda r: paths.append(urlsplit(r.url).path))
    return paths


def test_a_visitors_page_shows_a_pushed_result_with_nothing_fetched_again(tournament, server, browser, token):
    pages, asked = {}, []
    for lang in ("zh", "en"):
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        fetched(page, asked)
        page.goto(server + f"/tournament/1?lang={lang}")
        page.wait_for_selector("#draw tr.state-playing")
        pages[lang] = page
    with urllib.request.urlopen(server + "/api/tournaments/1/draws?round=1", timeout=10) as answer:
        line = json.loads(answer.read())[0]["tables"][0]
    post(server, "/api/tournaments/1/results", {"table": line["table"], "pairs": [line["ns"], line["ew"]],
                                                "levels": ["A", "5"]}, token)
    for page in pages.values():
        page.wait_for_selector(f'#draw tr.state-final[data-table="{line["table"]}"]', timeout=10_000)
    row = f'#draw tr[data-table="{line["table"]}"]'
    assert "已确认" in pages["zh"].inner_text(row) and "final" in pages["en"].inner_text(row)
    ranked = [row["pair"] for row in cli_standings(tournament)]
    for lang, page in pages.items():
        assert [c.split(" ")[0] for c in page.locator("#standings tbody td.c-pair").all_inner_texts()] == ranked
        fresh = browser.new_page(viewport={"width": 1200, "height": 900})
        fresh.goto(server + f"/tournament/1?lang={lang}")
        assert page.inner_text("#tournament") == fresh.inner_text("#tournament")  # as a fresh load shows it
        fresh.close()
    assert asked.count("/tournament/1") == 2  # each page loaded once: the result came in the stream
    assert asked.count("/api/tournaments/1/stream") == 2


def test_the_overlay_is_pushed_the_new_standings(tournament, server, browser, token):
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    asked = fetched(page, [])
    page.goto(server + "/overlay/tournament/1?top=8")
    page.wait_for_selector('#board[data-page="1"] td.c-rank')
    with urllib.request.urlopen(server + "/api/tournaments/1/draws?round=1", timeout=10) as answer:
        line = json.loads(answer.read())[0]["tables"][0]
    post(server, "/api/tournaments/1/results", {"table": line["table"], "forfeit": line["ew"]}, token)
    with urllib.request.urlopen(server + "/api/tournaments/1/standings", timeout=10) as answer:
        rows = json.loads(answer.read())["rows"]
    expected = "|".join(f"{r['rank']} {r['name']} {r['points']}" for r in rows)
    page.wait_for_function("""want => [...document.querySelectorAll('#board tbody tr')].map(tr =>
        [...tr.querySelectorAll('td')].slice(0, 3).map(td => td.textContent).join(' ')).join('|') === want""",
                           arg=expected, timeout=10_000)
    assert any(r["points"] for r in rows) and "积分" in page.inner_text("#board")
    assert asked.count("/api/tournaments/1/standings") == 1  # the first load's: then pushed
