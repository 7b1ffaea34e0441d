"""Two decks, each card twice: a third copy read is taken as the reader's runner-up."""

from collections import Counter

from table.deck import Reread, within_deck


def test_a_play_within_the_deck_is_left_as_read():
    cards, rereads = within_deck(("S3", "S3"), [(("C3", 0.2),), (("C3", 0.1),)], Counter())
    assert cards == ("S3", "S3") and rereads == []


def test_a_third_copy_is_taken_as_its_runner_up():
    cards, rereads = within_deck(("S3",), [(("C3", 0.3), ("S8", 0.1))], Counter({"S3": 2}))
    assert cards == ("C3",)
    assert rereads == [Reread("S3", "C3", 0.3)]


def test_a_runner_up_the_deck_has_run_out_of_is_passed_over():
    cards, rereads = within_deck(("S3",), [(("C3", 0.3), ("S8", 0.12))], Counter({"S3": 2, "C3": 2}))
    assert cards == ("S8",) and rereads == [Reread("S3", "S8", 0.12)]


def test_with_no_runner_up_left_the_reading_stands_for_the_engine_to_flag():
    assert within_deck(("S3",), [(("C3", 0.3),)], Counter({"S3": 2, "C3": 2})) == (("S3",), [])
    assert within_deck(("S3",), [()], Counter({"S3": 2})) == (("S3",), [])


def test_of_three_copies_in_one_play_the_one_likeliest_to_be_something_else_is_reread():
    others = [(("C5", 0.15),), (("C5", 0.4),), (("C5", 0.2),)]
    cards, rereads = within_deck(("S5", "S5", "S5"), others, Counter())
    assert cards == ("S5", "C5", "S5") and [r.confidence for r in rereads] == [0.4]


def test_two_runners_up_of_one_name_take_only_what_the_deck_has_left():
    others = [(("C5", 0.3), ("S6", 0.2)), (("C5", 0.4), ("S6", 0.1))]
    cards, _ = within_deck(("S5", "S5"), others, Counter({"S5": 2, "C5": 1}))
    assert cards == ("S6", "C5")


def test_a_runner_up_too_unlikely_is_not_taken_the_earlier_copy_may_be_the_misread_one():
    assert within_deck(("S3",), [(("C3", 0.05),)], Counter({"S3": 2})) == (("S3",), [])
    assert within_deck(("S3",), [(("C3", 0.05),)], Counter({"S3": 2}), floor=0.01)[0] == ("C3",)


def test_copies_beyond_two_in_one_play_are_left_out_so_the_record_can_hold_it():
    from table.deck import at_most_copies

    assert at_most_copies(("S3", "H4", "S3", "S3")) == (("S3", "H4", "S3"), ("S3",))
    assert at_most_copies(("S3", "S3", "D9")) == (("S3", "S3", "D9"), ())
