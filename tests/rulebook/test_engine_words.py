"""What the engine refuses — a broken record, a card or a level named wrong, a play that is
not a reading of its cards — has its words in both languages (``rulebook.engine_words``,
joined to ``rulebook.tournament_live.REFUSALS``): every code, with the values its words need
given wherever it is raised, the English the engine's own ``str``, and a record's error
inside a refusal in each language's own words."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.cards import InvalidCard, parse_card
from engine.event_base import AT_LINE
from engine.events import RecordError, event_from_json
from engine.plays import InvalidPlay
from rulebook.engine_words import CHINESE, ENGINE_WORDS
from rulebook.i18n import alert_text
from rulebook.tournament_live import REFUSALS, refusal, refusal_in_each
from tests.rulebook.test_tournament_refusals import fields, unworded

ROOT = Path(__file__).parents[2]
ENGLISH = {**RecordError.ENGLISH, **InvalidPlay.ENGLISH}


def has_chinese(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


def test_every_engine_code_has_chinese_and_english_with_the_same_values():
    assert set(InvalidCard.ENGLISH) <= set(RecordError.ENGLISH)  # a card named wrong in a record keeps its code
    assert set(CHINESE) == set(ENGLISH) == set(ENGINE_WORDS)
    for code, (zh, en) in ENGINE_WORDS.items():
        assert REFUSALS[code] == (zh, en) and en == ENGLISH[code], code
        assert has_chinese(zh) and "\n" not in zh + en, code
        assert fields(zh) == fields(en), f"{code}: 中文 {fields(zh)}, English {fields(en)}"


def test_no_other_refusal_takes_an_engine_codes_name():
    """``REFUSALS`` starts from the engine's words: a code written again below them would
    silently replace them."""
    tree = ast.parse((ROOT / "rulebook/tournament_live.py").read_text(encoding="utf-8"))
    literal = next(node.value for node in ast.walk(tree)
                   if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "REFUSALS")
    keys = [key.value for key in literal.keys if key is not None]
    assert len(keys) == len(set(keys)) and not set(keys) & set(ENGINE_WORDS)


#: where the engine's errors (and the refusals that carry them up) are raised by code
RAISED = (("engine/events.py", {"RecordError"}), ("engine/match.py", {"RecordError"}),
          ("engine/record.py", {"RecordError"}), ("engine/referee_events.py", {"RecordError"}),
          ("engine/cards.py", {"InvalidCard"}), ("engine/plays.py", {"InvalidPlay"}),
          ("store/referee_acts.py", {"ActRefused"}), ("hall/ingest.py", {"HallError"}),
          ("web/snapshot.py", {"RecordError"}), ("scorer/cli.py", {"Refusal"}))


@pytest.mark.parametrize("path, names", RAISED)
def test_every_engine_error_raised_has_words_for_its_values(path, names):
    assert unworded(path, names) == []


def test_the_engine_still_says_its_errors_in_english_for_logs():
    with pytest.raises(InvalidCard) as caught:
        parse_card("X5")
    assert str(caught.value) == "not a card: 'X5' (suit S/H/C/D then rank 2-9 T J Q K A, or SB/HR for the jokers)"
    with pytest.raises(RecordError) as caught:
        event_from_json({"seq": 4, "t": 13, "type": "pass", "seat": "X"})
    assert str(caught.value) == "'seat' must be one of E, S, W, N, got 'X'"
    assert str(RecordError(AT_LINE, line=7, why=caught.value)) == "line 7: 'seat' must be one of E, S, W, N, got 'X'"


def test_a_records_error_inside_a_refusal_is_in_each_languages_own_words():
    """A card mistyped in a record, found at its line, carried up by the desk's refusal:
    neither half of the line mixes the languages."""
    with pytest.raises(RecordError) as caught:
        event_from_json({"seq": 2, "t": 1, "type": "tribute", "seat": "E", "card": "X5"})
    broken = RecordError(AT_LINE, line=3, why=caught.value)
    zh, en = refusal("record_broken", "zh", why=broken).split(" / ")
    assert zh == ("记录无法复盘：第3行：'card' 中的牌有误：不是牌：'X5'"
                  "（花色 S/H/C/D 加点数 2-9 T J Q K A；大小王为 HR/SB）")
    assert en == "the record cannot be replayed: " + str(broken)
    assert refusal_in_each("record_breaks_at", seq=5, why=RecordError("deal_in_hand")) == {
        "zh": "第5条：上一副牌还没打完，不能发牌", "en": "seq 5: a deal while the previous hand is still being played"}


def test_an_operators_alert_words_the_records_refusal_in_its_language():
    """The table's runtime refuses an act another writer put in its record: the operator
    reads why in the console's language."""
    why = RecordError("after_end", event="missed")
    assert alert_text("outside_refused", "zh", seq=9, why=why).startswith(
        "记录中第9条（裁判或其他写入方所记）与本桌摄像头的记录接不上，未采用：比赛已结束，之后不能再有 'missed'；")
    assert "was not taken: 'missed' after the match ended;" in alert_text("outside_refused", "en", seq=9, why=why)
