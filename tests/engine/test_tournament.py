"""Tournaments (engine/tournament.py, engine/standings.py): scoring a table, draws and
their refusals, byes, knockouts and standings in each rule book's order.

The standings cases are built by hand from the rule documents: linquan's 小分 ("winner at
J, loser at 5: 6; passing A: 15 − the loser's level"), linyi's 总积分 → 胜轮次 → 升级数 →
级差分 → 抽签, jiangsu's 26:0 level points first.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bots import self_play
from engine.match import PASSED, Match, match_result
from engine.standings import lots
from engine.tournament import (
    Outcome,
    Pair,
    Table,
    Tournament,
    TournamentError,
    arrange,
    parse_final_level,
    planned_rounds,
)
from rulebook import profiles
from tests.engine.test_tournament_pairing import fewest_rematches


def tournament(profile: str, ids: str | list[str], fmt: str = "swiss", rounds: int = 3, seed: int = 1) -> Tournament:
    pairs = [Pair(p, f"pair {p}") for p in ids]
    return Tournament("test", fmt, rounds, profiles.load(profile), seed, pairs)


def play(t: Tournament, round_no: int, *games: tuple[str, str, str, str]) -> None:
    """Set a round's draw by hand — (ns, ew, ns level, ew level) per table — and enter it."""
    t.draws[round_no] = [Table(i, ns, ew) for i, (ns, ew, _, _) in enumerate(games, 1)]
    for i, (ns, ew, lns, lew) in enumerate(games, 1):
        enter(t, round_no, t.score_levels(round_no, i, ns, ew, lns, lew))


def enter(t: Tournament, round_no: int, scored: tuple[int, Outcome]) -> None:
    r, outcome = scored
    assert r == round_no
    table = next(tb.table for tb in t.draws[r] if not tb.is_bye and set(outcome.scores) == {tb.ns, tb.ew})
    t.results[(r, table)] = outcome


def order(t: Tournament) -> list[str]:
    return [s.pair for s in t.standings()]


def by_lot(t: Tournament, *pairs: str) -> list[str]:
    lot = lots([p.id for p in t.pairs], t.seed)
    return sorted(pairs, key=lot.__getitem__)


# --- scoring a table -----------------------------------------------------------------------

@pytest.mark.parametrize("text, index", [("2", 0), ("10", 8), ("t", 8), ("J", 9), ("A", 12), ("A+", PASSED),
                                         ("pass", PASSED), ("过A", PASSED)])
def test_final_levels_as_typed(text, index):
    assert parse_final_level(text) == index


@pytest.mark.parametrize("text", ["1", "B", "A++", "", "14"])
def test_a_bad_level_is_refused(text):
    with pytest.raises(TournamentError, match="not_a_level"):
        parse_final_level(text)


def test_linquan_small_points_from_the_rule_text():
    t = tournament("linquan", "ABCD")
    play(t, 1, ("A", "B", "J", "5"), ("D", "C", "7", "A+"))
    j_v_5 = t.results[(1, 1)]
    assert j_v_5.winner == "A" and j_v_5.scores["A"].small_points == 6 and j_v_5.scores["B"].small_points == 0
    passed = t.results[(1, 2)]
    assert passed.winner == "C" and passed.reason == "passed_a"
    assert passed.scores["C"].small_points == 15 - 7 and passed.levels == {"C": "A+", "D": "7"}


def test_level_points_on_the_26_scale():
    t = tournament("jiangsu", "ABCD")
    play(t, 1, ("A", "B", "K", "5"), ("C", "D", "A+", "2"))
    assert (t.results[(1, 1)].scores["A"].level_points, t.results[(1, 1)].scores["B"].level_points) == (21, 5)
    assert (t.results[(1, 2)].scores["C"].level_points, t.results[(1, 2)].scores["D"].level_points) == (26, 0)


def test_typed_levels_score_exactly_as_a_played_match():
    profile = profiles.load("linyi")
    for ns in range(PASSED + 1):
        for ew in range(PASSED):
            if ns == ew:
                continue
            t = tournament("linyi", "AB")
            t.draws[1] = [Table(1, "A", "B")]
            levels = {"NS": ns, "EW": ew}
            winner = "NS" if ns > ew else "EW"
            expected = match_result(profile, winner, "passed_a" if ns == PASSED else "time", levels, levels)
            _, got = t.score_levels(1, 1, "B", "A", level_text(ew), level_text(ns))
            assert got.scores["A"].points == expected.points["NS"]
            assert got.scores["A"].small_points == expected.small_points["NS"]
            assert got.scores["B"].level_points == expected.level_points["EW"]
            assert got.scores["A"].upgrades == ns and got.scores["B"].upgrades == ew


def level_text(index: int) -> str:
    return "A+" if index == PASSED else "23456789TJQKA"[index]


def test_a_table_record_result_maps_sides_to_the_draw():
    profile = profiles.load("linquan")
    events = self_play(profile, random.Random(5), max_hands=3)
    match = Match(profile, events[0])
    for e in events[1:]:
        match.push(e)
    result = match.result
    t = tournament("linquan", "XY")
    t.draws[1] = [Table(1, "Y", "X")]  # Y sits North-South
    _, outcome = t.score_result(None, 1, result)
    for side, pair in (("NS", "Y"), ("EW", "X")):
        s = outcome.scores[pair]
        assert (s.points, s.small_points, s.level_points, s.upgrades) == (
            result.points[side], result.small_points[side], result.level_points[side], result.upgrades[side])
    assert outcome.winner == {"NS": "Y", "EW": "X"}[result.winner]


def test_equal_levels_are_a_draw_unless_the_extra_hand_is_given():
    t = tournament("linyi", "AB")
    t.draws[1] = [Table(1, "A", "B")]
    _, drawn = t.score_levels(1, 1, "A", "B", "8", "8")
    assert drawn.winner is None and drawn.reason == "draw"
    assert {p: s.points for p, s in drawn.scores.items()} == {"A": 1, "B": 1}
    assert {p: s.level_points for p, s in drawn.scores.items()} == {"A": 13, "B": 13}
    _, extra = t.score_levels(1, 1, "A", "B", "8", "8", winner="B")
    assert extra.winner == "B" and extra.reason == "extra_hand" and extra.scores["B"].points == 2


def test_first_to_level_profile_names_its_reason():
    t = tournament("linyi_notice", "AB")
    t.draws[1] = [Table(1, "A", "B")]
    assert t.score_levels(1, 1, "A", "B", "4", "4", winner="A")[1].reason == "first_to_level"


@pytest.mark.parametrize("args, message", [
    (("A", "B", "9", "5", "B"), "levels_say won=A winner=B"),
    (("A", "B", "A+", "pass", None), "both_passed_a"),
    (("A", "C", "9", "5", None), "pair_elsewhere pair=C round=1 table=1 ns=A ew=B"),
    (("A", "Z", "9", "5", None), "unknown_pair pair=Z"),
    (("A", "A", "9", "5", None), "same_pair"),
    (("A", "B", "9", "5", "C"), "winner_elsewhere winner=C table=1"),
])
def test_typed_results_that_cannot_be_right(args, message):
    t = tournament("linyi", "ABCD")
    t.draws[1] = [Table(1, "A", "B"), Table(2, "C", "D")]
    a, b, la, lb, winner = args
    with pytest.raises(TournamentError, match=message):
        t.score_levels(1, 1, a, b, la, lb, winner=winner)


def test_results_need_a_drawn_round_and_table():
    t = tournament("linyi", "AB")
    with pytest.raises(TournamentError, match="none_drawn"):
        t.score_levels(None, 1, "A", "B", "5", "3")
    t.draws[1] = [Table(1, "A", "B")]
    with pytest.raises(TournamentError, match="no_table round=1 table=2"):
        t.score_levels(None, 2, "A", "B", "5", "3")
    with pytest.raises(TournamentError, match="round_not_drawn round=4 drawn=1"):
        t.score_levels(4, 1, "A", "B", "5", "3")


@pytest.mark.parametrize("profile, level_points", [("linquan", 0), ("linyi", 17), ("linyi_notice", 14),
                                                   ("jiangsu", 17)])
def test_forfeit_scores_the_profile_award(profile, level_points):
    t = tournament(profile, "AB")
    t.draws[1] = [Table(1, "A", "B")]
    for who in ("B", "EW", "ew"):
        _, outcome = t.score_forfeit(1, 1, who)
        assert outcome.winner == "A" and outcome.reason == "forfeit" and outcome.levels == {}
        assert outcome.scores["A"].points == 2 and outcome.scores["A"].level_points == level_points
        assert outcome.scores["A"].small_points == 0  # linquan: 获胜方不得小分
        assert outcome.scores["B"].points == 0 and outcome.scores["B"].level_points == 0
    t3 = tournament(profile, "ABC")
    t3.draws[1] = [Table(1, "A", "B"), Table(None, "C", None)]
    with pytest.raises(TournamentError, match="pair_elsewhere pair=C round=1 table=1"):
        t3.score_forfeit(1, 1, "C")
    with pytest.raises(TournamentError, match="unknown_pair pair=Q"):
        t3.score_forfeit(1, 1, "Q")


# --- byes ----------------------------------------------------------------------------------

def test_linquan_bye_is_one_point_and_not_a_win():
    t = tournament("linquan", "ABC")
    t.draws[1] = [Table(1, "A", "B"), Table(None, "C", None)]
    enter(t, 1, t.score_levels(1, 1, "A", "B", "6", "5"))
    line = {s.pair: s for s in t.standings()}["C"]
    assert (line.points, line.wins, line.small_points, line.played) == (1, 0, 0, 1)


def test_linyi_bye_is_17_to_0_and_a_win():
    t = tournament("linyi", "ABC")
    t.draws[1] = [Table(1, "A", "B"), Table(None, "C", None)]
    enter(t, 1, t.score_levels(1, 1, "A", "B", "6", "5"))
    line = {s.pair: s for s in t.standings()}["C"]
    assert (line.points, line.wins, line.level_points, line.upgrades) == (2, 1, 17, 0)


# --- standings per rule book ---------------------------------------------------------------

def test_linquan_ranks_by_points_then_small_points_then_lot():
    t = tournament("linquan", "ABCD")
    play(t, 1, ("A", "B", "J", "5"), ("C", "D", "A+", "7"))  # A small 6, C small 8
    play(t, 2, ("A", "D", "3", "2"), ("C", "B", "9", "8"))  # +1 each
    lines = {s.pair: s for s in t.standings()}
    assert (lines["A"].points, lines["A"].small_points) == (4, 7)
    assert (lines["C"].points, lines["C"].small_points) == (4, 9)
    assert order(t) == ["C", "A", *by_lot(t, "B", "D")]  # B and D: 0 points, 0 small: 抽签
    assert [s.rank for s in t.standings()] == [1, 2, 3, 4]


def test_linyi_wins_come_before_upgrades_and_level_points():
    t = tournament("linyi", "ABCD")
    play(t, 1, ("A", "B", "7", "5"), ("C", "D", "6", "6"))
    play(t, 2, ("A", "C", "3", "9"), ("B", "D", "8", "8"))
    lines = {s.pair: (s.points, s.wins, s.upgrades, s.level_points) for s in t.standings()}
    assert lines == {"A": (2, 1, 6, 22), "B": (1, 0, 9, 24), "C": (3, 1, 11, 32), "D": (2, 0, 10, 26)}
    assert order(t) == ["C", "A", "D", "B"]  # A before D: a win, though D upgraded more


def test_linyi_upgrades_then_level_points_then_lot():
    t = tournament("linyi", "EFGH", rounds=1)
    play(t, 1, ("E", "G", "A", "K"), ("F", "H", "5", "2"))
    assert order(t) == ["E", "F", "G", "H"]  # E: 12 upgrades (14 lp) before F: 3 (16 lp)
    t = tournament("linyi", "IJKL", rounds=1)
    play(t, 1, ("I", "K", "7", "5"), ("J", "L", "7", "2"))
    assert order(t) == ["J", "I", "K", "L"]  # equal upgrades: J has 18 level points, I 15
    t = tournament("linyi", "MNOP", rounds=1, seed=11)
    play(t, 1, ("M", "N", "6", "6"), ("O", "P", "6", "6"))
    assert order(t) == by_lot(t, "M", "N", "O", "P")


def test_jiangsu_level_points_before_match_points():
    t = tournament("jiangsu", "PQRS")
    play(t, 1, ("P", "R", "6", "5"), ("Q", "S", "A+", "2"))
    play(t, 2, ("P", "S", "6", "5"), ("Q", "R", "5", "7"))
    lines = {s.pair: (s.level_points, s.points) for s in t.standings()}
    assert lines["P"] == (28, 4) and lines["Q"] == (37, 2)
    assert order(t)[:2] == ["Q", "P"]


def test_lot_is_fixed_by_the_seed():
    ids = [str(i) for i in range(20)]
    assert lots(ids, 5) == lots(list(reversed(ids)), 5)
    assert sorted(lots(ids, 5).values()) == list(range(1, 21))
    assert lots(ids, 5) != lots(ids, 6)


# --- draws ---------------------------------------------------------------------------------

def test_draw_refusals():
    t = tournament("linquan", "ABCD", rounds=2)
    t.draws[1] = t.draw()
    with pytest.raises(TournamentError, match="drawn_already round=1"):
        t.draw(1)
    with pytest.raises(TournamentError, match="not_next next=2 round=3"):
        t.draw(3)
    with pytest.raises(TournamentError, match="missing round=1 tables=1, 2"):
        t.draw()
    for tb in t.draws[1]:
        enter(t, 1, t.score_levels(1, tb.table, tb.ns, tb.ew, "9", "3"))
    t.draws[2] = t.draw(2)
    for tb in t.draws[2]:
        enter(t, 2, t.score_forfeit(2, tb.table, "EW"))
    with pytest.raises(TournamentError, match="all_drawn rounds=2"):
        t.draw()


def test_swiss_round_two_pairs_winners_with_winners():
    t = tournament("linquan", "ABCDEFGH", rounds=3, seed=9)
    t.draws[1] = t.draw()
    for tb in t.draws[1]:
        enter(t, 1, t.score_levels(1, tb.table, tb.ns, tb.ew, "9", "3"))
    winners = {tb.ns for tb in t.draws[1]}
    second = t.draw()
    assert {frozenset((tb.ns, tb.ew)) for tb in second[:2]} <= {frozenset(g) for g in _pairs_of(winners)}
    assert all(tb.ns in winners and tb.ew in winners for tb in second[:2])


def _pairs_of(ids):
    ids = sorted(ids)
    return [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.integers(1, 10), st.integers(0, 10**6))
def test_swiss_simulation_keeps_the_rules(n, rounds, seed):
    t = tournament("linquan", [f"p{i}" for i in range(n)], rounds=rounds, seed=seed)
    rng = random.Random(seed)
    byes: dict[str, int] = {p.id: 0 for p in t.pairs}
    met: dict[str, set[str]] = {p.id: set() for p in t.pairs}
    for r in range(1, rounds + 1):
        draw = t.draw()
        seated = [p for tb in draw for p in (tb.ns, tb.ew) if p]
        assert sorted(seated) == sorted(byes)  # every pair once a round
        bye = [tb.ns for tb in draw if tb.is_bye]
        assert len(bye) == n % 2
        if bye:
            assert byes[bye[0]] == min(byes.values())
        rematches = sum(tb.ew in met[tb.ns] for tb in draw if not tb.is_bye)
        assert rematches == fewest_rematches(sorted(byes), met, byes)
        t.draws[r] = draw
        for tb in draw:
            if tb.is_bye:
                byes[tb.ns] += 1
                continue
            met[tb.ns].add(tb.ew)
            met[tb.ew].add(tb.ns)
            la, lb = rng.choice("23456789TJQKA"), rng.choice("23456789TJQKA")
            enter(t, r, t.score_levels(r, tb.table, tb.ns, tb.ew, la, lb))


# --- round robin ---------------------------------------------------------------------------

def test_round_robin_groups_play_their_whole_schedule():
    pairs = [Pair(str(i), f"pair {i}") for i in range(1, 12)]
    arranged = arrange(pairs, "roundrobin", 2, "order", seed=3)
    assert [p.id for p in arranged if p.group == 1] == ["1", "4", "5", "8", "9"]  # snake: 1 2 2 1 1 2 2 1 …
    assert [p.id for p in arranged if p.group == 2] == ["2", "3", "6", "7", "10", "11"]
    rounds = planned_rounds("roundrobin", arranged, None)
    assert rounds == 5
    t = Tournament("rr", "roundrobin", rounds, profiles.load("linyi"), 3, arranged)
    met = set()
    for r in range(1, rounds + 1):
        t.draws[r] = t.draw()
        for tb in t.draws[r]:
            if tb.is_bye:
                continue
            assert t.pair(tb.ns).group == t.pair(tb.ew).group == tb.group
            met.add(frozenset((tb.ns, tb.ew)))
            enter(t, r, t.score_levels(r, tb.table, tb.ns, tb.ew, "5", "4"))
    groups = [[p.id for p in arranged if p.group == g] for g in (1, 2)]
    assert met == {frozenset((a, b)) for g in groups for a, b in _pairs_of(g)}
    standings = t.standings()
    assert [s.rank for s in standings if s.group == 1] == [1, 2, 3, 4, 5]
    assert [s.rank for s in standings if s.group == 2] == [1, 2, 3, 4, 5, 6]


def test_round_robin_rounds_are_fixed_by_the_schedule():
    pairs = arrange([Pair(str(i), "") for i in range(6)], "roundrobin", 1, "lot", seed=1)
    with pytest.raises(TournamentError, match="rounds_fixed format=roundrobin needed=5 rounds=3"):
        planned_rounds("roundrobin", pairs, 3)
    with pytest.raises(TournamentError, match="groups_range pairs=6 most=3 groups=4"):
        arrange([Pair(str(i), "") for i in range(6)], "roundrobin", 4, "lot", seed=1)
    with pytest.raises(TournamentError, match="groups_not_round_robin"):
        arrange([Pair(str(i), "") for i in range(6)], "swiss", 2, "lot", seed=1)


# --- knockout ------------------------------------------------------------------------------

def run_knockout(n: int, rng: random.Random | None, profile: str = "jiangsu") -> Tournament:
    """Play a knockout to the end: the better seed wins unless ``rng`` says otherwise."""
    pairs = [Pair(f"s{i}", "") for i in range(1, n + 1)]
    t = Tournament("ko", "knockout", planned_rounds("knockout", pairs, None), profiles.load(profile), 1, pairs)
    for r in range(1, t.rounds + 1):
        t.draws[r] = t.draw()
        seated = [p for tb in t.draws[r] for p in (tb.ns, tb.ew) if p]
        assert len(seated) == len(set(seated))
        for tb in t.draws[r]:
            if tb.is_bye:
                continue
            upset = rng is not None and rng.random() < 0.5
            enter(t, r, t.score_levels(r, tb.table, tb.ns, tb.ew, "9" if upset else "K", "K" if upset else "9"))
    return t


@given(st.integers(2, 33), st.integers(0, 1000))
@settings(max_examples=40, deadline=None)
def test_knockout_ends_with_one_champion(n, seed):
    t = run_knockout(n, random.Random(seed))
    assert t.rounds == (n - 1).bit_length()
    final = t.draws[t.rounds]
    assert len(final) == 1 and not final[0].is_bye
    champion = t.results[(t.rounds, 1)].winner
    standings = t.standings()
    assert standings[0].pair == champion and standings[0].reached == t.rounds + 1
    assert sum(1 for r in t.draws.values() for tb in r if tb.is_bye) == 2 ** t.rounds - n
    with pytest.raises(TournamentError, match="all_drawn"):
        t.draw()


def test_seeds_hold_when_the_better_seed_always_wins():
    t = run_knockout(12, None)
    assert [tb.to_json() for tb in t.draws[1]] == [  # bracket order: 1-16 8-9 4-13 5-12 2-15 7-10 3-14 6-11
        {"table": None, "bye": "s1"}, {"table": 1, "ns": "s8", "ew": "s9"},
        {"table": None, "bye": "s4"}, {"table": 2, "ns": "s5", "ew": "s12"},
        {"table": None, "bye": "s2"}, {"table": 3, "ns": "s7", "ew": "s10"},
        {"table": None, "bye": "s3"}, {"table": 4, "ns": "s6", "ew": "s11"}]
    final = t.draws[t.rounds][0]
    assert (final.ns, final.ew) == ("s1", "s2")
    ranked = [s.pair for s in t.standings()]
    assert ranked[:2] == ["s1", "s2"] and set(ranked[2:4]) == {"s3", "s4"}  # the semi-final losers


def test_knockout_refuses_a_draw_and_asks_for_the_extra_hand():
    t = tournament("linquan", "AB", fmt="knockout", rounds=1)
    t.draws[1] = t.draw()
    with pytest.raises(TournamentError, match="knockout_tie table=1 level=J"):
        t.score_levels(1, 1, "A", "B", "J", "J")
    _, outcome = t.score_levels(1, 1, "A", "B", "J", "J", winner="B")
    assert outcome.winner == "B" and outcome.reason == "extra_hand"


def test_knockout_winner_cannot_change_once_the_next_round_is_drawn():
    t = tournament("jiangsu", "ABCD", fmt="knockout", rounds=2)
    t.draws[1] = t.draw()
    for tb in t.draws[1]:
        enter(t, 1, t.score_levels(1, tb.table, tb.ns, tb.ew, "K", "9"))
    t.draws[2] = t.draw()
    first = t.draws[1][0]
    t.score_levels(1, first.table, first.ns, first.ew, "A", "9")  # same winner: a fair correction
    with pytest.raises(TournamentError, match="winner_fixed next=2 table=1"):
        t.score_levels(1, first.table, first.ns, first.ew, "9", "A")
