"""Highlights (engine.highlights): read from the replayed match, each at the event it
happened at."""

from __future__ import annotations

import pytest

from engine.events import Correction, Resist
from engine.highlights import (
    BOMB,
    DOUBLE_DOWN,
    JIEFENG,
    JOKER_BOMB,
    PASS_A,
    RESIST,
    STRAIGHT_FLUSH_KIND,
    highlights,
)
from engine.record import parse_lines, replay
from rulebook import profiles
from scorer.cli import DEMO_RECORD
from tests.engine.table_driver import DOUBLE_DOWN as DOUBLE_DOWN_ORDER
from tests.engine.table_driver import PARTNER_THIRD, Table, play_hand, rig


def kinds(match):
    return [(h.kind, h.seat, h.seq) for h in highlights(match)]


@pytest.mark.parametrize("cards, size", [(("S9", "H9", "C9", "D9"), 4), (("S9", "H9", "C9", "D9", "S9", "H9"), 6),
                                         (("S9", "H9", "C9", "D9", "S9", "H9", "C9", "D9"), 8)])
def test_a_bomb_on_a_lead_and_its_size(cards, size):
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", *cards)
    (h,) = highlights(t.match)
    assert (h.kind, h.seat, h.side, h.size, h.seq, h.hand, h.on) == (BOMB, "E", "EW", size, 2, 1, None)
    assert h.to_json()["play"] == ["Bomb", "9", list(h.play.cards)]


def test_a_bomb_over_a_full_house_keeps_what_it_beat():
    t = Table()
    t.deal(hidden=True, leader="N")
    t.play("N", "S5", "H5", "C5", "S7", "H7")
    t.play("W", "S8", "H8", "C8", "D8")
    (h,) = highlights(t.match)
    assert h.kind == BOMB and h.seat == "W" and h.on[0] == "N" and h.on[1].type == "ThreeWithTwo"
    assert h.to_json()["on"] == {"seat": "N", "play": ["ThreeWithTwo", "5", ["S5", "H5", "C5", "S7", "H7"]]}


def test_the_joker_bomb_and_a_straight_flush():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3", "S4", "S5", "S6", "S7")
    t.play("N", "SB", "SB", "HR", "HR")
    found = [(h.kind, h.seat, h.size) for h in highlights(t.match)]
    assert found == [(STRAIGHT_FLUSH_KIND, "E", 5), (JOKER_BOMB, "N", 4)]


def test_a_bomb_that_breaks_a_rule_is_no_highlight():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S9", "H9", "C9", "D9", "S9")
    t.play("N", "S3", "H3", "C3", "D3")  # a 4-card bomb does not beat a 5-card one
    assert kinds(t.match) == [(BOMB, "E", 2)]


def test_a_correction_that_makes_the_bomb_a_pair_takes_its_highlight_away():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S9", "H9", "C9", "D9")
    assert kinds(t.match) == [(BOMB, "E", 2)]
    t.push(Correction, target=2, cards=("S9", "H9"), by="li", why="misread")
    assert kinds(t.match) == []


def test_jiefeng_the_partner_leads_after_the_player_who_went_out_takes_the_trick():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.shed_to("E", 1)
    (last,) = t.model["E"].elements()
    t.play("E", last)
    for seat in ("N", "W"):
        t.pass_(seat)
    assert not [h for h in highlights(t.match) if h.kind == JIEFENG]
    entry = t.pass_("S")
    assert entry.leads == "W" and t.hand.turn == "W"
    (h,) = [h for h in highlights(t.match) if h.kind == JIEFENG]
    assert (h.seat, h.side, h.seats, h.seq) == ("W", "EW", ("E",), entry.event.seq)


def test_an_ordinary_trick_end_is_no_jiefeng():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", "S3")
    assert t.hand.turn == "E" and t.entries[-1].leads == "E"
    assert kinds(t.match) == []


def test_a_double_down_that_passes_a():
    t = Table(levels={"EW": "A", "NS": "5"})
    entry = play_hand(t, *DOUBLE_DOWN_ORDER)
    found = {h.kind: h for h in highlights(t.match) if h.seq == entry.event.seq}
    assert found[DOUBLE_DOWN].side == "EW" and set(found[DOUBLE_DOWN].seats) == {"N", "S"}
    assert found[PASS_A].side == "EW" and set(found[PASS_A].seats) == {"E", "W"}


def test_winning_a_hand_below_a_is_no_pass_of_a():
    t = Table(levels={"EW": "K", "NS": "5"})
    play_hand(t, *PARTNER_THIRD)
    assert PASS_A not in [h.kind for h in highlights(t.match)]
    assert DOUBLE_DOWN not in [h.kind for h in highlights(t.match)]


def test_known_hands_resist_at_the_deal():
    t = Table()
    play_hand(t, "E", "N", "W", "S")
    deal = t.deal(rig(S=["HR", "HR"]))
    (h,) = [h for h in highlights(t.match) if h.kind == RESIST]
    assert (h.seq, h.side, h.seats, h.hand) == (deal.event.seq, "NS", ("S",), 2)


def test_hidden_hands_resist_when_the_table_says_so():
    t = Table()
    play_hand(t, "E", "N", "W", "S", hidden=True)
    t.deal(rig(S=["HR", "HR"]), hidden=True)
    assert RESIST not in [h.kind for h in highlights(t.match)]
    entry = t.push(Resist, seats=("S",))
    (h,) = [h for h in highlights(t.match) if h.kind == RESIST]
    assert h.seq == entry.event.seq and h.seats == ("S",)


def test_the_demo_match_has_bombs_and_double_downs():
    match = replay(parse_lines(DEMO_RECORD.read_text(encoding="utf-8").splitlines()), profiles.load)
    found = highlights(match)
    assert {h.kind for h in found} >= {BOMB, DOUBLE_DOWN}
    assert [h.seq for h in found] == sorted(h.seq for h in found)
    first = found[0]
    assert (first.kind, first.seat, first.seq, first.t, first.size) == (BOMB, "S", 14, 72.1, 4)
