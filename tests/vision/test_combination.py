"""A play read as no combination: the reader's runners-up that make one are taken."""

from collections import Counter

from vision.combination import as_combination
from vision.deck import Reread

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
