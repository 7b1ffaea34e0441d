"""The engine's hand-offs are named values with the interchange formats' strings inside
(engine/seats.py, engine/cards.py, engine/trick.py, engine/phases.py): a reader names the
field it reads, and what goes on the wire and in a record is what it always was."""

from __future__ import annotations

import pytest

from engine import (
    SEATS,
    Awaiting,
    Reading,
    RecordError,
    Top,
    Turn,
    event_from_json,
    parse_card,
    seat_or_none,
    side_or_none,
)
from engine.events import PlayCards
from engine.plays import play_type_or_none
from tests.engine.table_driver import Table


def test_the_trick_and_the_turn_are_read_by_name():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3", "H3")
    t.pass_("N")
    hand = t.hand
    assert isinstance(hand.top, Top) and hand.top.seat == "E" and hand.top.play.type == "Pair"
    first, second = hand.trick
    assert isinstance(first, Turn) and (first.seat, first.cards, first.play) == ("E", ("S3", "H3"), hand.top.play)
    assert (second.seat, second.play, second.cards) == ("N", None, ())
    waiting = hand.awaiting()
    assert isinstance(waiting, Awaiting) and waiting.action == "play" and waiting.seats == ("W",)
    action, seats = waiting  # still a pair for whoever unpacks it
    assert (action, seats) == ("play", ("W",))


def test_what_comes_from_outside_becomes_a_seat_by_look_up():
    assert [seat_or_none(s) for s in ("E", "S", "W", "N")] == list(SEATS)
    assert [seat_or_none(v) for v in ("X", "e", None, 3, ["E"], {"E": 1})] == [None] * 6
    assert side_or_none("NS") == "NS" and side_or_none(["NS"]) is None
    assert play_type_or_none("Straight") == "Straight" and play_type_or_none("PASS") is None
    assert play_type_or_none(["Pair"]) is None


@pytest.mark.parametrize("line", [
    {"seq": 3, "t": 1, "type": ["play"], "seat": "N", "cards": ["S5"]},
    {"seq": 3, "t": 1, "type": "pass", "seat": ["N"]},
    {"seq": 3, "t": 1, "type": "press", "seat": {"N": 1}},
    {"seq": 3, "t": 1, "type": "forfeit", "side": ["EW"]},
    {"seq": 3, "t": 1, "type": "resist", "seats": [["E"]]},
    {"seq": 3, "t": 1, "type": "clock_overrun", "seat": "N", "action": ["play"], "limit": 20, "elapsed": 21},
])
def test_a_field_of_the_wrong_shape_is_a_record_error_not_a_crash(line):
    """A list or an object where a name belongs breaks the line, as any wrong name does."""
    with pytest.raises(RecordError):
        event_from_json(line)


def test_a_declared_reading_is_named_and_written_as_before():
    line = {"seq": 3, "t": 12.5, "type": "play", "seat": "N", "cards": ["H2", "S4", "C5", "D6", "S7"],
            "reading": ["Straight", "4"]}
    event = event_from_json(line)
    assert isinstance(event, PlayCards) and event.reading == Reading("Straight", "4")
    assert event.reading.type == "Straight" and event.reading.rank == "4"
    assert event.to_json() == line


def test_cards_are_the_platform_strings():
    assert parse_card("h10") == "HT" and isinstance(parse_card("SB"), str)
    hand = Table()
    hand.deal(hidden=True, leader="E")
    hand.play("E", "S3", "H3")
    assert hand.hand.top.play.to_json() == ["Pair", "3", ["S3", "H3"]]
