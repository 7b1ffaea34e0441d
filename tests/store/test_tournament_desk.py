"""The tournament desk (store/tournament_desk.py) on SQLite and on a real PostgreSQL server:
results read from a table's record are provisional until a referee confirms them, typed ones
final; corrections and every entry kept; each bad request refused in both languages with
nothing entered (a table not in the round, two results for one table, a record of another
match or profile, a draw while results are missing or provisional, a withdrawn pair)."""

from __future__ import annotations

import random

import pytest

from engine.bots import self_play
from engine.record import dumps
from engine.tournament import Pair, Tournament
from rulebook import profiles
from store import tournament_desk as desk
from store.tournament_store import TournamentStore


def record(profile: str = "linquan", seed: int = 5, table: str = "demo") -> str:
    """A finished bot match's record as text (time is called after 3 hands)."""
    return dumps(self_play(profiles.load(profile), random.Random(seed), max_hands=3, table=table))


@pytest.fixture
def store(db_target):
    pairs = [Pair(f"p{i}", f"第{i}队") for i in range(1, 5)]
    with TournamentStore.open(db_target, create=True) as store:
        store.save_tournament(Tournament("杯赛", "swiss", 3, profiles.load("linquan"), 7, pairs), "linquan")
        desk.draw_next(store, None, "裁判长")
        yield store


def refused(key: str, call, *args, **kwargs) -> desk.Refused:
    """The call is refused for ``key``, in both languages, and nothing was entered."""
    before = (len(desk.load(args[0]).draws), len(args[0].entries()))
    with pytest.raises(desk.Refused) as caught:
        call(*args, **kwargs)
    assert caught.value.key == key
    zh, en = str(caught.value).split(" / ", 1)
    assert any("\u4e00" <= c <= "\u9fff" for c in zh) and en.isascii(), str(caught.value)
    assert caught.value.text("en") == f"{en} / {zh}"
    assert (len(desk.load(args[0]).draws), len(args[0].entries())) == before
    return caught.value


def test_a_result_from_a_record_is_provisional_until_a_referee_confirms_it(store):
    text = record()
    entered = desk.enter_record(store, None, 1, text, "hall:1", "hall")
    assert entered.provisional and not entered.repeated and entered.round == 1
    again = desk.enter_record(store, None, 1, text, "hall:1", "hall")  # a node resending after a restart
    assert again.repeated and again.entry == entered.entry and len(store.entries()) == 1
    assert store.evidence_record(entered.entry) == text and store.entries()[0].source == "hall:1"
    states = {tb.table: state for tb, state, _ in desk.table_states(store, desk.load(store), 1)}
    assert states == {1: "provisional", 2: "playing"}
    desk.enter_levels(store, None, 2, *_pairs(store, 2), "J", "5", None, "裁判长")
    refused("provisional", desk.draw_next, store, None, "裁判长")
    refused("changed", desk.confirm, store, None, 1, "李", entry=entered.entry + 99)
    confirmed = desk.confirm(store, None, 1, "李", entry=entered.entry)
    assert confirmed.state == "final" and confirmed.confirmed_by == "李" and confirmed.id == entered.entry
    refused("already_final", desk.confirm, store, None, 1, "李")
    refused("already_final", desk.confirm, store, None, 2, "李")  # typed by a referee: final as entered
    round_no, tables, forfeits = desk.draw_next(store, None, "裁判长")
    assert round_no == 2 and len(tables) == 2 and forfeits == []
    refused("nothing_to_confirm", desk.confirm, store, None, 1, "李")


def _pairs(store: TournamentStore, table: int, round_no: int | None = None) -> tuple[str, str]:
    t = desk.load(store)
    tb = next(x for x in t.draws[round_no or t.drawn] if x.table == table)
    return tb.ns, tb.ew


def test_a_correction_of_a_provisional_result_is_final_and_every_entry_is_kept(store):
    entered = desk.enter_record(store, None, 1, record(), "t1.jsonl", "hall")
    a, b = _pairs(store, 1)
    corrected = desk.enter_levels(store, None, 1, a, b, "A+", "9", None, "裁判长")
    assert corrected.correction and not corrected.provisional
    history = store.entries(1, 1)
    assert [e.id for e in history] == [entered.entry, corrected.entry]
    assert [e.state for e in history] == ["provisional", "final"]
    assert desk.load(store).results[(1, 1)].winner == a


def test_bad_results_are_refused_whole(store):
    text = record()
    refused("no_table", desk.enter_record, store, None, 9, text, "x", "hall")
    refused("no_table", desk.enter_levels, store, None, 9, "p1", "p2", "J", "5", None, "x")
    refused("not_drawn", desk.enter_levels, store, 2, 1, "p1", "p2", "J", "5", None, "x")
    refused("record_profile", desk.enter_record, store, None, 1, record("jiangsu"), "x", "hall")
    refused("record_table", desk.enter_record, store, None, 1, record(table="2"), "x", "hall")
    refused("record_table", desk.enter_record, store, None, 1, record(table="2-1"), "x", "hall")  # round 2's
    moon = text.replace('"profile": "linquan"', '"profile": "moon"', 1)
    assert "moon" in moon.splitlines()[0]
    refused("record_broken", desk.enter_record, store, None, 1, moon, "x", "hall")  # no such profile
    refused("record_unfinished", desk.enter_record, store, None, 1, text.splitlines()[0] + "\n", "x", "hall")
    refused("record_broken", desk.enter_record, store, None, 1, "not json\n", "x", "hall")
    desk.enter_record(store, None, 1, text, "t1.jsonl", "hall")
    error = refused("has_result", desk.enter_record, store, None, 1, record(seed=6), "x", "hall")
    assert "待确认" in str(error) and "provisional" in str(error)
    refused("record_used", desk.enter_record, store, None, 2, text, "x", "hall")
    missing = refused("missing", desk.draw_next, store, None, "x")
    assert str(missing).endswith("round 1 still lacks results for table(s) 2")


def test_a_pair_withdrawing_mid_event_forfeits_its_tables_from_then_on(store):
    a, b = _pairs(store, 1)
    c, d = _pairs(store, 2)
    desk.enter_levels(store, None, 1, a, b, "J", "5", None, "裁判长")
    round_no, forfeits = desk.withdraw(store, c, "裁判长")
    assert round_no == 1 and [(f.table.table, f.outcome.winner, f.outcome.reason) for f in forfeits] == [
        (2, d, "forfeit")]
    refused("withdrawn", desk.withdraw, store, c, "x")
    refused("unknown_pair", desk.withdraw, store, "zz", "x")
    round_no, tables, forfeits = desk.draw_next(store, None, "裁判长")
    (gone,) = [tb for tb in tables if c in (tb.ns, tb.ew)]
    assert [(f.table, f.outcome.reason) for f in forfeits] == [(gone, "forfeit")]
    assert desk.load(store).missing(2) == [tb.table for tb in tables if tb is not gone]
    states = {tb.table: state for tb, state, _ in desk.table_states(store, desk.load(store), 2)}
    assert states[gone.table] == "final"


def test_tables_are_named_by_number_or_round_and_number():
    assert desk.table_named("7") == (None, 7) and desk.table_named("2-7") == (2, 7)
    assert desk.table_named("demo") is None and desk.table_named("t7") is None and desk.table_named("") is None


def test_a_record_naming_its_round_and_table_is_taken_for_that_table(store):
    entered = desk.enter_record(store, None, 1, record(table="1-1"), "hall:1-1", "hall")
    assert entered.provisional and (entered.round, entered.table.table) == (1, 1)


def test_the_engines_refusals_reach_the_asker_in_both_languages(store):
    assert str(refused("drawn_already", desk.draw_next, store, 1, "x")) == "第1轮已编排 / round 1 is already drawn"
    pairs = desk.load(store).draws[1][0]
    caught = refused("not_a_level", desk.enter_levels, store, None, 1, pairs.ns, pairs.ew, "J", "1", None, "x")
    assert caught.text("en") == ("not a level: '1' (2-10, J, Q, K, A, or A+ for passed A) / "
                                 "不是级数：1（2–10、J、Q、K、A，过A写A+）")


def test_records_entered_together_are_each_checked_and_a_refused_one_leaves_the_others_in(store):
    # a hall's results come in bursts (time called at every table): one load and one commit
    one, two = record(seed=5, table="1"), record(seed=6, table="2")
    got = desk.enter_records(store, [desk.RecordIn(None, 1, one, "hall:1"), desk.RecordIn(None, 9, two, "hall:9"),
                                     desk.RecordIn(None, 1, two, "hall:1b"), desk.RecordIn(None, 2, "not json\n", "x"),
                                     desk.RecordIn(None, 1, one, "hall:1")], "hall")
    assert isinstance(got[0], desk.Entered) and got[0].provisional and not got[0].repeated
    assert [g.key for g in got[1:4]] == ["no_table", "record_table", "record_broken"]
    assert got[4].repeated and got[4].entry == got[0].entry  # the same record again: the entry made
    assert [(e.table, e.source) for e in store.entries()] == [(1, "hall:1")]
    again = desk.enter_records(store, [desk.RecordIn(None, 2, two, "hall:2")], "hall")
    assert again[0].table.table == 2 and len(store.entries()) == 2


def test_confirmations_taken_together_are_each_checked_and_a_refused_one_leaves_the_others_in(store):
    first = desk.enter_record(store, None, 1, record(seed=5, table="1"), "hall:1", "hall")
    second = desk.enter_record(store, None, 2, record(seed=6, table="2"), "hall:2", "hall")
    got = desk.confirm_many(store, [(1, 1, first.entry), (1, 2, second.entry + 9), (1, 9, None),
                                    (None, 2, second.entry), (1, 1, first.entry)], desk.SEAT_BUTTONS)
    assert got[0].confirmed_by == got[3].confirmed_by == desk.SEAT_BUTTONS
    assert [g.key for g in (got[1], got[2], got[4])] == ["changed", "no_table", "already_final"]
    assert [e.state for e in store.entries()] == ["final", "final"]
