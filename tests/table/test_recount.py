"""A hand's plays read again together: each card at most twice, the likeliest story kept."""

import itertools

import numpy as np
import pytest

from table.recount import HandCount, ReadPlay, cheapest_assignment


@pytest.mark.parametrize("seed", range(40))
def test_the_cheapest_assignment_is_the_cheapest_of_all(seed):
    rng = np.random.default_rng(seed)
    rows = int(rng.integers(1, 6))
    cost = rng.random((rows, int(rng.integers(rows, 8)))) * 10
    if seed % 3 == 0:
        cost[rng.random(cost.shape) < 0.4] = 1e6  # pairs no assignment should take
    got = cheapest_assignment(cost)
    best = min(sum(cost[r, c] for r, c in enumerate(cols))
               for cols in itertools.permutations(range(cost.shape[1]), rows))
    assert len(set(got)) == rows
    assert sum(cost[r, c] for r, c in enumerate(got)) == pytest.approx(best)


def test_more_rows_than_columns_is_refused():
    with pytest.raises(ValueError, match="3 rows"):
        cheapest_assignment(np.zeros((3, 2)))


def play(seq, *read):
    """A play as read: ``read`` is (card, confidence, runners-up…) per card."""
    return ReadPlay(seq, tuple(r[0] for r in read), tuple(((r[0], r[1]), *r[2:]) for r in read))


def test_an_early_misread_pair_is_corrected_when_the_real_pair_shows_up():
    """The docstring's story: spade queens read as clubs at 0.44 against 0.42, then the real
    club queens at 0.50 against 0.23. One misreading, not two."""
    count = HandCount("2")
    count.add(play(2, ("CQ", 0.44, ("SQ", 0.42)), ("CQ", 0.44, ("SQ", 0.42))))
    assert count.settle() == []
    count.bind(2)
    count.add(play(None, ("CQ", 0.50, ("SQ", 0.23)), ("CQ", 0.50, ("SQ", 0.23))))
    changes = count.settle()
    assert [(c.seq, c.was, c.now) for c in changes] == [(2, ("CQ", "CQ"), ("SQ", "SQ"))]
    assert count.seen() == {"SQ": 2, "CQ": 2}
    count.bind(7)
    assert [p.seq for p in count.plays] == [2, 7]


def test_the_play_being_read_is_the_one_changed_when_it_is_the_doubtful_one():
    count = HandCount("2")
    count.add(play(2, ("CQ", 0.70, ("SQ", 0.10)), ("CQ", 0.70, ("SQ", 0.10))))
    count.bind(2)
    count.add(play(None, ("CQ", 0.40, ("SQ", 0.35))))
    assert [(c.seq, c.now) for c in count.settle()] == [(None, ("SQ",))]


def test_a_play_keeps_its_combination():
    """Read again, a straight never becomes a straight flush, nor a pair of 8s one of 9s."""
    count = HandCount("2")
    count.add(play(2, ("S3", 0.9), ("S4", 0.9), ("S5", 0.9), ("S6", 0.9), ("C7", 0.4, ("S7", 0.38))))
    count.add(play(3, ("C7", 0.9), ("C7", 0.9)))  # a third C7: one of them is something else
    count.add(play(4, ("S8", 0.45, ("S9", 0.40)), ("S8", 0.45, ("S9", 0.40))))
    count.add(play(5, ("S8", 0.9)))
    assert count.settle() == []  # S7 would make a flush; S9 S9 another pair
    assert count.seen()["C7"] == 3 and count.seen()["S8"] == 3  # left for the engine to flag


def test_a_recorded_play_changes_rank_only_where_the_record_stays_sound():
    """A pair of 5s read as 3s at a lead, then the real 3s turn up. The
    pair of 3s may become a pair of 5s if the record, so corrected, holds no new violation
    (``harmless``: the runtime replays it); a pair is never made into something else."""

    def hand(harmless):
        count = HandCount("2")
        count.add(play(47, ("C3", 0.5, ("C5", 0.3)), ("D3", 0.35, ("D5", 0.3))))
        count.add(play(69, ("D3", 0.9), ("D3", 0.9), ("C3", 0.9)))  # trips: the real 3s
        count.add(play(None, ("C3", 0.8)))  # a third C3, and D3 is out three times
        asked = []
        changes = count.settle(lambda seq, cards: asked.append((seq, cards)) or harmless)
        return [(c.seq, c.now) for c in changes], asked

    changes, asked = hand(True)
    assert changes == [(47, ("C5", "D5"))] and asked == [(47, ("C5", "D5"))]
    changes, asked = hand(False)
    assert changes == [] and asked == [(47, ("C5", "D5"))]  # kept: the engine will say duplicate_card
    count = HandCount("2")
    count.add(play(3, ("C3", 0.5, ("C5", 0.3))))
    count.add(play(None, ("C3", 0.9)))
    count.add(play(None, ("C3", 0.9)))
    assert count.settle() == []  # no judge given: a rank is never changed
    count = HandCount("2")  # a straight taken for the flush it was read as (table.combination)
    count.add(play(4, ("S3", 0.9), ("S4", 0.9), ("S5", 0.9), ("S6", 0.9), ("C7", 0.3, ("S7", 0.6))))
    assert count.settle(lambda seq, cards: True) == []  # the likelier flush is another type: never


def test_plays_with_a_wildcard_or_no_reading_are_left_alone():
    count = HandCount("5")  # the heart 5 is the wildcard: 5-9 or 6-10
    count.add(play(2, ("H5", 0.9), ("S6", 0.9), ("S7", 0.9), ("S8", 0.9), ("C9", 0.5, ("S9", 0.45))))
    count.add(play(3, ("C9", 0.9), ("C9", 0.9)))
    count.add(play(4, ("S3", 0.5, ("C3", 0.45)), ("D4", 0.9)))  # no combination
    count.add(play(5, ("S3", 0.9), ("S3", 0.9)))
    assert count.settle() == []


def test_only_the_readers_own_runners_up_of_some_weight_are_taken():
    count = HandCount("2")
    count.add(play(2, ("CQ", 0.6, ("SQ", 0.03)), ("CQ", 0.6, ("SQ", 0.03))))  # a runner-up under FLOOR
    count.add(play(3, ("CQ", 0.9, ("SQ", 0.2))))
    assert [(c.seq, c.now) for c in count.settle()] == [(3, ("SQ",))]
    count = HandCount("2")
    count.add(play(2, ("CQ", 0.9)))
    count.add(play(3, ("CQ", 0.9)))
    count.add(play(4, ("CQ", 0.9, ("DK", 0.01))))  # nothing else it could be: kept, three of them
    assert count.settle() == [] and count.seen()["CQ"] == 3


def test_a_play_read_but_never_recorded_gives_way_to_the_next():
    count = HandCount("2")
    count.add(play(2, ("CQ", 0.9)))
    count.add(play(None, ("CQ", 0.9)))  # a clock press that came to nothing
    count.add(play(None, ("SQ", 0.9)))
    assert [p.cards for p in count.plays] == [("CQ",), ("SQ",)]


def test_a_play_taken_otherwise_after_all_is_counted_as_taken():
    count = HandCount("2")
    count.add(play(None, ("S3", 0.6, ("C3", 0.3)), ("S5", 0.4, ("S4", 0.35))))
    count.amend(("S3", "S4"))  # no combination as read: table.combination took a runner-up
    assert count.plays[0].cards == ("S3", "S4") and count.plays[0].choices  # still read again later
    count.amend(("S3",))  # a copy dropped: its places no longer line up
    assert count.plays[0].cards == ("S3",) and count.plays[0].choices == ()
