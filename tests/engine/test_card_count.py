"""The card tracker (记牌) viewers see."""

from engine.card_count import CardTracker


def test_fresh_tracker_sees_nothing():
    s = CardTracker("5").summary()
    assert s["unseen"] == 108
    assert (s["big_jokers"], s["small_jokers"], s["wildcards"], s["level_cards"]) == (2, 2, 2, 6)
    assert s["bomb_ranks"] == list("23456789TJQKA")


def test_played_cards_are_counted_out():
    t = CardTracker("5")
    t.add(["HR", "H5", "S5", "S9", "S9", "H9", "D9", "C9"])
    s = t.summary()
    assert s["unseen"] == 100
    assert (s["big_jokers"], s["wildcards"], s["level_cards"]) == (1, 1, 5)
    assert s["by_rank"]["9"] == 3
    assert "9" not in s["bomb_ranks"] and "8" in s["bomb_ranks"]
