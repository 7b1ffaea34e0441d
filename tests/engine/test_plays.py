"""Combinations and comparison, one test per rule line of RULES.md "Combinations",
including the traps the issue names."""

import pytest

from engine.plays import PASS, InvalidPlay, Play, beats, classify, parse_play


def readings(cards, level="2"):
    return {(p.type, p.rank) for p in classify(cards, level)}


def one(cards, level="2"):
    (p,) = classify(cards, level)
    return p


# --- shapes ---------------------------------------------------------------------------------

def test_single_any_card():
    assert readings(["S7"]) == {("Single", "7")}
    assert readings(["HR"]) == {("Single", "R")}
    assert readings(["SB"]) == {("Single", "B")}


def test_a_lone_wildcard_is_a_level_card():
    assert readings(["H5"], "5") == {("Single", "5")}


def test_pairs():
    assert readings(["S9", "D9"]) == {("Pair", "9")}
    assert readings(["SB", "SB"]) == {("Pair", "B")}
    assert readings(["HR", "HR"]) == {("Pair", "R")}
    assert readings(["S9", "D8"]) == set()


def test_small_and_big_joker_are_no_pair():
    assert readings(["SB", "HR"]) == set()


def test_wildcard_and_joker_are_no_pair():
    assert readings(["H2", "SB"], "2") == set()
    assert readings(["H2", "HR"], "2") == set()


def test_wildcard_makes_a_pair_of_any_rank_and_two_wildcards_are_the_level_pair():
    assert readings(["H5", "S9"], "5") == {("Pair", "9")}
    assert readings(["H5", "H5"], "5") == {("Pair", "5")}


def test_triples():
    assert readings(["S9", "D9", "C9"]) == {("Trips", "9")}
    assert readings(["H2", "D9", "C9"], "2") == {("Trips", "9")}
    assert readings(["SB", "SB", "HR"]) == set()


def test_full_house_compares_only_the_triple():
    low = one(["S3", "D3", "C3", "SA", "DA"])
    high = one(["S4", "D4", "C4", "S2", "D2"], level="9")
    assert (low.type, low.rank) == ("ThreeWithTwo", "3")
    assert beats(high, low, "9")
    assert not beats(low, high, "9")


def test_full_house_may_carry_a_joker_pair_but_not_a_joker_triple():
    assert readings(["S3", "D3", "C3", "HR", "HR"]) == {("ThreeWithTwo", "3")}
    assert readings(["S3", "D3", "C3", "SB", "HR"]) == set()
    assert readings(["SB", "SB", "HR", "S4", "D4"]) == set()


def test_full_house_with_a_wildcard_pair_is_also_a_five_card_bomb():
    assert readings(["S3", "D3", "C3", "H5", "H5"], "5") == {("ThreeWithTwo", "3"), ("Bomb", "3")}


@pytest.mark.parametrize("cards,rank", [
    (["SA", "HA", "S2", "C2", "S3", "D3"], "A"),   # AA2233
    (["SQ", "HQ", "SK", "CK", "SA", "DA"], "Q"),   # QQKKAA
    (["S7", "H7", "S8", "C8", "S9", "D9"], "7"),
])
def test_tubes(cards, rank):
    assert readings(cards, "5") == {("ThreePair", rank)}


def test_tubes_are_exactly_three_pairs():
    assert readings(["S3", "H3", "S4", "C4"], "9") == set()
    assert readings(["S3", "H3", "S4", "C4", "S5", "H5", "S6", "H6"], "9") == set()
    assert readings(["SK", "HK", "SA", "CA", "S2", "D2"], "9") == set()  # no wrap-around


@pytest.mark.parametrize("cards,rank", [
    (["SA", "HA", "DA", "S2", "C2", "D2"], "A"),   # AAA222
    (["SK", "HK", "DK", "SA", "CA", "DA"], "K"),   # KKKAAA
])
def test_plates(cards, rank):
    assert readings(cards, "5") == {("TwoTrips", rank)}


def test_level_rank_keeps_its_natural_place_in_sequences():
    # at level 10, 999 + JJJ is not a plate, but TTT JJJ is
    assert readings(["S9", "H9", "D9", "SJ", "CJ", "DJ"], "T") == set()
    assert readings(["ST", "CT", "DT", "SJ", "CJ", "DJ"], "T") == {("TwoTrips", "T")}
    # and 8-9-10-J-Q is a straight at level 10
    assert readings(["S8", "H9", "DT", "SJ", "CQ"], "T") == {("Straight", "8")}


def test_straights_run_from_a2345_to_tjqka():
    assert readings(["SA", "H2", "D3", "S4", "C5"], "9") == {("Straight", "A")}
    assert readings(["ST", "HJ", "DQ", "SK", "CA"], "9") == {("Straight", "T")}


def test_no_wrap_around_straight():
    assert readings(["SJ", "HQ", "DK", "SA", "C2"], "9") == set()
    assert readings(["SQ", "HK", "DA", "S2", "C3"], "9") == set()


def test_straights_are_exactly_five_cards():
    assert readings(["S3", "H4", "D5", "S6"], "9") == set()
    assert readings(["S3", "H4", "D5", "S6", "C7", "D8"], "9") == set()


def test_a_natural_straight_of_one_suit_is_only_a_straight_flush():
    assert readings(["S3", "S4", "S5", "S6", "S7"], "9") == {("StraightFlush", "3")}


def test_wildcard_straight_has_every_reading():
    # X+4567 is 34567 or 45678; with four spades also a straight flush either way
    assert readings(["H2", "S4", "C5", "D6", "S7"], "2") == {("Straight", "3"), ("Straight", "4")}
    assert readings(["H2", "S4", "S5", "S6", "S7"], "2") == {
        ("Straight", "3"), ("Straight", "4"), ("StraightFlush", "3"), ("StraightFlush", "4")}


def test_wildcard_at_the_top_of_a_straight():
    # TJQK + wildcard: 9TJQK or TJQKA
    assert readings(["ST", "CJ", "DQ", "SK", "H3"], "3") == {("Straight", "9"), ("Straight", "T")}
    # JQKA + wildcard can only complete downwards (no JQKA2)
    assert readings(["SJ", "CQ", "DK", "SA", "H3"], "3") == {("Straight", "T")}


def test_wildcard_never_stands_for_a_joker():
    assert readings(["SB", "SB", "HR", "H2"], "2") == set()
    assert readings(["SB", "H2", "H2"], "2") == set()


def test_jokers_never_join_sequences_or_bombs():
    assert readings(["SB", "S4", "C5", "D6", "S7"], "2") == set()
    assert readings(["S9", "H9", "D9", "C9", "SB"], "2") == set()


def test_bombs_of_four_to_ten_cards():
    assert readings(["S9", "H9", "D9", "C9"]) == {("Bomb", "9")}
    eight = ["S9", "S9", "H9", "H9", "D9", "D9", "C9", "C9"]
    assert readings(eight) == {("Bomb", "9")}
    ten = ["S5", "S5", "D5", "D5", "C5", "C5", "H5", "H5"] + ["H3", "H3"]
    assert readings(ten, "3") == {("Bomb", "5")}


def test_joker_bomb():
    assert readings(["SB", "SB", "HR", "HR"]) == {("Bomb", "JOKER")}
    assert readings(["SB", "HR", "HR"]) == set()


def test_wildcards_make_bombs():
    assert readings(["H5", "S3", "C3", "D3"], "5") == {("Bomb", "3")}


# --- comparison -----------------------------------------------------------------------------

def test_non_bombs_need_same_type_and_size():
    pair = one(["S9", "D9"])
    single = one(["SA"])
    assert not beats(single, pair, "2")
    assert not beats(one(["S3", "D3", "S4", "C4", "S5", "H5"], "9"), one(["SA", "DA"], "9"), "9")


def test_level_pair_beats_aces_and_joker_pairs_beat_level_pairs():
    aces = one(["SA", "DA"], "5")
    fives = one(["S5", "D5"], "5")
    small = one(["SB", "SB"], "5")
    big = one(["HR", "HR"], "5")
    assert beats(fives, aces, "5") and beats(small, fives, "5") and beats(big, small, "5")


def test_sequences_compare_by_position():
    low = one(["SA", "H2", "D3", "S4", "C5"], "9")
    mid = one(["S2", "H3", "D4", "S5", "C6"], "9")
    top = one(["ST", "HJ", "DQ", "SK", "CA"], "9")
    assert beats(mid, low, "9") and beats(top, mid, "9") and not beats(low, top, "9")
    assert beats(one(["SQ", "HQ", "SK", "CK", "SA", "DA"], "5"), one(["SA", "HA", "S2", "C2", "S3", "D3"], "5"), "5")


def test_any_bomb_beats_any_non_bomb():
    bomb = one(["S3", "H3", "D3", "C3"], "9")
    assert beats(bomb, one(["ST", "HJ", "DQ", "SK", "CA"], "9"), "9")
    assert beats(bomb, one(["HR"], "9"), "9")


def test_bomb_ladder():
    level = "9"
    four_a = one(["SA", "HA", "DA", "CA"], level)
    five_3 = one(["S3", "S3", "H3", "D3", "C3"], level)
    five_a = one(["SA", "SA", "HA", "DA", "CA"], level)
    flush_low = one(["SA", "S2", "S3", "S4", "S5"], level)
    flush_high = one(["ST", "SJ", "SQ", "SK", "SA"], level)
    six_2 = one(["S2", "S2", "H2", "D2", "C2", "C2"], level)
    seven = one(["S4", "S4", "H4", "D4", "C4", "C4", "H4"], level)
    ten = one(["S6", "S6", "D6", "D6", "C6", "C6", "H6", "H6", "H9", "H9"], level)
    jokers = one(["SB", "SB", "HR", "HR"], level)
    ladder = [four_a, five_3, five_a, flush_low, flush_high, six_2, seven, ten, jokers]
    for i, lower in enumerate(ladder):
        for higher in ladder[i + 1:]:
            assert beats(higher, lower, level), (higher, lower)
            assert not beats(lower, higher, level), (lower, higher)


def test_straight_flush_beats_five_card_bombs_and_loses_to_six():
    flush = one(["S4", "S5", "S6", "S7", "S8"], "2")
    assert beats(flush, one(["SK", "SK", "HK", "DK", "CK"], "2"), "2")
    assert not beats(flush, one(["S3", "S3", "H3", "D3", "C3", "C3"], "2"), "2")


def test_level_bombs_beat_ace_bombs_of_the_same_size():
    assert beats(one(["S5", "D5", "C5", "S5"], "5"), one(["SA", "HA", "DA", "CA"], "5"), "5")
    assert not beats(one(["S5", "D5", "C5", "S5"], "5"), one(["SA", "HA", "DA", "CA", "CA"], "5"), "5")


def test_anything_leads_and_pass_beats_nothing():
    assert beats(one(["S3"]), None, "2") and beats(one(["S3"]), PASS, "2")
    assert not beats(PASS, one(["S3"]), "2")


def test_parse_play_checks_the_reading():
    assert parse_play(["Straight", "4", ["H2", "S4", "C5", "D6", "S7"]], "2") == Play(
        "Straight", "4", ("H2", "S4", "C5", "D6", "S7"))
    assert parse_play(["PASS", "PASS", "PASS"], "2") == PASS
    with pytest.raises(InvalidPlay):
        parse_play(["Straight", "5", ["H2", "S4", "C5", "D6", "S7"]], "2")
    with pytest.raises(InvalidPlay):
        parse_play(["Pair", "9"], "2")
