"""Reading a wildcard from where it was laid."""

from engine.layout import reading_from_layout


def reading(cards, level="2"):
    play = reading_from_layout(cards, level)
    return (play.type, play.rank) if play else None


def test_a_wildcard_laid_first_is_the_low_end_and_last_the_high_end():
    assert reading(["H2", "S4", "C5", "D6", "S7"]) == ("Straight", "3")
    assert reading(["S4", "C5", "D6", "S7", "H2"]) == ("Straight", "4")
    assert reading(["S7", "D6", "C5", "S4", "H2"]) == ("Straight", "3")  # laid high to low


def test_a_wildcard_in_the_gap():
    assert reading(["S3", "S4", "H2", "D6", "S7"]) == ("Straight", "3")


def test_tubes_and_plates():
    assert reading(["SA", "HA", "H2", "H2", "S3", "D3"], "2") == ("ThreePair", "A")
    assert reading(["S3", "D3", "H2", "S4", "C4", "D4"], "2") == ("TwoTrips", "3")


def test_no_decision_without_a_wildcard_or_when_the_layout_fits_several():
    assert reading(["S4", "H2", "S5", "S6", "S7"], "9") is None  # H2 is no wildcard at level 9: no play
    assert reading_from_layout(["H2", "S4", "S5", "S6", "S7"], "2") is None  # straight or straight flush
    assert reading(["S3", "D3", "C3", "H2", "H2"]) is None  # full house or bomb: not a matter of places
    assert reading(["S9", "D9"]) == ("Pair", "9")  # one reading: nothing to decide
