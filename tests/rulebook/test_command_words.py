"""What the operator's commands refuse — the camera's (``VisionError``, a deck folder's
``DeckError``), ``guandan``'s own (``UserError``, an option's value) and the clock's
(``ClockUsageError``) — has its words in both languages (``rulebook.command_words``, joined
to ``rulebook.tournament_live.REFUSALS``): every code with the same values in each, given
wherever it is raised, no code taking another refusal's name, and what a library or an
alert says inside a refusal in each language's own words."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulebook.alerts import Alert
from rulebook.command_words import COMMAND_WORDS
from rulebook.engine_words import ENGINE_WORDS
from rulebook.i18n import EnrollProblem
from rulebook.tournament_live import REFUSALS, Refusal, refusal
from scorer.cli import UserError
from scorer.clock_cli import ClockUsageError, parse_usb
from tests.rulebook.test_tournament_refusals import fields, unworded
from vision.cli import VisionError
from vision.enroll.deck import Deck, DeckError

ROOT = Path(__file__).parents[2]


def test_every_command_code_has_chinese_and_english_with_the_same_values():
    for code, (zh, en) in COMMAND_WORDS.items():
        assert REFUSALS[code] == (zh, en), f"{code}: replaced in REFUSALS"
        assert any("\u4e00" <= c <= "\u9fff" for c in zh) and "\n" not in zh + en, code
        assert fields(zh) == fields(en), f"{code}: 中文 {fields(zh)}, English {fields(en)}"


def test_no_command_code_takes_another_refusals_name():
    """``REFUSALS`` starts from the engine's and the commands' words: a code written again
    below them would silently replace them."""
    tree = ast.parse((ROOT / "rulebook/tournament_live.py").read_text(encoding="utf-8"))
    literal = next(node.value for node in ast.walk(tree)
                   if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "REFUSALS")
    keys = {key.value for key in literal.keys if key is not None}
    assert not keys & set(COMMAND_WORDS) and not set(ENGINE_WORDS) & set(COMMAND_WORDS)


#: where the commands' refusals are raised by code
RAISED = [(f"vision/cli/{name}.py", {"VisionError"})
          for name in ("inputs", "calibrate", "detect", "enroll", "evaluate", "extras", "quantize", "render", "stage",
                       "train")]
RAISED += [("scorer/table_cli.py", {"VisionError"}), ("vision/enroll/deck.py", {"DeckError"}),
           ("scorer/cli.py", {"UserError", "refusal"}), ("scorer/clock_cli.py", {"ClockUsageError"}),
           ("scorer/serve_cli.py", {"refusal"})]


@pytest.mark.parametrize("path, names", RAISED)
def test_every_command_refusal_raised_has_words_for_its_values(path, names):
    assert unworded(path, names) == []


def test_every_command_code_is_raised_somewhere():
    """Words with no command left to say them are dead; a code handed on in a variable (the
    weights a training goes on from) counts where it is named."""
    sources = "".join(path.read_text(encoding="utf-8") for folder in ("vision/cli", "vision/enroll", "scorer")
                      for path in (ROOT / folder).glob("*.py"))
    assert [code for code in COMMAND_WORDS if f'"{code}"' not in sources and f"'{code}'" not in sources] == []


def test_the_commands_errors_are_refusals_in_both_languages_the_askers_first():
    assert all(issubclass(kind, Refusal) for kind in (VisionError, DeckError, UserError, ClockUsageError))
    error = VisionError("deck_with_reader")
    assert str(error) == "--deck 自带识牌模型：--deck 和 --reader 只能给一个 / " \
                         "--deck brings its own reader: give --deck or --reader, not both"
    assert error.text("en").startswith("--deck brings its own reader") and error.text("en").endswith("只能给一个")
    with pytest.raises(ClockUsageError) as caught:
        parse_usb("zz")
    assert caught.value.text("en") == ("--usb wants VID:PID or VID:PID:SERIAL in hex, got 'zz' / "
                                       "--usb 应为十六进制的 VID:PID 或 VID:PID:SERIAL，不是 'zz'")


def test_what_a_library_says_is_kept_as_a_value(tmp_path):
    """An OS error's strerror, a JSON parser's complaint: said as it was, inside each
    language's own words."""
    assert refusal("file_unwritable", "zh", path="a.jsonl", why="Permission denied") == (
        "a.jsonl：无法写入（Permission denied） / a.jsonl: cannot be written (Permission denied)")
    (tmp_path / "deck.json").write_text("{broken", encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        Deck.open(tmp_path)
    zh, en = caught.value.text("zh").split(" / ")
    assert zh.startswith(f"{tmp_path}/deck.json：无法读取（Expecting property name")
    assert en.startswith(f"{tmp_path}/deck.json: cannot be read (Expecting property name")


def test_an_alert_or_an_enrollment_problem_inside_a_refusal_is_in_each_languages_own_words():
    """``calibrate`` and ``enroll`` carry the markers' trouble (an operator's alert) and why a
    picture cannot teach a deck (``ENROLL``): neither half of the line mixes the languages."""
    missing = Alert.of("markers_missing", found=1, missing="0, 2, 3")
    zh, en = VisionError("calibration_failed", why=missing, picture="c.png").text("zh").split(" / ")
    assert zh.startswith("摄像头：只找到1个桌面标记（共4个，缺0, 2, 3号）")
    assert zh.endswith("（找到的内容画在 c.png 中）")
    assert en.startswith("camera: found 1 of the 4 table markers") and en.endswith("(what was found is drawn in c.png)")
    twice = EnrollProblem.of("enroll_twice", card="HR", place=54, expected="HR", picture="p.png")
    zh, en = VisionError("enroll_picture", why=twice).text("zh").split(" / ")
    assert zh.startswith("未能学牌：两个位置上都读到大王") and "big joker read in two places" in en
