"""The legal-play generator against brute force, and the traps of RULES.md."""

from collections import Counter
from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import ALL_CARDS, RANKS, full_deck
from engine.legal import legal_plays
from engine.plays import Play, beats, classify

LEVELS = list(RANKS)


def brute_force(hand, prev, level):
    """Every sub-multiset of the hand, classified; those that may be played on prev."""
    counts = Counter(hand)
    cards = sorted(counts)
    found = set()
    for take in product(*(range(counts[c] + 1) for c in cards)):
        chosen = [c for c, n in zip(cards, take, strict=True) for _ in range(n)]
        if not chosen:
            continue
        for reading in classify(chosen, level):
            if beats(reading, prev, level):
                found.add(reading)
    return found


small_hands = st.lists(st.sampled_from(full_deck()), min_size=1, max_size=9).filter(
    lambda h: all(n <= 2 for n in Counter(h).values()))
# hands rich in wildcards, jokers and sequences, where the traps are
focused = st.lists(
    st.sampled_from([c for c in ALL_CARDS if c[1] in "2345AKQ" or c in ("SB", "HR")] * 2),
    min_size=4, max_size=10).filter(lambda h: all(n <= 2 for n in Counter(h).values()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(hand=st.one_of(small_hands, focused), level=st.sampled_from(LEVELS))
def test_lead_generation_matches_brute_force(hand, level):
    assert set(legal_plays(hand, None, level)) == brute_force(hand, None, level)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(hand=st.one_of(small_hands, focused), other=small_hands, level=st.sampled_from(LEVELS), data=st.data())
def test_following_generation_matches_brute_force(hand, other, level, data):
    options = [p for p in legal_plays(other, None, level)]
    prev = data.draw(st.sampled_from(options))
    got = legal_plays(hand, prev, level)
    assert set(got) == brute_force(hand, prev, level)
    for play in got:  # everything returned classifies as itself and beats prev
        assert play in classify(play.cards, level)
        assert beats(play, prev, level)


def test_generation_has_no_duplicates_and_is_sorted_weakest_first():
    hand = ["H2", "H2", "S3", "S3", "D4", "C4", "S5", "H5", "S6", "SB", "HR", "SA", "DA"]
    plays = legal_plays(hand, None, "2")
    assert len(plays) == len(set(plays))
    assert plays[0].type == "Single"
    assert plays[-1].is_bomb


def test_suit_choices_and_wildcard_use_are_different_plays():
    plays = legal_plays(["S9", "D9", "C9", "H2"], None, "2")
    pairs = {p.cards for p in plays if p.type == "Pair" and p.rank == "9"}
    assert pairs == {("S9", "C9"), ("S9", "D9"), ("C9", "D9"), ("H2", "S9"), ("H2", "C9"), ("H2", "D9")}
    bombs = {p.cards for p in plays if p.type == "Bomb"}
    assert bombs == {("H2", "S9", "C9", "D9")}


def test_following_lists_only_higher_same_type_and_bombs():
    prev = classify(["S8", "D8"], "2")[0]
    hand = ["S7", "D7", "S9", "D9", "SJ", "S3", "H3", "C3", "D3"]
    plays = legal_plays(hand, prev, "2")
    assert {(p.type, p.rank) for p in plays} == {("Pair", "9"), ("Pair", "3"), ("Bomb", "3")} - {("Pair", "3")}


def test_no_play_beats_the_joker_bomb():
    jokers = classify(["SB", "SB", "HR", "HR"], "2")[0]
    hand = ["S3", "S3", "H3", "H3", "D3", "D3", "C3", "C3", "H2", "H2"]
    assert legal_plays(hand, jokers, "2") == []


def test_wildcards_fill_a_tube_and_a_plate():
    # two wildcards stand for the missing pair of 2s in AA2233
    plays = legal_plays(["H2", "H2", "SA", "DA", "S3", "D3"], None, "2")
    assert Play("ThreePair", "A", ("H2", "H2", "S3", "D3", "SA", "DA")) in plays
    # one wildcard completes 333 444
    plays = legal_plays(["H2", "S3", "D3", "S4", "D4", "C4"], None, "2")
    assert Play("TwoTrips", "3", ("H2", "S3", "D3", "S4", "C4", "D4")) in plays


def test_no_jqka2_even_with_wildcards():
    plays = legal_plays(["SJ", "CQ", "DK", "SA", "H5"], None, "5")
    assert {(p.type, p.rank) for p in plays if p.type == "Straight"} == {("Straight", "T")}


def test_one_suited_runs_are_only_straight_flushes_at_either_end():
    for run in (["SA", "S2", "S3", "S4", "S5"], ["DT", "DJ", "DQ", "DK", "DA"], ["C6", "C7", "C8", "C9", "CT"]):
        kinds = {(p.type, p.rank) for p in legal_plays(run, None, "4") if len(p.cards) == 5}
        assert kinds == {("StraightFlush", classify(run, "4")[0].rank)}
