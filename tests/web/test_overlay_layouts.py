"""The OBS overlay's layouts in headless Chromium at their sizes — full and compact
1920×1080, vertical 1080×1920, square 1080×1080 (phone-shaped streams) — with every seat's
play on the table (one of eight cards), a highlight's banner, the ticker and the win chance
showing, long names, in 中文 and English: every element's box lies inside the picture, nothing scrolls.
The screenshots of the phone layouts are docs/img/overlay-vertical.png and
overlay-square.png."""

from __future__ import annotations

import pytest

from tests.web.conftest import ARTIFACTS, header_json
from tests.web.test_obs import post

SIZES = {"full": (1920, 1080), "compact": (1920, 1080), "vertical": (1080, 1920), "square": (1080, 1080)}
PLAYERS = {"E": "欧阳娜娜娜娜", "N": "Alexandria Featherstonehaugh", "W": "Bot W", "S": "司马相如"}
TRICK = [
    {"seq": 2, "t": 3, "type": "play", "seat": "E", "cards": ["S3", "H3", "C3", "D3"]},
    {"seq": 3, "t": 4, "type": "pass", "seat": "N"},
    {"seq": 4, "t": 5, "type": "pass", "seat": "W"},
    {"seq": 5, "t": 6, "type": "pass", "seat": "S"},
    {"seq": 6, "t": 8, "type": "play", "seat": "E", "cards": ["S4", "H5", "C6", "D7", "S8"]},
    {"seq": 7, "t": 9, "type": "play", "seat": "N", "cards": ["S5", "H6", "C7", "D8", "S9"]},
    {"seq": 8, "t": 11, "type": "play", "seat": "W", "cards": ["S6", "H7", "C8", "D9", "ST"]},
    {"seq": 9, "t": 14, "type": "play", "seat": "S", "cards": ["SJ", "SJ", "HJ", "HJ", "CJ", "CJ", "DJ", "DJ"]},
]
#: the boxes of every drawn element of the stage that lie outside the page (none, if nothing is cut off)
OUTSIDE = """([w, h]) => [...document.querySelectorAll('#stage, #stage *')].map(el => {
  const r = el.getBoundingClientRect();
  return {el: el.id || el.className || el.tagName, l: r.left, t: r.top, r: r.right, b: r.bottom,
          w: r.width, h: r.height};
}).filter(r => r.w > 0 && r.h > 0 && (r.l < -0.5 || r.t < -0.5 || r.r > w + 0.5 || r.b > h + 0.5))"""


@pytest.fixture
def live(server, token):
    """``guandan serve`` with table lay dealt, its players' names long."""
    header = header_json("lay", "jiangsu") | {"players": PLAYERS}
    post(server, "/api/tables", {"id": "lay", "header": header}, token)
    post(server, "/api/tables/lay/events", {"events": [{"seq": 1, "t": 1, "type": "deal", "leader": "E"}]}, token)
    return server


@pytest.mark.parametrize("layout, lang", [("full", "zh"), ("compact", "en"), ("vertical", "zh"), ("vertical", "en"),
                                          ("square", "zh"), ("square", "en")])
def test_each_layout_fits_its_picture(live, browser, token, layout, lang):
    width, height = SIZES[layout]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{live}/overlay/lay?layout={layout}&lang={lang}")
    page.wait_for_selector("#o-E .o-count")
    post(live, "/api/tables/lay/events", {"events": TRICK}, token)  # played once the page follows the table
    page.wait_for_selector('#o-highlight .hl[data-kind="bomb"]', timeout=5000)
    page.evaluate("document.getAnimations().forEach(a => { a.pause(); a.currentTime = 1500; })")  # held in view
    page.wait_for_function("document.querySelectorAll('#o-S .o-play img.card').length === 8")
    page.wait_for_function("[...document.images].every(img => img.complete)")
    assert page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]") == [
        width, height]
    assert page.evaluate(OUTSIDE, [width, height]) == []
    assert page.query_selector("#o-highlight .hl") is not None
    assert page.query_selector("#o-winchance:not([hidden]) .wc-bar") is not None  # the win chance, inside too
    lines = page.query_selector_all("#o-ticker .tk-line")
    assert len(lines) == (2 if layout == "square" else 3)
    assert ("打出8张炸弹" if lang == "zh" else "8-card bomb") in lines[-1].inner_text()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    page.screenshot(path=str(ARTIFACTS / f"overlay-{layout}-{lang}.png"), omit_background=True)
    page.close()
