"""Cards, the platform encoding and the two orders (RULES.md "Table and cards", "Levels")."""

import pytest

from engine.cards import (
    ALL_CARDS,
    InvalidCard,
    card_order,
    full_deck,
    order,
    parse_card,
    parse_cards,
    parse_level,
    wildcard,
)


def test_two_decks_hold_108_cards_54_distinct():
    assert len(ALL_CARDS) == 54
    assert len(full_deck()) == 108
    assert full_deck().count("SB") == 2 and full_deck().count("HR") == 2


@pytest.mark.parametrize("text,card", [("S5", "S5"), ("h10", "HT"), (" dA ", "DA"), ("sb", "SB"), ("HR", "HR")])
def test_parse_card_accepts_platform_and_typed_forms(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("bad", ["X5", "S1", "S", "", "HB", "SR", "S11", None, 5])
def test_parse_card_rejects_everything_else(bad):
    with pytest.raises(InvalidCard):
        parse_card(bad)


def test_a_third_copy_of_a_card_is_invalid():
    parse_cards(["S5", "S5"])
    with pytest.raises(InvalidCard, match="S5 appears 3 times"):
        parse_cards(["S5", "S5", "S5"])


def test_a_string_is_not_a_list_of_cards():
    with pytest.raises(InvalidCard):
        parse_cards("S5")


def test_levels():
    assert parse_level("10") == "T"
    assert parse_level("a") == "A"
    for bad in ("1", "B", "R", "11", "joker"):
        with pytest.raises(InvalidCard):
            parse_level(bad)


def test_single_card_order_lifts_the_level_rank():
    # big joker > small joker > level rank > A > K > … > 2 (level 5)
    ranks = ["R", "B", "5", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "4", "3", "2"]
    values = [order(r, "5") for r in ranks]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_wildcard_is_the_heart_level_card():
    assert wildcard("5") == "H5"
    assert wildcard("T") == "HT"
    # a wildcard on its own is a level card
    assert card_order("H5", "5") == card_order("S5", "5") > card_order("SA", "5")
