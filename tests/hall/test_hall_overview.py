"""The hall server's overview page (``/``, the hall's tables) during a tournament: each
table's card shows the two pairs the round's draw seats there — the seating the hall keeps
as it sends it to the tables (``store.seatings``), as the hall's own table pages show it —
and, live, without a reload, the next round's pairs once it is drawn.

The real programs: Mosquitto and ``guandan hall serve --web`` as processes, the tournament
made and drawn through the desk as ``guandan tournament`` does, a table node publishing two
tables' records, results entered and round 2 drawn over the API, the page in headless
Chromium."""

from __future__ import annotations

import signal

from hall.broker import parse_broker
from hall.node import Node
from hall.outbox import Outbox
from tests.hall.broker import needs_mosquitto
from tests.hall.conftest import HALL, match, wait_for
from tests.hall.test_cli import _listening
from tests.hall.test_tournament_e2e import api
from tests.hall.tournament_hall import hall_with_round_one
from tests.web.conftest import ARTIFACTS


def card_pairs(table: str, lang: str = "zh") -> str:
    """The selector of the pairs on ``table``'s card of the hall page."""
    return f'.hall-card:has(a[href="/table/{table}?lang={lang}"]) .hall-pairs'


def said(ns: str, ew: str, lang: str = "zh") -> str:
    """The pairs as a card shows them (a pair ``pN`` is named 第N队)."""
    sides = ("南北方", "东西方") if lang == "zh" else ("North-South", "East-West")
    return f"{sides[0]} 第{ns[1:]}队 {ns} · {sides[1]} 第{ew[1:]}队 {ew}"


@needs_mosquitto
def test_the_halls_overview_shows_the_pairs_drawn_at_each_table(tmp_path, broker, browser, nodes):
    hall = hall_with_round_one(tmp_path, broker.url)
    base, web, token, server = hall.base, hall.web, hall.token, hall.server
    t1, t2 = hall.tables
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    try:
        node = Node(parse_broker(broker.url), Outbox(tmp_path / "outbox.db"), ["1", "2"], hall=HALL,
                    name="tables").start()
        nodes.append(node)
        node.publish_many((table, event) for table in ("1", "2") for event in match(table, seed=int(table))[:2])
        wait_for(lambda: _listening(web), 30, "the hall server's pages")
        wait_for(lambda: {"1", "2"} <= {t["table"] for t in api(base, "/api/tables")[1]}, 20, "both tables up")

        page.goto(f"{base}/")  # Chinese by default
        for number, drawn in (("1", t1), ("2", t2)):
            page.wait_for_selector(card_pairs(number))
            assert page.inner_text(card_pairs(number)) == said(drawn.ns, drawn.ew)

        # round 1's results entered, round 2 drawn: the cards show its pairs, live
        for number, drawn in ((1, t1), (2, t2)):
            status, _ = api(base, "/api/tournaments/1/results", token,
                            {"table": number, "pairs": [drawn.ns, drawn.ew], "levels": ["A+", "9"]})
            assert status == 201
        status, next_round = api(base, "/api/tournaments/1/draws", token, {})
        assert status == 201 and next_round["round"] == 2
        for tb in next_round["tables"]:
            page.wait_for_selector(f'{card_pairs(str(tb["table"]))}:has-text("{said(tb["ns"], tb["ew"])}")')
        page.screenshot(path=str(ARTIFACTS / "hall-overview-pairs.png"), full_page=True)

        page.goto(f"{base}/?lang=en")
        first = next_round["tables"][0]
        page.wait_for_selector(card_pairs("1", "en"))
        assert page.inner_text(card_pairs("1", "en")) == said(first["ns"], first["ew"], "en")
    finally:
        page.close()
        server.send_signal(signal.SIGINT)
        output = server.communicate(timeout=30)[0]
    assert "Traceback" not in output
