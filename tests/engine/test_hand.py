"""The hand state machine (engine/hand.py): deal checks, turn order, tricks, 接风, the
illegal acts it records, reports (报牌), the finishing order, tribute (进贡), resisting
(抗贡), returns (还贡) and ``Hand.awaiting``.

The helpers here (``rig``, ``Table``) are shared with ``test_match.py``: ``rig`` gives
each seat 27 cards of two decks with chosen cards placed where a test wants them;
``Table`` pushes auto-numbered events into a ``Match`` (or into a lone ``Hand`` that
follows a given previous outcome) and keeps its own model of every seat's cards, so that
the same driver plays known-hand and hidden-hand (camera table) hands to any finishing
order.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import card_key, card_order, full_deck, rank_of, wildcard
from engine.events import (
    Deal,
    GiveBack,
    Header,
    Pass,
    PlayCards,
    Report,
    Resist,
    Tribute,
    event_from_json,
)
from engine.hand import OVER, PLAY, RETURN, TRIBUTE, Hand, Outcome, correct_tributes, return_allowed
from engine.legal import legal_plays
from engine.match import Entry, Match
from engine.plays import Play, strength
from engine.seats import PLAY_ORDER, next_seat, partner, prev_seat, side_of
from scorer import profiles

# --- helpers --------------------------------------------------------------------------------


def rig(**wants) -> dict[str, tuple[str, ...]]:
    """A full deal of 108 cards, 27 a seat: ``rig(S=["HR", "HR"])`` puts the listed cards
    with the seat and deals the rest round-robin (E, N, W, S) from the top of the deck down,
    so the jokers nobody asked for go to different seats (the two copies of a card go to
    different seats while more than one seat still needs cards)."""
    deck = Counter(full_deck())
    hands: dict[str, list[str]] = {s: [] for s in PLAY_ORDER}
    for seat, cards in wants.items():
        for c in cards:
            assert deck[c] > 0, f"{c} wanted more than twice"
            deck[c] -= 1
            hands[seat].append(c)
    rest = sorted(deck.elements(), key=card_key, reverse=True)
    i = 0
    for c in rest:
        while len(hands[PLAY_ORDER[i % 4]]) >= 27:
            i += 1
        hands[PLAY_ORDER[i % 4]].append(c)
        i += 1
    assert all(len(h) == 27 for h in hands.values()), {s: len(h) for s, h in hands.items()}
    return {s: tuple(h) for s, h in hands.items()}


def outcome(*order: str) -> Outcome:
    """The ``Outcome`` of a hand that finished in ``order`` (上游 first)."""
    place = order.index(partner(order[0])) + 1
    return Outcome(tuple(order), side_of(order[0]), place, double_down=place == 2)


def codes(violations) -> list[str]:
    return [v.code for v in violations]


def find(violations, code: str) -> list:
    return [v for v in violations if v.code == code]


class Table:
    """Auto-numbered events into a ``Match`` (or a lone ``Hand``), with a model of the cards
    each seat holds (kept for hidden hands too, so the driver knows what it may play)."""

    def __init__(self, profile: str = "jiangsu", levels: dict | None = None, reports_heard: bool = True) -> None:
        self.profile = profiles.load(profile)
        header = Header(seq=0, t=0.0, profile=profile, start_levels=levels or {"EW": "2", "NS": "2"},
                        reports_heard=reports_heard)
        self.match = Match(self.profile, header)
        self.lone: Hand | None = None
        self.seq = 0
        self.model: dict[str, Counter] = {}
        self.entries: list = []
        self._tribute_moved: Hand | None = None

    @classmethod
    def after(cls, previous: tuple[str, ...], hands=None, *, profile: str = "jiangsu", level: str = "2",
              hidden: bool = False) -> Table:
        """A lone hand (number 2) played after a hand that finished in ``previous``."""
        t = cls(profile)
        hands = hands or rig()
        t.model = {s: Counter(hands[s]) for s in PLAY_ORDER}
        t.seq += 1
        deal = Deal(seq=t.seq, t=float(t.seq), hands=None if hidden else hands)
        t.lone = Hand(2, level, side_of(previous[0]), t.profile, deal, outcome(*previous))
        return t

    @property
    def hand(self) -> Hand:
        return self.lone if self.lone is not None else self.match.hand

    @property
    def violations(self) -> list:
        return self.hand.violations

    def push(self, cls, **fields):
        self.seq += 1
        event = cls(seq=self.seq, t=float(self.seq), **fields)
        result = self.lone.push(event) if self.lone is not None else self.match.push(event)
        self.entries.append(result)
        return result

    # events, keeping the model in step

    def deal(self, hands=None, *, hidden: bool = False, leader: str | None = None):
        hands = rig() if hands is None else hands
        self.model = {s: Counter(hands[s]) for s in PLAY_ORDER}
        return self.push(Deal, hands=None if hidden else hands, leader=leader)

    def play(self, seat: str, *cards: str, reading=None) -> Play | None:
        """Push a play; returns the reading the hand took."""
        self.model[seat] -= Counter(cards)
        result = self.push(PlayCards, seat=seat, cards=tuple(cards), reading=reading)
        return result.reading if isinstance(result, Entry) else result

    def pass_(self, seat: str):
        return self.push(Pass, seat=seat)

    def report(self, seat: str, count: int | None = None):
        return self.push(Report, seat=seat, count=self.hand.counts[seat] if count is None else count)

    def tribute(self, seat: str, card: str, to: str | None = None):
        result = self.push(Tribute, seat=seat, card=card, to=to)
        hand = self.hand
        if hand.phase != TRIBUTE and hand.receivers and self._tribute_moved is not hand:
            self._tribute_moved = hand
            for giver, receiver in hand.receivers.items():
                self._move(giver, receiver, hand.tributes[giver])
        return result

    def give_back(self, seat: str, card: str, to: str | None = None):
        giver = next(g for g, r in self.hand.receivers.items() if r == seat)
        self._move(seat, giver, card)
        return self.push(GiveBack, seat=seat, card=card, to=to)

    def _move(self, giver: str, receiver: str, card: str) -> None:
        if self.model[giver][card]:
            self.model[giver][card] -= 1
            self.model[receiver][card] += 1

    def held(self, seat: str) -> int:
        return sum(self.model[seat].values())

    # the driver

    def lead_round(self, seat: str, *cards: str, report: bool = True) -> None:
        """``seat`` plays ``cards`` (its turn), reports if due, and everyone else passes."""
        self.play(seat, *cards)
        self._maybe_report(seat, report)
        while self.hand.phase == PLAY and self.hand.top is not None:
            self.pass_(self.hand.turn)

    def shed_to(self, seat: str, left: int, report: bool = True) -> None:
        """``seat`` leads single cards (lowest first) until it holds ``left``."""
        while self.held(seat) > left:
            assert self.hand.turn == seat and self.hand.top is None
            card = min(self.model[seat].elements(), key=lambda c: (card_order(c, self.hand.level), c))
            self.lead_round(seat, card, report=report)

    def _maybe_report(self, seat: str, report: bool) -> None:
        if report and seat in self.hand.report_due:
            self.report(seat, self.hand.counts[seat])

    def settle_tribute(self) -> None:
        """Pay tribute (the correct card), resist when owed (hidden hands) and give back the
        lowest allowed card, as a careful table would."""
        hand = self.hand
        owed_resist = hand.phase == TRIBUTE and sum(self.model[s]["HR"] for s in hand.tributers) >= 2
        if owed_resist and not hand.known:  # known hands resist by themselves at the deal
            self.push(Resist, seats=tuple(hand.tributers))
        while hand.phase == TRIBUTE:
            seat = next(s for s in hand.tributers if s not in hand.tributes)
            self.tribute(seat, correct_tributes(self.model[seat].elements(), hand.level)[0])
        while hand.phase == RETURN:
            receiver, giver = next((r, g) for g, r in hand.receivers.items() if r not in hand.returns)
            relation = "partner" if partner(receiver) == giver else "opponent"
            rule = getattr(self.profile.tribute, f"return_to_{relation}")
            held = sorted(self.model[receiver].elements(), key=lambda c: (card_order(c, hand.level), c))
            self.give_back(receiver, next(c for c in held if return_allowed(c, hand.level, rule)))

    def _groups(self, seat: str) -> list[tuple[str, ...]]:
        """The seat's cards as leads: the lowest card alone last, the rest by rank."""
        level = self.hand.level
        cards = sorted(self.model[seat].elements(), key=lambda c: (card_order(c, level), c))
        last, rest = cards[0], cards[1:]
        by_rank: dict[str, list[str]] = {}
        for c in rest:
            by_rank.setdefault(rank_of(c), []).append(c)
        return [tuple(g) for g in by_rank.values()] + [(last,)]

    def _beat(self, seat: str) -> Play:
        hand = self.hand
        plays = legal_plays(list(self.model[seat].elements()), hand.top[1], hand.level)
        assert plays, f"{seat} cannot beat {hand.top}"
        return min(plays, key=lambda p: strength(p, hand.level))

    def finish(self, *order: str, report: bool = True):
        """Play the hand out so that players go out in ``order`` (at least up to the end of
        the hand): the next to go out sheds its cards in leads the others pass, and takes
        the lead by beating whatever is on the table when it does not hold it. Returns what
        the last push returned (the match's ``Entry``, or the lone hand's reading)."""
        hand = self.hand
        self.settle_tribute()
        while hand.phase != OVER:
            want = next(s for s in order if s not in hand.finished)
            seat = hand.turn
            if seat is None:  # first lead of a match without a named leader
                seat = want if want in hand.awaiting()[1] else hand.awaiting()[1][0]
            if hand.top is None:
                group = self._groups(seat)[0] if seat == want else self._groups(seat)[-1]
                self.play(seat, *group)
                self._maybe_report(seat, report and hand.phase != OVER)
            elif seat == want:
                self.play(seat, *self._beat(seat).cards)
                self._maybe_report(seat, report and hand.phase != OVER)
            else:
                self.pass_(seat)
        return self.entries[-1]


# --- deal checks ----------------------------------------------------------------------------

def test_a_full_known_deal_has_no_violations():
    t = Table()
    t.deal(leader="E")
    assert t.violations == []
    assert t.hand.counts == {s: 27 for s in PLAY_ORDER}
    assert t.hand.phase == PLAY and t.hand.known


def test_a_hidden_deal_starts_every_seat_at_27():
    t = Table()
    t.deal(hidden=True, leader="N")
    assert t.violations == [] and not t.hand.known
    assert t.hand.counts == {s: 27 for s in PLAY_ORDER}
    assert t.hand.awaiting() == ("first_lead", ("N",))


def test_wrong_card_counts_are_card_count_mismatch_per_seat():
    hands = dict(rig())
    moved = hands["E"][0]
    hands["E"] = hands["E"][1:]
    hands["N"] = hands["N"] + (moved,)
    t = Table()
    t.deal(hands, leader="E")
    bad = find(t.violations, "card_count_mismatch")
    assert {(v.seat, v.detail["held"]) for v in bad} == {("E", 26), ("N", 28)}
    assert all(v.seq == 1 for v in bad)
    # the deck as a whole is still the two decks: no deck-level flag
    assert all(v.seat is not None for v in bad)


def test_a_third_copy_in_the_deal_is_a_deck_mismatch():
    hands = dict(rig(E=["S3", "S3"]))
    n = list(hands["N"])
    swapped_out = n.pop()
    hands["N"] = tuple(n + ["S3"])  # a third S3, and one card missing from the deck
    t = Table()
    t.deal(hands, leader="E")
    (v,) = find(t.violations, "card_count_mismatch")
    assert v.seat is None
    assert v.detail["extra"] == ["S3"] and v.detail["missing"] == [swapped_out]


# --- turn order, passes, tricks -------------------------------------------------------------

def test_play_goes_counter_clockwise_from_the_leader():
    t = Table()
    t.deal(rig(E=["S3"]), leader="E")
    assert t.hand.awaiting() == ("first_lead", ("E",))
    seen = []
    t.play("E", "S3")
    for _ in range(3):
        seen.append(t.hand.turn)
        t.pass_(t.hand.turn)
    assert seen == ["N", "W", "S"]
    assert [next_seat(s) for s in PLAY_ORDER] == ["N", "W", "S", "E"]
    assert t.violations == []


def test_three_passes_end_the_trick_and_the_last_player_leads():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.play("N", "S5")
    t.pass_("W")
    assert t.hand.top[0] == "N" and t.hand.turn == "S"
    t.pass_("S")
    t.pass_("E")
    assert t.hand.top is None and t.hand.turn == "N" and t.hand.leader == "N"
    assert t.hand.awaiting() == ("play", ("N",))
    assert t.violations == []


def test_a_higher_play_resets_the_passes():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.pass_("N")
    t.pass_("W")
    t.play("S", "S9")
    t.pass_("E")
    t.pass_("N")
    assert t.hand.top is not None and t.hand.turn == "W"
    t.pass_("W")
    assert t.hand.top is None and t.hand.turn == "S"


def test_without_a_named_leader_anyone_may_lead_the_first_hand():
    t = Table()
    t.deal(hidden=True)
    assert t.hand.awaiting() == ("first_lead", PLAY_ORDER)
    t.play("W", "S4")
    assert t.hand.leader == "W" and t.hand.turn == "S"
    assert t.violations == []


def test_the_reading_taken_is_returned():
    t = Table()
    t.deal(hidden=True, leader="E")
    play = t.play("E", "S3", "H3")
    assert (play.type, play.rank) == ("Pair", "3")


def test_bombs_beat_other_types_and_bigger_bombs_beat_bombs():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "SA")
    t.play("N", "S4", "H4", "C4", "D4")
    t.play("W", "S5", "H5", "C5", "D5")
    t.play("S", "S3", "H3", "C3", "D3", "S3")  # 5 cards beat 4
    assert t.violations == []
    assert t.hand.top[0] == "S"


# --- 接风 ------------------------------------------------------------------------------------

def test_jiefeng_partner_leads_after_a_player_goes_out_and_all_pass():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 1)
    (last,) = t.model["E"].elements()
    t.play("E", last)
    assert t.hand.finished == ["E"]
    assert t.hand.turn == "N"
    t.pass_("N")
    t.pass_("W")
    t.pass_("S")
    assert t.hand.top is None
    assert t.hand.turn == "W" and t.hand.leader == "W"
    assert t.violations == []


def test_a_player_who_beats_the_last_card_of_a_player_out_leads():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", *["S3", "S3", "H3", "H3", "C3", "C3", "D3", "D3"])
    t.lead_round("E", *["S4", "S4", "H4", "H4", "C4", "C4", "D4", "D4"])
    t.lead_round("E", *["S5", "S5", "H5", "H5", "C5", "C5", "D5", "D5"])
    t.lead_round("E", "S6")
    t.lead_round("E", "H6")
    t.play("E", "C6")
    assert t.hand.counts["E"] == 0 and t.hand.finished == ["E"]
    t.pass_("N")
    t.play("W", "C7")  # the partner takes it the ordinary way
    t.play("S", "CA")
    t.pass_("N")
    t.pass_("W")
    assert t.hand.turn == "S" and t.hand.top is None
    assert t.violations == []


def test_finished_players_are_skipped_and_cannot_play():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 1)
    (last,) = t.model["E"].elements()
    t.play("E", last)
    t.pass_("N")
    t.pass_("W")
    t.pass_("S")
    t.play("W", min(t.model["W"], key=lambda c: card_order(c, "2")))
    assert t.hand.turn == "S"
    t.pass_("S")
    t.pass_("N")  # E is out: N is after S
    assert t.hand.turn == "W" and t.hand.top is None
    t.push(PlayCards, seat="E", cards=("HR",))
    assert codes(t.violations) == ["play_after_out"]


# --- illegal acts ----------------------------------------------------------------------------

def test_out_of_turn_play_is_flagged_and_the_table_goes_on():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.play("W", "S9")  # N's turn
    (v,) = t.violations
    assert v.code == "out_of_turn" and v.seat == "W" and v.detail["expected"] == "N"
    assert v.seq == t.seq
    assert t.hand.counts["W"] == 26  # the cards are laid
    assert t.hand.top[0] == "W"  # a legal play laid out of turn stands
    assert t.hand.turn == "S"


def test_an_illegal_play_out_of_turn_leaves_the_turn_where_it_was():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.play("S", "S5", "S7")  # N's turn; not a combination either
    assert codes(t.violations) == ["out_of_turn", "not_a_combination"]
    assert t.hand.counts["S"] == 25
    assert t.hand.top[0] == "E" and t.hand.turn == "N" and t.hand.passes == 0
    t.pass_("N")
    t.pass_("W")
    assert t.hand.top is not None  # S has not passed yet: its bad play was no pass
    t.pass_("S")
    assert t.hand.top is None and t.hand.turn == "E"
    assert codes(t.violations) == ["out_of_turn", "not_a_combination"]


def test_out_of_turn_pass_is_flagged_and_changes_nothing():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.pass_("S")
    assert codes(t.violations) == ["out_of_turn"]
    assert t.hand.turn == "N" and t.hand.passes == 0


def test_out_of_turn_first_lead():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.pass_("N")
    assert codes(t.violations) == ["out_of_turn"]
    assert t.hand.turn == "E"


def test_not_a_combination_on_a_lead_passes_the_lead_to_the_next_player():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3", "S5")
    (v,) = t.violations
    assert v.code == "not_a_combination" and v.seat == "E" and v.detail["cards"] == ["S3", "S5"]
    assert t.hand.counts["E"] == 25  # laid cards are gone
    assert t.hand.top is None
    assert t.hand.turn == "N"  # 停止一轮出牌，由下家出牌
    t.play("N", "S4")
    assert t.hand.top[0] == "N" and len(t.violations) == 1


def test_not_a_combination_on_a_trick_counts_as_a_pass():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3")
    t.play("N", "S5", "S7")
    assert codes(t.violations) == ["not_a_combination"]
    assert t.hand.counts["N"] == 25
    assert t.hand.top[0] == "E" and t.hand.turn == "W"
    t.pass_("W")
    t.pass_("S")
    assert t.hand.top is None and t.hand.turn == "E"


def test_a_declared_reading_the_cards_do_not_have_is_not_a_combination():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.play("E", "S3", "H3", reading=("Trips", "3"))
    (v,) = t.violations
    assert v.code == "not_a_combination" and v.detail["declared"] == ["Trips", "3"]


@pytest.mark.parametrize("lead, bad", [
    (("S9",), ("S5",)),                   # lower single
    (("S9",), ("S5", "H5")),              # a pair on a single
    (("S9", "H9"), ("ST",)),              # a single on a pair
    (("S9", "H9"), ("S3", "H3", "C3")),   # a triple on a pair
    (("SA", "HA", "CA", "DA"), ("S6", "S6", "H6", "H6")),  # a lower bomb of the same size
    (("S7", "S8", "C9", "DT", "SJ"), ("S6", "H7", "C8", "D9", "HT")),  # a lower straight
])
def test_does_not_beat(lead, bad):
    t = Table()
    t.deal(hidden=True, leader="E")
    lead_play = t.play("E", *lead)
    t.play("N", *bad)
    (v,) = t.violations
    assert v.code == "does_not_beat" and v.seat == "N"
    assert v.detail["on"] == lead_play.to_json()
    assert t.hand.counts["N"] == 27 - len(bad)
    # it counts as N's pass: two more passes end the trick for E
    assert t.hand.top[0] == "E"
    t.pass_("W")
    t.pass_("S")
    assert t.hand.top is None and t.hand.turn == "E"


def test_the_level_card_beats_an_ace_and_a_smaller_bomb_does_not_beat_a_bigger():
    t = Table()
    t.deal(hidden=True, leader="E")  # level 2
    t.play("E", "SA")
    t.play("N", "S2")
    assert t.violations == []
    t.play("W", "S5", "H5", "C5", "D5", "S5")
    t.play("S", "S9", "H9", "C9", "D9")
    assert codes(t.violations) == ["does_not_beat"]
    assert t.hand.top[0] == "W"


def test_pass_on_lead_keeps_the_turn():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.pass_("E")
    (v,) = t.violations
    assert v.code == "pass_on_lead" and v.seat == "E"
    assert t.hand.turn == "E" and t.hand.top is None
    t.play("E", "S3")
    assert t.hand.turn == "N"


def test_pass_on_lead_after_a_trick():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", "S3")
    t.pass_("E")
    assert codes(t.violations) == ["pass_on_lead"]
    assert t.hand.turn == "E"


def test_card_not_held_with_known_hands():
    hands = rig(E=["S3"], N=["HR", "HR"])
    t = Table()
    t.deal(hands, leader="E")
    t.play("E", "HR")
    (v,) = t.violations
    assert v.code == "card_not_held" and v.seat == "E" and v.detail["cards"] == ["HR"]
    assert t.hand.counts["E"] == 26


def test_card_not_held_for_part_of_a_play():
    hands = rig(E=["S3"], N=["S3"])
    t = Table()
    t.deal(hands, leader="E")
    t.play("E", "S3", "S3")
    (v,) = t.violations
    assert v.code == "card_not_held" and v.detail["cards"] == ["S3"]


def test_duplicate_card_with_hidden_hands_a_third_copy():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", "S3")
    t.lead_round("E", "S3")
    assert t.violations == []
    t.play("E", "S3")
    (v,) = t.violations
    assert v.code == "duplicate_card" and v.seat == "E" and v.detail["cards"] == ["S3"]


def test_a_third_copy_is_the_fault_of_the_play_that_shows_it_and_no_later_one():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", "S3")
    t.lead_round("E", "S3")
    t.lead_round("E", "S3")  # the third: flagged here
    t.lead_round("E", "H4")  # and not again with every later play
    t.lead_round("E", "S5", "S5")
    assert [(v.code, v.detail["cards"]) for v in t.violations] == [("duplicate_card", ["S3"])]


def test_duplicate_card_within_one_play_seen_with_earlier_plays():
    t = Table()
    t.deal(hidden=True, leader="E")
    t.lead_round("E", "SA")
    t.play("E", "SA", "SA")
    assert codes(t.violations) == ["duplicate_card"]


def test_hidden_hand_playing_more_cards_than_held():
    t = Table()
    t.deal(hidden=True, leader="E")
    for rank in "345":
        t.lead_round("E", *[s + rank for s in "SHCD" for _ in range(2)])
    assert t.hand.counts["E"] == 3
    t.play("E", "S9", "H9", "C9", "D9")
    (v,) = find(t.violations, "card_count_mismatch")
    assert v.seat == "E" and v.detail == {"held": 3, "played": 4}
    assert t.hand.counts["E"] == 0 and t.hand.finished == ["E"]


# --- reports (报牌) ---------------------------------------------------------------------------

@pytest.mark.parametrize("profile, threshold", [("jiangsu", 10), ("linyi", 10), ("linquan", 7),
                                                ("linyi_notice", 10)])
def test_report_threshold_per_profile(profile, threshold):
    t = Table(profile)
    assert t.profile.report.threshold == threshold
    t.deal(leader="E")
    t.shed_to("E", threshold + 1, report=False)
    assert t.violations == []  # above the threshold nothing is due
    card = min(t.model["E"], key=lambda c: card_order(c, "2"))
    t.play("E", card)
    assert t.hand.report_due == {"E": threshold}
    t.pass_("N")
    (v,) = t.violations
    assert v.code == "missed_report" and v.seat == "E" and v.detail["count"] == threshold
    assert v.seq == t.seq  # flagged at the event that came before the report


def test_a_report_in_time_clears_the_duty():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 10)  # reports as it goes
    assert t.violations == []
    t.lead_round("E", min(t.model["E"], key=lambda c: card_order(c, "2")), report=True)
    assert t.violations == [] and t.hand.report_due == {}


def test_a_missed_report_is_flagged_at_the_next_players_pass():
    t = Table()
    t.deal(hidden=True, leader="E")
    for rank in "345":
        t.lead_round("E", *[s + rank for s in "SHCD" for _ in range(2)], report=False)
    # 27 - 24 = 3 left after the third bomb: a report was due before the first pass
    assert codes(t.violations) == ["missed_report"]
    assert t.violations[0].detail["count"] == 3


def test_a_camera_table_cannot_hear_reports_so_none_is_missed():
    t = Table(reports_heard=False)
    t.deal(hidden=True, leader="E")
    for rank in "345":
        t.lead_round("E", *[s + rank for s in "SHCD" for _ in range(2)], report=False)
    assert t.violations == [] and t.hand.report_due == {}
    assert event_from_json(t.match.header.to_json()).reports_heard is False  # kept in the record
    assert "reports_heard" not in Header(seq=0, t=0.0).to_json()  # records that hear them are as before


def test_a_late_report_does_not_excuse_the_missed_one():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 10, report=False)
    missed = find(t.violations, "missed_report")
    assert len(missed) == 1 and missed[0].detail["count"] == 10
    t.report("E", 10)  # late: after N's pass
    assert len(find(t.violations, "missed_report")) == 1
    assert find(t.violations, "wrong_report") == []


def test_wrong_report():
    t = Table("linquan")
    t.deal(leader="E")
    t.shed_to("E", 8)
    t.play("E", min(t.model["E"], key=lambda c: card_order(c, "2")))
    t.report("E", 6)
    (v,) = t.violations
    assert v.code == "wrong_report" and v.seat == "E" and v.detail == {"said": 6, "held": 7}
    t.pass_("N")
    assert codes(t.violations) == ["wrong_report"]  # a wrong report is not also a missed one


def test_linyi_reports_once_and_a_repeated_report_is_flagged():
    t = Table("linyi")
    t.deal(leader="E")
    t.shed_to("E", 10)  # reports once, at 10
    t.shed_to("E", 8, report=False)  # nothing more is due
    assert t.violations == [] and t.hand.report_due == {}
    t.report("E", 8)
    (v,) = t.violations
    assert v.code == "repeated_report" and v.seat == "E"


def test_jiangsu_reports_after_every_play_at_the_threshold():
    t = Table("jiangsu")
    t.deal(leader="E")
    t.shed_to("E", 10)
    t.shed_to("E", 9, report=False)
    assert codes(t.violations) == ["missed_report"]


def test_going_out_needs_no_report():
    t = Table()
    t.deal(leader="E")
    t.shed_to("E", 1)
    (last,) = t.model["E"].elements()
    t.play("E", last)
    assert t.hand.report_due == {}
    t.pass_("N")
    assert t.violations == []


# --- finishing order --------------------------------------------------------------------------

def test_both_of_one_side_out_ends_the_hand_double_down():
    t = Table()
    t.deal(leader="E")
    t.finish("E", "W")
    o = t.hand.outcome
    assert o.order[:2] == ("E", "W") and set(o.order[2:]) == {"N", "S"}
    assert o.winner_side == "EW" and o.partner_place == 2 and o.double_down
    assert t.hand.phase == OVER and t.hand.awaiting() == ("over", ())
    assert t.violations == []


@pytest.mark.parametrize("order, place", [(("E", "N", "W", "S"), 3), (("N", "E", "S", "W"), 3),
                                          (("S", "W", "E", "N"), 4), (("W", "N", "S", "E"), 4)])
def test_three_out_ends_the_hand(order, place):
    t = Table()
    t.deal(leader=order[0])
    t.finish(*order)
    o = t.hand.outcome
    assert o.order == order
    assert o.winner_side == side_of(order[0]) and o.partner_place == place and not o.double_down
    assert t.violations == []


def test_the_driver_works_on_hidden_hands_too():
    t = Table()
    t.deal(hidden=True, leader="N")
    t.finish("N", "E", "S", "W")
    assert t.hand.outcome.order == ("N", "E", "S", "W")
    assert t.violations == []


def test_events_after_the_hand_is_over_are_play_after_out():
    t = Table.after(("E", "N", "W", "S"))
    t.settle_tribute()
    t.finish("S", "N")
    t.push(Pass, seat="E")
    assert codes(t.violations)[-1] == "play_after_out"
    assert t.violations[-1].detail == {"reason": "hand_over"}


# --- tribute (进贡) ---------------------------------------------------------------------------

def test_single_tribute_return_and_lead():
    hands = rig(S=["HR", "SB"], E=["HR", "S3"])
    t = Table.after(("E", "N", "W", "S"), hands)
    hand = t.hand
    assert hand.phase == TRIBUTE and hand.tributers == ["S"]
    assert hand.awaiting() == ("tribute", ("S",))
    t.tribute("S", "HR")
    assert hand.phase == RETURN and hand.receivers == {"S": "E"}
    assert hand.awaiting() == ("return", ("E",))
    assert hand.holdings["E"]["HR"] == 2 and hand.holdings["S"]["HR"] == 0
    t.give_back("E", "S3")
    assert hand.phase == PLAY and hand.leader == "S" and hand.turn == "S"
    assert hand.awaiting() == ("first_lead", ("S",))
    assert hand.counts == {s: 27 for s in PLAY_ORDER}
    assert hand.holdings["S"]["S3"] >= 1
    assert t.violations == []


def test_single_tribute_must_be_the_highest_card():
    hands = rig(S=["SB", "DA"], E=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    assert correct_tributes(hands["S"], "2") == ["SB"]
    t.tribute("S", "DA")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "not_highest"
    assert v.detail["expected"] == ["SB"]
    assert t.hand.phase == RETURN  # the table went on: DA was given


def test_tribute_is_never_the_heart_wildcard():
    # S holds no jokers; its highest are the level cards, one of them the heart wildcard
    hands = rig(S=["H5", "S5"], N=["SB", "SB", "HR", "HR"], E=["H5", "S5", "C5", "C5", "D5", "D5"])
    assert correct_tributes(hands["S"], "5") == ["S5"]
    t = Table.after(("E", "N", "W", "S"), hands, level="5")
    t.tribute("S", wildcard("5"))
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["expected"] == ["S5"]


def test_tribute_when_only_the_wildcard_is_a_level_card():
    hands = rig(S=["H5", "SA"], N=["SB", "SB", "HR", "HR"],
                E=["H5", "S5", "S5", "C5", "C5", "D5", "D5"])
    assert "SA" in correct_tributes(hands["S"], "5") and "H5" not in correct_tributes(hands["S"], "5")
    t = Table.after(("E", "N", "W", "S"), hands, level="5")
    t.tribute("S", "SA")
    assert t.violations == []


def test_hidden_hands_tribute_of_the_wildcard_is_flagged_at_once():
    t = Table.after(("E", "N", "W", "S"), level="7", hidden=True)
    t.tribute("S", "H7")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "not_highest"


def test_tribute_by_a_player_who_owes_none():
    t = Table.after(("E", "N", "W", "S"), hidden=True)
    t.tribute("N", "HR")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "not_owed"
    assert t.hand.phase == TRIBUTE and t.hand.awaiting() == ("tribute", ("S",))
    t.tribute("S", "HR")
    t.tribute("S", "HR")  # twice
    assert codes(t.violations) == ["wrong_tribute", "wrong_tribute"]


def test_tribute_of_a_card_not_held():
    hands = rig(S=["SB"], E=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    t.tribute("S", "HR")
    assert codes(t.violations) == ["card_not_held"]


def test_double_down_unequal_higher_card_to_the_winner():
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands)
    hand = t.hand
    assert sorted(hand.tributers) == ["N", "S"]
    assert hand.awaiting() == ("tribute", ("N", "S"))
    t.tribute("N", "SB")
    assert hand.awaiting() == ("tribute", ("S",))
    t.tribute("S", "HR")
    assert hand.receivers == {"S": "E", "N": "W"}
    assert sorted(hand.awaiting()[1]) == ["E", "W"]
    t.give_back("W", "S3")
    assert hand.awaiting() == ("return", ("E",))
    t.give_back("E", "S4")
    assert hand.phase == PLAY and hand.leader == "S"  # gave the higher card
    assert t.violations == []


def test_double_down_unequal_with_the_lower_tributer_first_in_order():
    hands = rig(N=["HR", "DA"], S=["SB", "DK"], E=["HR", "S3"], W=["S4", "D4"])
    t = Table.after(("W", "E", "S", "N"), hands)
    t.tribute("S", "SB")
    t.tribute("N", "HR")
    assert t.hand.receivers == {"N": "W", "S": "E"}
    t.give_back("E", "S3")
    t.give_back("W", "S4")
    assert t.hand.leader == "N"
    assert t.violations == []


def test_double_down_wrong_receiver_declared():
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands)
    t.tribute("N", "SB", to="E")
    t.tribute("S", "HR", to="E")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.seat == "N" and v.detail["reason"] == "wrong_receiver"
    assert v.detail["expected"] == "W"


def test_double_down_tribute_to_a_partner_is_recorded_not_raised():
    """A tribute declared to a seat that cannot receive one (the tributer's own partner) is
    flagged and goes to the winner left over; the returns still complete."""
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands)
    t.tribute("N", "SB", to="S")
    t.tribute("S", "HR", to="W")
    assert codes(t.violations) == ["wrong_tribute", "wrong_tribute"]
    assert t.hand.receivers == {"S": "W", "N": "E"}
    t.give_back("W", "S3")
    t.give_back("E", "S4")
    assert t.hand.phase == PLAY and t.hand.leader == "S"


def test_two_tributes_declared_to_one_winner_still_let_the_hand_go_on():
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands)
    t.tribute("N", "SB", to="E")
    t.tribute("S", "HR", to="E")
    assert sorted(t.hand.receivers.values()) == ["E", "W"]
    for _giver, receiver in dict(t.hand.receivers).items():
        t.give_back(receiver, "S3" if receiver == "W" else "S4")
    assert t.hand.phase == PLAY
    assert codes(t.violations) == ["wrong_tribute"]  # N's card belonged to W; S's to E


def _equal_double_down(profile: str, hidden: bool = False, **to):
    # winner E, partner W second; N and S both give a small joker (equal cards)
    hands = rig(N=["SB", "DA"], S=["SB", "DK"], E=["HR", "S3"], W=["HR", "S4"])
    t = Table.after(("E", "W", "N", "S"), hands, profile=profile, hidden=hidden)
    t.tribute("N", "SB", to=to.get("N"))
    t.tribute("S", "SB", to=to.get("S"))
    return t


def test_equal_double_down_jiangsu_counter_clockwise_and_winners_previous_leads():
    t = _equal_double_down("jiangsu")
    # each tributer gives to their next seat (下家): N → W, S → E
    assert t.hand.receivers == {"N": "W", "S": "E"}
    assert next_seat("N") == "W" and next_seat("S") == "E"
    # returns go the other way round, to the tributer
    t.give_back("W", "S4", to="N")
    t.give_back("E", "S3", to="S")
    assert t.hand.leader == prev_seat("E") == "S"  # 由上游的上家先出牌
    assert t.violations == []


def test_equal_double_down_linyi_clockwise_and_the_one_who_gave_to_the_winner_leads():
    t = _equal_double_down("linyi")
    # each tributer gives to their previous seat (上家): N → E, S → W
    assert t.hand.receivers == {"N": "E", "S": "W"}
    t.give_back("E", "S3")
    t.give_back("W", "S4")
    assert t.hand.leader == "N"
    assert t.violations == []


def test_equal_cards_are_equal_by_level_order_not_by_suit():
    # at level 2 the highest after the jokers and the 2s (all with E, or wildcards) is an A
    hands = rig(N=["SA", "H2"], S=["DA", "H2"], E=["HR", "HR", "SB", "SB", "S2", "S2", "C2", "C2", "D2", "D2"])
    t = Table.after(("E", "W", "N", "S"), hands, profile="linyi")
    t.tribute("N", "SA")
    t.tribute("S", "DA")
    assert t.hand.receivers == {"N": "E", "S": "W"}
    assert t.violations == []


def test_equal_by_level_order_lets_linquan_tributers_choose():
    hands = rig(N=["SA", "H2"], S=["DA", "H2"], E=["HR", "HR", "SB", "SB", "S2", "S2", "C2", "C2", "D2", "D2"])
    t = Table.after(("E", "W", "N", "S"), hands, profile="linquan")
    t.tribute("N", "SA", to="E")
    t.tribute("S", "DA", to="W")
    assert t.hand.receivers == {"N": "E", "S": "W"}
    assert t.violations == []


@pytest.mark.parametrize("to", [{"N": "W", "S": "E"}, {"N": "E", "S": "W"}])
def test_equal_double_down_linquan_tributers_choose(to):
    t = _equal_double_down("linquan", **to)
    assert t.hand.receivers == to
    assert t.violations == []
    for receiver in to.values():
        t.give_back(receiver, "S3" if receiver == "E" else "S4")
    assert t.violations == []
    assert t.hand.phase == PLAY and t.hand.turn is None
    assert t.hand.awaiting() == ("first_lead", ("N", "S"))
    t.play("S", "DK")
    assert t.hand.leader == "S" and t.hand.turn == "E"
    assert t.violations == []


def test_equal_double_down_linquan_a_winner_may_not_lead():
    t = _equal_double_down("linquan", N="W", S="E")
    t.give_back("W", "S4")
    t.give_back("E", "S3")
    t.play("E", "HR")
    (v,) = t.violations
    assert v.code == "out_of_turn" and v.seat == "E" and v.detail["expected"] == ["N", "S"]


def test_equal_double_down_linquan_either_tributer_may_lead():
    t = _equal_double_down("linquan", N="E", S="W")
    t.give_back("E", "S3")
    t.give_back("W", "S4")
    t.play("N", "DA")
    assert t.violations == [] and t.hand.leader == "N" and t.hand.turn == "W"


def test_equal_double_down_linquan_both_to_the_same_opponent_is_wrong():
    t = _equal_double_down("linquan", N="E", S="E")
    assert "wrong_tribute" in codes(t.violations)


def test_equal_double_down_linquan_to_a_partner_is_wrong():
    t = _equal_double_down("linquan", N="S", S="E")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.seat == "N" and v.detail["reason"] == "wrong_receiver"


def test_equal_double_down_linquan_one_declared_the_other_takes_the_other_opponent():
    t = _equal_double_down("linquan", N="E")
    assert t.hand.receivers == {"N": "E", "S": "W"}
    assert t.violations == []
    t.give_back("E", "S3")
    t.give_back("W", "S4")
    assert t.hand.phase == PLAY


def test_unequal_double_down_linquan_the_winner_takes_the_higher():
    hands = rig(S=["HR", "DA"], N=["SB", "DK"], W=["HR", "S3"], E=["S4", "D4"])
    t = Table.after(("E", "W", "N", "S"), hands, profile="linquan")
    t.tribute("N", "SB", to="E")
    t.tribute("S", "HR", to="E")
    assert codes(t.violations) == ["wrong_tribute"]  # no choosing with unequal cards


# --- resisting (抗贡) --------------------------------------------------------------------------

def test_known_hands_single_loser_with_both_big_jokers_resists_at_the_deal():
    hands = rig(S=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    hand = t.hand
    assert hand.resisted and hand.phase == PLAY
    assert hand.leader == "E" and hand.awaiting() == ("first_lead", ("E",))
    t.push(Resist, seats=("S",))  # the table's own declaration is accepted quietly
    assert t.violations == []
    t.tribute("S", "SB")
    assert codes(t.violations) == ["wrong_tribute"]


def test_known_hands_double_down_big_jokers_split_between_the_losers_resist():
    hands = rig(N=["HR"], S=["HR"])
    t = Table.after(("W", "E", "N", "S"), hands)
    assert t.hand.resisted and t.hand.leader == "W" and t.hand.phase == PLAY
    assert t.hand.counts == {s: 27 for s in PLAY_ORDER}


def test_known_hands_double_down_one_loser_with_both_big_jokers_resists():
    hands = rig(N=["HR", "HR"])
    t = Table.after(("S", "N", "E", "W"), hands)  # E and W the losers: N is no tributer
    assert not t.hand.resisted
    t = Table.after(("E", "W", "N", "S"), hands)
    assert t.hand.resisted and t.hand.leader == "E"


def test_a_winners_partner_with_a_big_joker_does_not_help_the_loser_resist():
    hands = rig(S=["HR"], N=["HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    assert not t.hand.resisted and t.hand.phase == TRIBUTE


def test_known_hands_resist_without_big_jokers_is_wrong():
    hands = rig(S=["HR"], E=["HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    t.push(Resist, seats=("S",))
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "resist_without_big_jokers"
    assert t.hand.phase == TRIBUTE


def test_hidden_hands_resist_declared():
    t = Table.after(("E", "W", "N", "S"), hidden=True)
    assert t.hand.phase == TRIBUTE
    t.push(Resist, seats=("N", "S"))
    assert t.hand.resisted and t.hand.phase == PLAY and t.hand.leader == "E"
    assert t.violations == []


def test_hidden_hands_resist_by_a_player_who_owes_nothing():
    t = Table.after(("E", "N", "W", "S"), hidden=True)
    t.push(Resist, seats=("N",))
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "resist_not_owed"
    assert t.hand.phase == TRIBUTE


def test_hidden_resist_found_false_when_someone_else_plays_a_big_joker():
    hands = rig(S=["HR"], E=["HR"])
    t = Table.after(("E", "N", "W", "S"), hands, hidden=True)
    t.push(Resist, seats=("S",))
    t.finish("E", "N", "W")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.detail["reason"] == "resist_without_big_jokers"


def test_hidden_honest_resist_is_not_flagged():
    hands = rig(S=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands, hidden=True)
    t.push(Resist, seats=("S",))
    t.finish("E", "S", "N")
    assert t.violations == []


# --- hidden hands: tribute checked after the hand -------------------------------------------

def test_hidden_kept_higher_is_found_at_the_end():
    hands = rig(S=["HR", "SB"], E=["S3", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands, hidden=True)
    t.tribute("S", "SB")  # keeps back the big joker: nobody can tell yet
    t.give_back("E", "S3")
    assert t.violations == []
    t.finish("S", "E", "N")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.seat == "S" and v.detail["reason"] == "kept_higher"
    assert v.detail["card"] == "SB" and v.detail["kept"] == ["HR"]
    assert v.seq == t.seq


def test_hidden_the_card_given_back_is_not_kept_higher():
    hands = rig(S=["SB", "SA"], E=["HR", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands, hidden=True)
    t.tribute("S", "SB")
    t.give_back("E", "HR")  # any card to an opponent under jiangsu
    t.finish("S", "E", "N")
    assert "HR" in t.hand.played_by["S"]
    assert t.violations == []


def test_hidden_playing_the_wildcard_is_not_kept_higher():
    hands = rig(S=["SA", "H4", "H4"], N=["HR", "HR", "SB", "SB"],
                E=["S4", "S4", "C4", "C4", "D4", "D4", "S3"])
    t = Table.after(("E", "N", "W", "S"), hands, level="4", hidden=True)
    assert "SA" in correct_tributes(hands["S"], "4")
    t.tribute("S", "SA")
    t.give_back("E", "S3")
    t.finish("S", "E", "N")
    assert t.hand.played_by["S"]["H4"] == 2
    assert t.violations == []


def test_hidden_a_double_down_tributer_keeping_a_higher_card():
    hands = rig(N=["SB", "HR"], E=["HR", "SB"])
    t = Table.after(("E", "W", "N", "S"), hands, hidden=True)
    t.tribute("N", "SB")  # keeps back the big joker
    t.settle_tribute()  # S pays its real highest card, the returns follow
    t.finish("N", "S")
    (v,) = t.violations
    assert v.code == "wrong_tribute" and v.seat == "N" and v.detail["kept"] == ["HR"]


# --- returns (还贡) ----------------------------------------------------------------------------

def _return_table(profile: str, level: str, previous, card: str):
    """A single tribute after ``previous``; the winner holds ``card`` to give back."""
    winner, loser = previous[0], previous[3]
    hands = rig(**{winner: [card] if card == "HR" else [card, "HR"], loser: ["HR", "SB"]})
    t = Table.after(previous, hands, profile=profile, level=level)
    t.tribute(loser, "HR")
    t.give_back(winner, card)
    return t


PARTNER_LAST = ("E", "N", "S", "W")  # W, the winner's partner, is 下游: E returns to a partner
OPPONENT_LAST = ("E", "N", "W", "S")  # S is 下游: E returns to an opponent


@pytest.mark.parametrize("profile, level, previous, card, ok", [
    # jiangsu: to a partner no jokers and no level cards; to an opponent anything
    ("jiangsu", "5", PARTNER_LAST, "SA", True),
    ("jiangsu", "5", PARTNER_LAST, "S5", False),
    ("jiangsu", "5", PARTNER_LAST, "H5", False),
    ("jiangsu", "5", PARTNER_LAST, "SB", False),
    ("jiangsu", "5", PARTNER_LAST, "HR", False),
    ("jiangsu", "5", OPPONENT_LAST, "HR", True),
    ("jiangsu", "5", OPPONENT_LAST, "S5", True),
    ("jiangsu", "5", OPPONENT_LAST, "SA", True),
    # linyi: any card of rank at most 10, either way (a level card of rank ≤ 10 too)
    ("linyi", "5", OPPONENT_LAST, "ST", True),
    ("linyi", "5", OPPONENT_LAST, "SJ", False),
    ("linyi", "5", OPPONENT_LAST, "S5", True),
    ("linyi", "5", OPPONENT_LAST, "SB", False),
    ("linyi", "5", PARTNER_LAST, "S2", True),
    ("linyi", "5", PARTNER_LAST, "SA", False),
    # linquan: at most 10 and not a level card
    ("linquan", "5", OPPONENT_LAST, "ST", True),
    ("linquan", "5", OPPONENT_LAST, "S5", False),
    ("linquan", "5", OPPONENT_LAST, "SQ", False),
    ("linquan", "5", PARTNER_LAST, "S9", True),
    ("linquan", "5", PARTNER_LAST, "H5", False),
    ("linquan", "5", PARTNER_LAST, "HR", False),
])
def test_return_rules_per_profile(profile, level, previous, card, ok):
    t = _return_table(profile, level, previous, card)
    assert t.hand.phase == PLAY and t.hand.leader == previous[3]
    if ok:
        assert t.violations == []
    else:
        (v,) = t.violations
        relation = "partner" if previous is PARTNER_LAST else "opponent"
        assert v.code == "wrong_return" and v.seat == "E"
        assert v.detail == {"reason": f"not_allowed_to_{relation}", "card": card}


def test_a_return_by_a_player_owed_nothing_and_to_the_wrong_seat():
    hands = rig(S=["HR", "SB"], E=["S3", "HR"], N=["S4"])
    t = Table.after(("E", "N", "W", "S"), hands)
    t.push(GiveBack, seat="E", card="S3")  # before the tribute
    assert codes(t.violations) == ["wrong_return"]
    t.tribute("S", "HR")
    t.push(GiveBack, seat="N", card="S4")
    assert codes(t.violations) == ["wrong_return"] * 2
    t.give_back("E", "S3", to="W")
    v = t.violations[-1]
    assert v.code == "wrong_return" and v.detail == {"reason": "wrong_receiver", "to": "W", "expected": "S"}
    assert t.hand.phase == PLAY


def test_a_return_of_a_card_not_held():
    hands = rig(S=["HR", "SB"], W=["S3", "S3"], E=["HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    t.tribute("S", "HR")
    t.push(GiveBack, seat="E", card="S3")
    assert codes(t.violations) == ["card_not_held"]


def test_a_play_before_tribute_is_out_of_turn_and_starts_play():
    t = Table.after(("E", "N", "W", "S"), hidden=True)
    t.play("N", "S3")
    (v,) = t.violations
    assert v.code == "out_of_turn" and v.detail["reason"] == "tribute_not_finished"
    assert t.hand.phase == PLAY and t.hand.leader == "N" and t.hand.turn == "W"


# --- awaiting and legal plays ----------------------------------------------------------------

def test_awaiting_through_a_hand():
    hands = rig(S=["HR", "SB"], E=["S3", "HR"])
    t = Table.after(("E", "N", "W", "S"), hands)
    assert t.hand.awaiting() == ("tribute", ("S",))
    assert t.hand.legal_plays() == []
    t.tribute("S", "HR")
    assert t.hand.awaiting() == ("return", ("E",))
    t.give_back("E", "S3")
    assert t.hand.awaiting() == ("first_lead", ("S",))
    first = t.hand.legal_plays()
    assert first and all(p.cards for p in first)
    t.play("S", "S3")
    assert t.hand.awaiting() == ("play", ("E",))
    t.pass_("E")
    t.pass_("N")
    t.pass_("W")
    assert t.hand.awaiting() == ("play", ("S",))
    t.finish("S", "N")
    assert t.hand.awaiting() == ("over", ())
    assert t.hand.legal_plays() == []


def test_legal_plays_are_empty_for_hidden_hands():
    t = Table()
    t.deal(hidden=True, leader="E")
    assert t.hand.legal_plays() == []


def test_legal_plays_follow_the_play_on_the_table():
    t = Table()
    t.deal(rig(E=["S3"], N=["S9"]), leader="E")
    t.play("E", "S3")
    plays = t.hand.legal_plays()
    assert plays and all(p.is_bomb or (p.type == "Single" and card_order(p.cards[0], "2") > 3) for p in plays)


def test_conservation_holds_through_a_played_out_hand_with_tribute():
    for hidden in (False, True):
        t = Table.after(("E", "W", "N", "S"), hidden=hidden)
        t.finish("N", "E", "S", "W")
        assert t.violations == []
        played = sum(t.hand.played_by.values(), Counter())
        assert sum(played.values()) + sum(t.hand.counts.values()) == 108


def test_going_out_with_an_illegal_play_does_not_count_as_a_pass():
    """N lays its last card on E's higher single: the cards are gone (N is out) but the
    trick is not N's, and W and S still get their say before E leads again."""
    t = Table()
    t.deal(hidden=True, leader="N")
    for rank in "345":
        t.lead_round("N", *[s + rank for s in "SHCD" for _ in range(2)])
    t.play("N", "S6", "H6")  # 1 card left
    t.report("N")
    t.play("W", "S7", "H7")
    t.pass_("S")
    t.pass_("E")
    t.pass_("N")
    assert t.hand.turn == "W" and t.hand.top is None
    t.play("W", "ST")
    t.pass_("S")
    t.play("E", "SJ")
    t.pass_("N")
    t.pass_("W")
    t.pass_("S")
    assert t.hand.turn == "E" and t.hand.top is None
    t.play("E", "S8")
    t.play("N", "S6")  # its last card, lower: does not beat
    assert codes(t.violations) == ["does_not_beat"]
    assert t.hand.finished == ["N"] and t.hand.counts["N"] == 0
    t.pass_("W")
    assert t.hand.top is not None and t.hand.turn == "S"  # S has not had its say yet
    t.pass_("S")
    assert t.hand.top is None and t.hand.turn == "E"
    assert codes(t.violations) == ["does_not_beat"]
