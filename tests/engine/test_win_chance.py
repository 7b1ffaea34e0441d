"""The win chance (胜率): a probability over the two sides, certain once the first place is
known, favouring the side with far fewer cards, blind to the hands themselves, and fast."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest

from engine.bots import self_play
from engine.events import Deal, Pass, PlayCards
from engine.hand import Hand
from engine.match import Match
from engine.phases import OVER
from engine.seats import PLAY_ORDER, next_seat
from engine.win_chance import FEATURES, PLACES, Seen, chance, win_chance
from engine.win_chance_model import model
from rulebook import profiles

PROFILE = profiles.load("jiangsu")
UPGRADES = PROFILE.levels.upgrades


def bot_states(seed: int, hands: int = 2):
    """(hand, event) after each event of the first ``hands`` hands of a bot match."""
    events = self_play(PROFILE, random.Random(seed), max_hands=hands)
    match = Match(PROFILE, events[0])
    for event in events[1:]:
        match.push(event)
        if match.hand is not None:
            yield match.hand, event


def public(counts: dict[str, int], turn: str, **changes) -> Seen:
    """A public state in the middle of a first hand at level 2: nothing special played."""
    state = Seen(number=1, level="2", declarers="EW", counts=counts, finished=(),
                 tallies={s: (0, 0, 0, 0, 0) for s in PLAY_ORDER}, unseen=(2, 2, 2, 6, 13), top=None, passes=0,
                 to_act=(turn,), winner_before=None, tributes=0, resisted=False, outcome=None)
    return replace(state, **changes)


def test_a_probability_over_the_two_sides_at_every_state():
    checked = 0
    for hand, _ in bot_states(seed=11):
        c = win_chance(hand)
        assert 0.0 <= c.win["EW"] <= 1.0 and c.win["EW"] + c.win["NS"] == pytest.approx(1.0)
        for side in ("EW", "NS"):
            assert sum(c.places[side].values()) == pytest.approx(c.win[side])
            assert sum(c.levels(UPGRADES)[side].values()) == pytest.approx(c.win[side])
            assert set(c.levels(UPGRADES)[side]) == {3, 2, 1}
        checked += 1
    assert checked > 100


def test_certain_once_a_seat_has_gone_out_first():
    seen_first = seen_over = False
    for hand, _ in bot_states(seed=5, hands=3):
        c = win_chance(hand)
        if not hand.finished:
            assert not c.decided and 0.0 < c.win["EW"] < 1.0
            continue
        side = "EW" if hand.finished[0] in "EW" else "NS"
        assert c.decided and c.win[side] == 1.0 and c.win["NS" if side == "EW" else "EW"] == 0.0
        seen_first = True
        if len(hand.finished) >= 2 and hand.finished[1] not in side:  # an opponent second: no double down
            assert c.places[side][2] == 0.0
        if hand.phase == OVER:
            o = hand.outcome
            assert c.places[o.winner_side][o.partner_place] == 1.0
            seen_over = True
    assert seen_first and seen_over


def test_the_side_with_far_fewer_cards_is_favoured():
    for turn in PLAY_ORDER:  # whoever is to act, on a lead
        ew_close = chance(public({"E": 2, "W": 3, "N": 20, "S": 22}, turn))
        ns_close = chance(public({"E": 21, "W": 19, "N": 3, "S": 2}, turn))
        assert ew_close.win["EW"] > 0.75, turn
        assert ns_close.win["NS"] > 0.75, turn
    level = chance(public({"E": 14, "W": 14, "N": 14, "S": 14}, "N"))
    assert 0.25 < level.win["EW"] < 0.75


def test_turning_the_table_a_quarter_swaps_the_sides():
    """Seen from the seat to act, the estimate has no favourite side: the same state with
    every seat moved one place on (so East-West's cards are North-South's) swaps the chances."""
    state = public({"E": 4, "N": 9, "W": 13, "S": 7}, "N", finished=(),
                   tallies={"E": (1, 0, 1, 2, 1), "N": (0, 1, 0, 1, 3), "W": (0, 0, 0, 0, 2), "S": (1, 1, 1, 0, 0)})
    turned = replace(state, counts={next_seat(s): n for s, n in state.counts.items()},
                     tallies={next_seat(s): t for s, t in state.tallies.items()}, to_act=("W",), declarers="NS")
    a, b = chance(state), chance(turned)
    assert a.win["EW"] == pytest.approx(b.win["NS"]) and a.win["NS"] == pytest.approx(b.win["EW"])


def test_it_reads_what_the_table_shows_not_the_hands():
    """The first hand of a bot match, replayed with its hands known and again as a camera
    sees it (hands hidden): the same estimate after every event."""
    events = self_play(PROFILE, random.Random(3), max_hands=1)
    deal = next(e for e in events if isinstance(e, Deal))
    known = Hand(1, "2", "EW", PROFILE, deal, previous=None)
    hidden = Hand(1, "2", "EW", PROFILE, replace(deal, hands=None), previous=None)
    plays = [e for e in events if isinstance(e, PlayCards | Pass)]
    for event in plays:
        known.push(event)
        hidden.push(event)
        assert win_chance(known) == win_chance(hidden)
        if known.phase == OVER:
            break
    assert known.phase == OVER


def test_before_the_leader_is_known_it_is_the_mean_over_who_may_lead():
    hand = Hand(1, "2", "EW", PROFILE, Deal(seq=1, t=0.0), previous=None)  # a first hand, no card cut yet
    c = win_chance(hand)
    assert c.win["EW"] == pytest.approx(0.5, abs=0.02)  # by symmetry, a seat of each side leads
    assert list(c.places["EW"]) == list(PLACES)


def test_an_estimate_takes_well_under_a_second():
    hand = next(h for h, _ in bot_states(seed=2) if h.top is not None and sum(h.counts.values()) < 80)
    took = []
    for _ in range(20):
        start = time.perf_counter()
        win_chance(hand)
        took.append(time.perf_counter() - start)
    assert sorted(took)[10] < 0.02  # median; about 1 ms on a 2-core VM (benchmarks/win_chance.py)


def test_the_committed_model_reads_the_features_the_engine_makes():
    fitted = model()
    assert fitted.features == FEATURES
    assert model() is fitted  # the data file is read once
    assert len(fitted.calibration.maps) >= 1 and all(len(rows) == len(PLACES) for rows in fitted.calibration.maps)


def test_the_calibrated_places_are_chances_however_many_are_out():
    """With none, one, two seats out, the calibrated place chances are a distribution; with two
    out (an opponent second) the race's table rises with the trees' chance of third."""
    calibration = model().calibration
    for out in (0, 1, 2):
        for z in ([0.0, 0.0, 0.0], [2.0, -1.0, 0.5], [-3.0, 1.0, 2.5]):
            p = calibration.chances(z, out, 1.2)
            assert sum(p) == pytest.approx(1.0) and min(p) >= 0.0
    assert calibration.race is not None
    raw, true = calibration.race
    assert list(raw) == sorted(raw) and list(true) == sorted(true) and 0.0 < true[0] <= true[-1] < 1.0
    thirds = [calibration.chances([0.0, t, 0.0], 2, 0.0)[1] for t in (-3.0, -1.0, 0.0, 1.0, 3.0)]
    assert thirds == sorted(thirds) and calibration.chances([0.0, 0.0, 0.0], 2, 0.0)[0] == 0.0
