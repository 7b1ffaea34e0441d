"""Every refusal a tournament's asker can meet — the engine's, the desk's, the command
line's, a rule profile's, the stores' — has its words in both languages, Chinese first by
default, the asker's first otherwise, on one line."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from engine.profile import ProfileError
from rulebook import profiles
from rulebook.tournament_live import REFUSALS, refusal
from store.event_store import Store, StoreError

ROOT = Path(__file__).parents[2]
#: where refusals are raised by code: (the module, the exceptions it raises so)
RAISED = (("engine/tournament.py", {"TournamentError"}), ("store/tournament_desk.py", {"Refused"}),
          ("scorer/tournament_cli.py", {"TournamentError", "PairsFileError"}),
          ("engine/profile.py", {"ProfileError"}), ("rulebook/profiles/__init__.py", {"BadProfile"}),
          ("store/db.py", {"OpenError"}), ("store/tournament_store.py", {"StoreError"}),
          ("store/event_store.py", {"StoreError", "SeqTaken"}), ("hall/acts.py", {"StoreError"}),
          ("table/runtime.py", {"SeqTaken"}))


def raised(path: str, names: set[str]) -> dict[str, set[str]]:
    """Each code raised in ``path`` with the values given with it."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names \
                and node.args and isinstance(node.args[0], ast.Constant):
            out.setdefault(node.args[0].value, set()).update(k.arg for k in node.keywords)
    return out


def fields(text: str) -> set[str]:
    """The values a wording names."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def unworded(path: str, names: set[str]) -> list[str]:
    """What is amiss with the refusals ``path`` raises by code through ``names``: none found,
    a code with no words, or one raised without a value its words name."""
    codes = raised(path, names)
    if not codes:
        return [f"no refusal raised by code in {path}"]
    return ([f"{path}: {code} has no words" for code in codes if code not in REFUSALS]
            + [f"{path}: {code} is raised without {fields(text) - values}" for code, values in codes.items()
               for text in REFUSALS.get(code, ()) if not fields(text) <= values])


@pytest.mark.parametrize("path, names", RAISED)
def test_every_refusal_raised_has_words_for_its_values(path, names):
    assert unworded(path, names) == []


def test_a_refusal_is_one_line_in_both_languages_the_askers_first():
    values = {"round": 2, "next": 3, "table": 4}
    assert refusal("winner_fixed", **values) == (
        "第3轮已编排：第4桌的胜方不能再改（更正不改变已公布的编排） / "
        "round 3 is drawn already: the winner of table 4 can no longer change")
    assert refusal("winner_fixed", "en", **values).startswith("round 3 is drawn already")
    for zh, en in REFUSALS.values():
        assert "\n" not in zh + en and any("\u4e00" <= c <= "\u9fff" for c in zh)


def test_a_profile_error_inside_a_refusal_is_in_each_languages_own_words():
    """A record naming an unknown profile: the desk's refusal carries the profile's, and
    neither half of the line mixes the languages."""
    with pytest.raises(ProfileError) as caught:
        profiles.load("moon")
    line = refusal("record_broken", "en", why=caught.value)
    en, zh = line.split(" / ")
    assert en.startswith("the record cannot be replayed: moon: no such profile; bundled profiles are jiangsu")
    assert zh.startswith("记录无法复盘：moon：没有这个规则；内置规则为 jiangsu")


def test_the_stores_errors_read_in_both_languages_chinese_first_unless_asked():
    with pytest.raises(StoreError) as caught:
        Store(":memory:").add_user("王 五", "long enough")
    assert str(caught.value) == ("用户名须为1–40个字母、数字、- 或 _，不是 '王 五' / "
                                 "a user name is 1-40 letters, digits, - or _, got '王 五'")
    assert caught.value.text("en").startswith("a user name is 1-40 letters")
