"""Every message the web server and its command give a user is named by a code and worded by
the rule books (``rulebook.tournament_live.REFUSALS``) in both languages on one line: Chinese
first, English first with ``?lang=en`` (the API's ``{"error": …}``, the pages' error page,
the login form) or ``--lang en`` (``guandan serve``, ``user``, ``table``). Checked in the
code (every refusal has words for the values it is given; no route words one itself) and
through the real Flask test client and the real command."""

from __future__ import annotations

import ast
import html
import string
from pathlib import Path

import pytest

from engine.events import RecordError
from rulebook.tournament_live import REFUSALS, refusal
from scorer.cli import DEMO_RECORD, main
from store.referee_acts import REFEREE_ACTS, ActRefused
from tests.web.conftest import header_json
from tests.web.test_api import login

ROOT = Path(__file__).parents[2]


PASSED_ON = "exc.code"  # a coded error passed on with its values: worded where it was raised


def coded_calls(path: Path, names: set[str], position: int) -> list[tuple[int, str | None, set[str]]]:
    """Each call of ``names`` in ``path``: its line, its code (the argument at ``position``:
    the string written there, ``PASSED_ON``, or None for anything else) and the values it
    is given."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            arg = node.args[position] if len(node.args) > position else None
            code = arg.value if isinstance(arg, ast.Constant) else None
            if arg is not None and ast.unparse(arg) == PASSED_ON:
                code = PASSED_ON
            out.append((node.lineno, code, {k.arg for k in node.keywords}))
    return out


def fields(code: str) -> set[str]:
    return {field for text in REFUSALS[code] for _, field, _, _ in string.Formatter().parse(text) if field}


#: (the files, the calls that refuse, where the code is among their arguments)
REFUSING = [(sorted((ROOT / "web").glob("*.py")), {"refuse"}, 1),
            ([ROOT / "scorer/serve_cli.py"], {"ServeError"}, 0)]


@pytest.mark.parametrize("paths, names, position", REFUSING)
def test_every_refusal_of_the_server_has_words_for_its_values(paths, names, position):
    found = 0
    for path in paths:
        for line, code, values in coded_calls(path, names, position):
            if code == PASSED_ON:
                continue
            found += 1
            assert code in REFUSALS, f"{path.name}:{line}: {code} has no words"
            assert fields(code) <= values, f"{path.name}:{line}: {code} is given without {fields(code) - values}"
    assert found


def test_no_route_words_a_message_itself():
    """Routes refuse through ``web.i18n.refuse``: an ``abort`` with its own description
    would be in one language."""
    for path in sorted((ROOT / "web").glob("*.py")):
        aborts = [line for line, _, _ in coded_calls(path, {"abort"}, 0)]
        assert len(aborts) == (path.name == "i18n.py"), f"{path.name}: abort at line(s) {aborts}"


@pytest.mark.parametrize("method, url, body, auth, code, values", [
    ("get", "/api/tables/nope", None, False, "unknown_table", {"table": "nope"}),
    ("get", "/api/tables/1/events?after=x", None, False, "after_not_id", {}),
    ("get", "/api/tables/1/stream?delay=-1", None, False, "delay_range", {}),
    ("get", "/api/referee/queue?limit=many", None, False, "limit_not_count", {}),
    ("get", "/api/tables/1/frames/99.jpg", None, False, "no_frame", {"table": "1", "seq": 99}),
    ("get", "/api/tournaments/1", None, False, "no_tournament_here", {}),
    ("get", "/api/nowhere", None, False, "http_404", {}),
    ("delete", "/api/tables", None, False, "http_405", {}),
    ("post", "/api/tables", {"id": "t9", "header": header_json()}, False, "login_needed", {}),
    ("post", "/api/tables", [], True, "send_json", {}),
    ("post", "/api/tables", {"id": "t9"}, True, "table_body", {}),
    ("post", "/api/tables", {"id": "t9", "header": {"seq": 1, "t": 0, "type": "deal", "leader": "E"}}, True,
     "header_first", {}),
    ("post", "/api/tables/1/events", {"events": []}, True, "events_body", {}),
    ("post", "/api/tables/1/events", {"events": [header_json("1")]}, True, "event_header", {"i": 0}),
    ("post", "/api/tables/1/referee/bribe", {}, True, "no_act", {"act": "bribe", "acts": ", ".join(REFEREE_ACTS)}),
    ("put", "/api/referee/assignments", {"referee": "li", "tables": ["t7"]}, True, "unknown_table", {"table": "t7"}),
])
def test_the_apis_refusals_in_chinese_then_english(client, token, method, url, body, auth, code, values):
    headers = {"Authorization": f"Bearer {token}"} if auth else {}
    for lang in ("zh", "en"):
        asked = url + ("&" if "?" in url else "?") + "lang=en" if lang == "en" else url
        answer = getattr(client, method)(asked, json=body, headers=headers)
        assert answer.status_code >= 400 and answer.is_json, (asked, answer.status_code)
        said = answer.get_json()["error"]
        assert said == refusal(code, lang, **values)
        assert any("\u4e00" <= c <= "\u9fff" for c in said) and any(c.isascii() and c.isalpha() for c in said)


def shown(page) -> str:
    """An error page's text as a browser shows it."""
    return html.unescape(page.get_data(as_text=True))


def test_a_pages_error_in_the_askers_language_first(client):
    for lang, first in (("zh", "没有牌桌 'nope'"), ("en", "no table 'nope'")):
        page = client.get(f"/table/nope?lang={lang}")
        assert page.status_code == 404 and f">{first} / " in shown(page)
    page = client.get("/overlay/1?layout=tiny&lang=en")
    assert page.status_code == 400
    assert ">layout is full, compact, vertical (1080×1920) or square (1080×1080) / layout 应为 full" in shown(page)
    page = client.get("/nowhere")
    assert page.status_code == 404 and ">没有这个页面 / no such page<" in shown(page)


def test_the_login_forms_refusal_in_the_askers_language_first(client):
    for lang, said in (("zh", "用户名或密码错误 / wrong user or password"),
                       ("en", "wrong user or password / 用户名或密码错误")):
        form = client.get(f"/referee/login?lang={lang}").get_data(as_text=True)
        csrf = form.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
        answer = client.post(f"/referee/login?lang={lang}", data={"user": "li", "password": "wrong-one",
                                                                  "csrf_token": csrf})
        assert answer.status_code == 401 and said in answer.get_data(as_text=True)


def test_the_commands_refusals_in_chinese_then_english(tmp_path, capsys):
    missing = str(tmp_path / "nowhere.db")
    assert main(["user", "token", "li", "--db", missing]) == 2
    assert capsys.readouterr().err == f"guandan: {refusal('no_store', 'zh', path=missing)}\n"
    assert main(["user", "token", "li", "--db", missing, "--lang", "en"]) == 2
    said = capsys.readouterr().err
    assert said == f"guandan: {missing}: no such store (create it with 'guandan table load' or 'guandan user add') / " \
                   f"{missing}：没有这个存储（请先用 'guandan table load' 或 'guandan user add' 创建）\n"
    assert main(["table", "load", str(tmp_path / "gone.jsonl"), "--db", missing, "--lang", "en"]) == 2
    assert capsys.readouterr().err.startswith(f"guandan: {tmp_path / 'gone.jsonl'}: no such file / ")
    store = str(tmp_path / "s.db")
    assert main(["table", "load", str(DEMO_RECORD), "--id", "桌 9", "--db", store, "--lang", "en"]) == 2  # the store's
    assert capsys.readouterr().err.startswith("guandan: a table id is 1-40 letters, digits, - or _, got '桌 9' / 牌桌")


# --- what the engine refuses, through the API, the console's form and the table page ---------

@pytest.mark.parametrize("act, body, code, values, zh", [
    # the act aims at a line that is not a play: the store's check (store.referee_acts)
    ("correction", {"target": 1, "cards": ["S8"], "why": "x"}, "act_refused",
     {"table": "1", "why": ActRefused("act_target", target=1)}, "牌桌 1：第1条不是本桌记录中的出牌或过牌"),
    # a card the referee typed wrong: the engine's own (engine.cards)
    ("missed", {"seat": "N", "cards": ["S5", "X5"], "why": "x"}, "act_refused",
     {"table": "1", "why": RecordError("card_unknown", text="X5")},
     "牌桌 1：不是牌：'X5'（花色 S/H/C/D 加点数 2-9 T J Q K A；大小王为 HR/SB）"),
    # the demo match is over: the record would not replay with the act (engine.match)
    ("level_adjust", {"side": "NS", "levels": -1, "why": "penalty"}, "record_would_break",
     {"why": RecordError("after_end", event="level_adjust")},
     "这样记录将无法复盘：比赛已结束，之后不能再有 'level_adjust'"),
])
def test_a_referees_refused_act_in_chinese_then_english(client, token, act, body, code, values, zh):
    auth = {"Authorization": f"Bearer {token}"}
    chinese = client.post(f"/api/tables/1/referee/{act}", json=body, headers=auth)
    english = client.post(f"/api/tables/1/referee/{act}?lang=en", json=body, headers=auth)
    assert chinese.status_code == english.status_code == 400
    assert chinese.get_json()["error"] == refusal(code, "zh", **values)
    assert english.get_json()["error"] == refusal(code, "en", **values)
    assert chinese.get_json()["error"].startswith(zh + " / ")
    assert english.get_json()["error"].endswith(" / " + zh)


def test_a_card_typed_wrong_at_the_consoles_form_in_the_referees_language(client):
    assert login(client)[0].status_code == 302
    console = client.get("/referee").get_data(as_text=True)
    csrf = console.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    form = {"csrf_token": csrf, "table": "1", "act": "correction", "target": "2", "cards": "S5 x5", "why": "x"}
    for lang, first, second in (
            ("zh", "牌有误：不是牌：'x5'（花色 S/H/C/D 加点数 2-9 T J Q K A；大小王为 HR/SB）",
             "not cards: not a card: 'x5' (suit S/H/C/D then rank 2-9 T J Q K A, or SB/HR for the jokers)"),
            ("en", "not cards: not a card: 'x5'", "牌有误：不是牌：'x5'")):
        page = client.post(f"/referee/act?lang={lang}", data=form)
        assert page.status_code == 400 and f">{first}" in shown(page) and f" / {second}" in shown(page)


def test_the_table_pages_record_error_in_each_language(client, store):
    """A writer that checks nothing stored a deal in the middle of a hand: the snapshot says
    where the record breaks, in each language, for the page to show its own."""
    store.add_table("t9", header_json())
    store.append("t9", [{"seq": 1, "t": 1, "type": "deal", "leader": "E"},
                        {"seq": 2, "t": 2, "type": "deal", "leader": "E"}])
    snap = client.get("/api/tables/t9").get_json()
    assert snap["error_text"] == {"zh": "第2条：上一副牌还没打完，不能发牌",
                                  "en": "seq 2: a deal while the previous hand is still being played"}
    assert snap["error"] == snap["error_text"]["en"]  # the log's
