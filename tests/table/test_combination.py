"""A play read as no combination, as a straight flush with a suit in doubt, or as not beating
the play it is laid on: the reader's runners-up that make it a combination, a plain straight,
or a play that beats, are taken."""

from collections import Counter

from engine.plays import classify
from table.combination import as_beating, as_combination, as_plain_straight
from table.deck import Reread

NONE: tuple = ()


def test_a_combination_is_left_as_read_whatever_else_its_cards_might_be():
    cards = ("S3", "D4", "S5", "S6", "S7")
    others = [NONE, NONE, NONE, (("S9", 0.4),), NONE]
    assert as_combination(cards, others, "2", Counter()) == (cards, [])
    # a single always is one: a single that does not beat the table is for the engine to judge
    assert as_combination(("C4",), [(("CA", 0.45),)], "2", Counter()) == (("C4",), [])


def test_one_misread_rank_in_a_straight_is_mended_from_its_runner_up():
    cards = ("S3", "D4", "S5", "S9", "S7")
    others = [NONE, (("DA", 0.2),), NONE, (("S8", 0.35), ("S6", 0.3)), NONE]
    mended, rereads = as_combination(cards, others, "2", Counter())
    assert mended == ("S3", "D4", "S5", "S6", "S7") and rereads == [Reread("S9", "S6", 0.3)]


def test_the_fewest_swaps_win_then_the_likeliest():
    # a pair read as S8 S9: one swap mends it either way; the likelier runner-up wins
    cards, rereads = as_combination(("S8", "S9"), [(("C9", 0.2),), (("C8", 0.5),)], "2", Counter())
    assert cards == ("S8", "C8") and [r.taken for r in rereads] == ["C8"]
    # four cards that need two swaps to be a bomb
    cards, rereads = as_combination(("SK", "HK", "S4", "D9"), [NONE, NONE, (("CK", 0.3),), (("DK", 0.2),)], "2",
                                    Counter())
    assert cards == ("SK", "HK", "CK", "DK") and len(rereads) == 2


def test_runners_up_too_unlikely_or_out_of_the_deck_are_not_taken():
    cards = ("S3", "D4", "S5", "S9", "S7")
    weak = [NONE, NONE, NONE, (("S6", 0.05),), NONE]
    assert as_combination(cards, weak, "2", Counter()) == (cards, [])
    out = [NONE, NONE, NONE, (("S6", 0.4), ("C6", 0.2)), NONE]
    assert as_combination(cards, out, "2", Counter({"S6": 2}))[0] == ("S3", "D4", "S5", "C6", "S7")


def test_a_row_with_a_card_missing_is_left_as_read():
    cards = ("S3", "D4", "S6", "S7")  # a straight's five with its 5 unread: no swap makes four a combination
    others = [(("C3", 0.3),), (("D5", 0.3),), (("C6", 0.3),), (("C7", 0.3),)]
    assert as_combination(cards, others, "2", Counter()) == (cards, [])


def test_a_straight_flush_with_a_suit_in_doubt_is_taken_as_the_straight():
    cards = ("S8", "S9", "ST", "SJ", "SQ")
    others = [NONE, (("C9", 0.15),), NONE, (("H7", 0.3),), (("CQ", 0.35), ("S9", 0.2))]
    taken, rereads = as_plain_straight(cards, others, "2", Counter())
    # only a same-rank runner-up in another suit, the likeliest of them: SQ taken as CQ
    assert taken == ("S8", "S9", "ST", "SJ", "CQ") and rereads == [Reread("SQ", "CQ", 0.35)]


def test_a_sure_straight_flush_and_other_plays_are_left_as_read():
    flush = ("H3", "H4", "H5", "H6", "H7")
    assert as_plain_straight(flush, [NONE] * 5, "2", Counter()) == (flush, [])
    # a runner-up under the floor is no doubt worth a swap
    assert as_plain_straight(flush, [(("D3", 0.05),)] + [NONE] * 4, "2", Counter()) == (flush, [])
    # a plain straight and a bomb are not flushes
    straight = ("H3", "C4", "H5", "H6", "H7")
    assert as_plain_straight(straight, [(("D3", 0.4),)] + [NONE] * 4, "2", Counter()) == (straight, [])
    bomb = ("S9", "C9", "D9", "H9")
    assert as_plain_straight(bomb, [(("C9", 0.4),)] + [NONE] * 3, "2", Counter()) == (bomb, [])


def test_no_swap_makes_a_third_copy_of_a_card():
    cards = ("S8", "S9", "ST", "SJ", "SQ")
    others = [NONE, NONE, NONE, NONE, (("CQ", 0.35),)]
    assert as_plain_straight(cards, others, "2", Counter({"CQ": 2})) == (cards, [])
    assert as_plain_straight(cards, others, "2", Counter({"CQ": 1}))[0][-1] == "CQ"


def _play(*cards: str, level: str = "2"):
    (play,) = classify(cards, level)
    return play


def test_a_big_joker_read_as_the_small_one_on_a_small_joker_is_taken_as_the_big_one():
    cards, rereads = as_beating(("SB",), [(("HR", 0.21),)], "2", Counter({"SB": 1}), _play("SB"))
    assert cards == ("HR",) and rereads == [Reread("SB", "HR", 0.21)]


def test_a_pair_of_level_cards_read_as_a_lower_pair_takes_both_runners_up():
    # at level 2 a pair of 2s beats a pair of kings; read as a pair of 8s it would not
    others = [(("C2", 0.3), ("C3", 0.2)), (("S2", 0.25),)]
    cards, rereads = as_beating(("C8", "S8"), others, "2", Counter(), _play("SK", "HK"))
    assert cards == ("C2", "S2") and [r.taken for r in rereads] == ["C2", "S2"]


def test_a_play_that_beats_a_lead_or_no_combination_is_left_as_read():
    assert as_beating(("S9",), [(("S3", 0.4),)], "2", Counter(), _play("S8")) == (("S9",), [])
    assert as_beating(("S3",), [(("S9", 0.4),)], "2", Counter(), None) == (("S3",), [])
    row = ("S3", "H9")  # no combination: as_combination's to mend, not this
    assert as_beating(row, [(("C3", 0.4),), NONE], "2", Counter(), _play("S8")) == (row, [])


def test_a_single_laid_under_a_single_and_read_surely_is_left_for_the_engine():
    # the illegal play a referee must hear of: its runners-up are too unlikely, or do not beat
    assert as_beating(("C5",), [(("C3", 0.06), ("S5", 0.04))], "2", Counter(), _play("D9")) == (("C5",), [])
    assert as_beating(("C5",), [(("C6", 0.3),)], "2", Counter(), _play("D9")) == (("C5",), [])
    # nor is a runner-up taken that would be a third copy
    assert as_beating(("SB",), [(("HR", 0.4),)], "2", Counter({"HR": 2}), _play("SB")) == (("SB",), [])
