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


def test_laid_out_is_read_back_as_the_reading_it_lays_out():
    """Every sequence with wildcards, laid out for each of its readings, reads back as that
    reading (or, for a straight that is also a straight flush, leaves the choice open)."""
    import random

    from engine.cards import RANKS
    from engine.layout import laid_out
    from engine.plays import SEQUENCE_SHAPES, SEQUENCES, START_RANK, STRAIGHT, STRAIGHT_FLUSH, classify

    rng = random.Random(7)
    checked = 0
    for level in ("2", "7", "A"):
        wild = "H" + level
        for kind, (per, length, highest) in SEQUENCE_SHAPES.items():
            for start in range(1, highest + 1):
                ranks = [START_RANK[start] if v == start else RANKS[v - 2] for v in range(start, start + length)]
                cards = [rng.choice("SCD") + r for r in ranks for _ in range(per)]
                for n in range(1, 3):  # one or both wildcards stand in
                    laid = list(cards)
                    for i in rng.sample(range(len(laid)), n):
                        laid[i] = wild
                    if laid.count(wild) > 2 or any(laid.count(c) > 2 for c in laid):
                        continue
                    for play in classify(laid, level):
                        if play.type not in SEQUENCES:
                            continue
                        out = laid_out(play, level)
                        assert sorted(out) == sorted(play.cards)
                        back = reading_from_layout(out, level)
                        if back is None:
                            assert {p.type for p in classify(laid, level)} >= {STRAIGHT, STRAIGHT_FLUSH}
                        else:
                            assert (back.type, back.rank) == (play.type, play.rank), (kind, laid, play, out)
                        checked += 1
    assert checked > 200
    assert laid_out(classify(["S9", "D9"], "2")[0], "2") == ("S9", "D9")  # not a sequence: as it is
