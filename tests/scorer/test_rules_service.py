"""``guandan rules``: the JSON-lines service, driven as a real subprocess."""

import json
import subprocess
import sys

import pytest

from scorer.rules_service import handle


def ask(requests: list) -> list[dict]:
    """Run the real command with one request per line; return its answers."""
    text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    out = subprocess.run([sys.executable, "-m", "scorer.cli", "rules"], input=text, capture_output=True,
                         text=True, timeout=60, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_one_answer_per_request_in_order_and_bad_requests_do_not_stop_it():
    answers = ask([
        {"op": "classify", "level": "2", "cards": ["H2", "S4", "C5", "D6", "S7"], "id": 1},
        "{not json",
        {"op": "classify", "level": "2", "cards": ["S5", "S5", "S5"]},
        {"op": "dance", "level": "2"},
        {"op": "tribute", "level": "5", "hand": ["H5", "S5", "SA", "D3"], "profile": "linyi"},
    ])
    assert len(answers) == 5
    assert answers[0] == {"ok": True, "id": 1, "readings": [
        ["Straight", "3", ["H2", "S4", "C5", "D6", "S7"]], ["Straight", "4", ["H2", "S4", "C5", "D6", "S7"]]]}
    assert answers[1]["ok"] is False and "JSON" in answers[1]["error"]
    assert answers[2]["ok"] is False and "3 times" in answers[2]["error"]
    assert answers[3]["ok"] is False and "unknown op" in answers[3]["error"]
    assert answers[4] == {"ok": True, "cards": ["S5"]}


def test_classify_no_combination_is_an_empty_list():
    assert handle({"op": "classify", "level": "2", "cards": ["SB", "HR"]}) == {"ok": True, "readings": []}


@pytest.mark.parametrize("req,beats,reading", [
    ({"play": ["S9", "D9"], "prev": ["S8", "C8"]}, True, ["Pair", "9", ["S9", "D9"]]),
    ({"play": ["S7", "D7"], "prev": ["S8", "C8"]}, False, None),
    ({"play": ["H2", "S4", "C5", "D6", "S7"], "prev": ["Straight", "3", ["S3", "C4", "D5", "S6", "H7"]]},
     True, ["Straight", "4", ["H2", "S4", "C5", "D6", "S7"]]),
    ({"play": ["S3", "H3", "D3", "C3"], "prev": ["HR"]}, True, ["Bomb", "3", ["S3", "H3", "C3", "D3"]]),
    ({"play": ["S3"], "prev": None}, True, ["Single", "3", ["S3"]]),
])
def test_beats(req, beats, reading):
    answer = handle({"op": "beats", "level": "2", **req})
    assert answer == {"ok": True, "beats": beats, "reading": reading}


def test_legal_on_a_lead_and_after_a_play():
    lead = handle({"op": "legal", "level": "2", "hand": ["S9", "D9", "SB"], "prev": None})
    assert lead["plays"] == [["Single", "9", ["S9"]], ["Single", "9", ["D9"]], ["Single", "B", ["SB"]],
                             ["Pair", "9", ["S9", "D9"]]]
    after = handle({"op": "legal", "level": "2", "hand": ["S9", "D9", "SB"], "prev": ["Single", "A", ["SA"]]})
    assert after["plays"] == [["Single", "B", ["SB"]]]


def test_tribute_is_never_the_heart_wildcard():
    assert handle({"op": "tribute", "level": "5", "hand": ["H5", "SA", "CA", "D3"]})["cards"] == ["SA", "CA"]
    assert handle({"op": "tribute", "level": "5", "hand": ["H5", "HR", "SB"]})["cards"] == ["HR"]


@pytest.mark.parametrize("req,message", [
    ({"op": "classify", "cards": ["S5"]}, "missing 'level'"),
    ({"op": "classify", "level": "1", "cards": ["S5"]}, "not a level"),
    ({"op": "classify", "level": "2", "cards": "S5"}, "list of cards"),
    ({"op": "beats", "level": "2", "play": ["S5"], "prev": ["S5", "D7"]}, "not a combination"),
    ({"op": "beats", "level": "2", "play": ["S5"], "prev": ["Pair", "9", ["S9", "D8"]]}, "cannot be read"),
    ({"op": "legal", "level": "2", "hand": ["S5"], "profile": "mars"}, "no such profile"),
    ([1, 2], "JSON object"),
])
def test_bad_requests(req, message):
    answer = handle(req)
    assert answer["ok"] is False and message in answer["error"]
