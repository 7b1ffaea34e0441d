"""Every refusal a tournament's asker can meet — the engine's, the desk's, the command
line's — has its words in both languages, Chinese first by default, the asker's first
otherwise, on one line."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from rulebook.tournament_live import REFUSALS, refusal

ROOT = Path(__file__).parents[2]
#: where refusals are raised by code: (the module, the exceptions it raises so)
RAISED = (("engine/tournament.py", {"TournamentError"}), ("store/tournament_desk.py", {"Refused"}),
          ("scorer/tournament_cli.py", {"TournamentError", "PairsFileError"}))


def raised(path: str, names: set[str]) -> dict[str, set[str]]:
    """Each code raised in ``path`` with the values given with it."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse((ROOT / path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names \
                and node.args and isinstance(node.args[0], ast.Constant):
            out.setdefault(node.args[0].value, set()).update(k.arg for k in node.keywords)
    return out


@pytest.mark.parametrize("path, names", RAISED)
def test_every_refusal_raised_has_words_for_its_values(path, names):
    codes = raised(path, names)
    assert codes, f"no refusal found in {path}"
    for code, values in codes.items():
        assert code in REFUSALS, f"{path}: {code} has no words"
        for text in REFUSALS[code]:
            wanted = {field for _, field, _, _ in string.Formatter().parse(text) if field}
            assert wanted <= values, f"{path}: {code} is raised without {wanted - values}"


def test_a_refusal_is_one_line_in_both_languages_the_askers_first():
    values = {"round": 2, "next": 3, "table": 4}
    assert refusal("winner_fixed", **values) == (
        "第3轮已编排：第4桌的胜方不能再改（更正不改变已公布的编排） / "
        "round 3 is drawn already: the winner of table 4 can no longer change")
    assert refusal("winner_fixed", "en", **values).startswith("round 3 is drawn already")
    for zh, en in REFUSALS.values():
        assert "\n" not in zh + en and any("\u4e00" <= c <= "\u9fff" for c in zh)
