"""Win chance (胜率): each side's chance to win the hand in play, from what the table has shown.

For a broadcast: after every play, how likely East-West and North-South are to finish
first (上游, the side that goes up), and how many levels the hand is likely to give (the
winner's partner 2nd: 双下, +3; 3rd: +2; last: +1, as the profile's ``levels.upgrades``
says). Only what is public goes in — each seat's cards left, the cards each has played,
the trick on the table and who tops it, whose turn, who has gone out, the level, the
tribute — never the hands themselves, even where the record knows them (a bot's table):
``seen`` takes nothing else of a ``Hand``, and the estimate reads only what ``seen`` took.

The estimate is a model fitted on bot-played hands (``engine.bots``) and measured on other
bots' hands (``benchmarks/win_chance.py``; the method and its figures are in
docs/broadcast.md): boosted trees on the public state seen from the seat to act, one for
"the side to act finishes first", one for the winner's partner's place given who wins.
Its numbers are data (``engine/win_chance_model.json``, read once by ``engine.win_chance_model``),
written by ``benchmarks/win_chance_fit.py``; the partner's place is calibrated on hands kept
apart from the trees', so that its chances of +3, +2 and +1 come true as often as they say.
It knows how bots play: people bomb, hold back and read each other otherwise, so on a real
table it is a commentator's guide, not a prophecy. Once a seat has gone out the winner is
certain, and what the finishing order rules out of the partner's place is ruled out; those
parts are rules, not the model. One estimate takes about a quarter of a millisecond.

>>> from engine.events import Deal
>>> hand = Hand(1, "2", "EW", profile, Deal(seq=1, t=0.0, leader="E"), previous=None)
>>> chance = win_chance(hand)
>>> round(chance.win["EW"] + chance.win["NS"], 9), chance.decided
(1.0, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.cards import ALL_CARDS, BIG_JOKER, COPIES, RANKS, SMALL_JOKER, Card, rank_of, suit_of, wildcard
from engine.hand import Hand
from engine.phases import OVER, Outcome
from engine.plays import TYPES, bomb_tier, rank_value
from engine.seats import PLAY_ORDER, SIDES, Seat, Side, next_seat, other_side, partner, prev_seat, side_of
from engine.trick import Top
from engine.win_chance_model import model

#: the seats as the seat to act sees them: itself, its next (an opponent), its partner, its previous
ROLES = ("me", "next", "partner", "prev")
#: what is read of each seat: cards left, gone out, and the strong cards it has played (``Seen.tallies``)
SEAT_FIGURES = ("left", "out", "big_jokers", "small_jokers", "wildcards", "level_cards", "aces")
FEATURES: tuple[str, ...] = (
    *(f"{role}_{figure}" for role in ROLES for figure in SEAT_FIGURES),
    "us_min", "them_min", "us_sum", "them_sum",
    "top_me", "top_next", "top_partner", "top_prev", "top_type", "top_cards", "top_rank", "top_bomb", "passes",
    "unseen_big_jokers", "unseen_small_jokers", "unseen_wildcards", "unseen_level_cards", "unseen_bomb_ranks",
    "level", "first_hand", "us_declarers", "us_received", "tributes", "resisted",
    "first_out", "out_count", "us_wins",
)
#: the winner's partner's place, as the place model's classes
PLACES = (2, 3, 4)
#: each rank's four cards, and those of them that are no wildcard at its level (not hearts)
_OF_RANK: dict[str, tuple[Card, ...]] = {r: tuple(c for c in ALL_CARDS if rank_of(c) == r) for r in RANKS}
_PLAIN_OF_RANK: dict[str, tuple[Card, ...]] = {r: tuple(c for c in _OF_RANK[r] if suit_of(c) != "H") for r in RANKS}


@dataclass(frozen=True)
class Chance:
    """Each side's chance to win the hand (``win``), and to win it with the partner in each
    place (``places[side][place]``: place 2 is a double down); ``decided`` once the hand's
    first place is known (the winner is then certain)."""

    win: dict[Side, float]
    places: dict[Side, dict[int, float]]
    decided: bool

    def levels(self, upgrades: dict[str, int]) -> dict[Side, dict[int, float]]:
        """Each side's chance to go up by each number of levels the profile gives a place."""
        out: dict[Side, dict[int, float]] = {}
        for side in SIDES:
            gains: dict[int, float] = {}
            for place, p in self.places[side].items():
                gain = upgrades[str(place)]
                gains[gain] = gains.get(gain, 0.0) + p
            out[side] = gains
        return out


@dataclass(frozen=True)
class Seen:
    """What the table has shown of a hand at one moment — all the estimate reads of it,
    taken by ``seen`` in a few microseconds, so that the state before a play can be kept.

    ``tallies[seat]``: (big jokers, small jokers, wildcards, other level cards, aces) the
    seat has played; ``unseen``: (big jokers, small jokers, wildcards, other level cards,
    ranks with four or more cards) not yet played by anyone."""

    number: int
    level: str
    declarers: Side
    counts: dict[Seat, int]
    finished: tuple[Seat, ...]
    tallies: dict[Seat, tuple[int, ...]]
    unseen: tuple[int, ...]
    top: Top | None
    passes: int
    to_act: tuple[Seat, ...]
    winner_before: Seat | None  # who won the hand before (its first place), None on a first hand
    tributes: int
    resisted: bool
    outcome: Outcome | None


def seen(hand: Hand) -> Seen:
    """The public state of ``hand`` now (never its holdings)."""
    level = hand.level
    wild = wildcard(level)
    tallies: dict[Seat, tuple[int, ...]] = {}
    plain_level, aces = _PLAIN_OF_RANK[level], _OF_RANK["A"]
    for s in PLAY_ORDER:
        played = hand.played_by[s]
        tallies[s] = (played[BIG_JOKER], played[SMALL_JOKER], played[wild], sum(played[c] for c in plain_level),
                      sum(played[c] for c in aces) if level != "A" else 0)
    shown = hand.tracker.seen
    wilds = COPIES - shown[wild]
    by_rank = {r: 4 * COPIES - sum(shown[c] for c in _OF_RANK[r]) for r in RANKS}
    unseen = (COPIES - shown[BIG_JOKER], COPIES - shown[SMALL_JOKER], wilds, by_rank[level] - wilds,
              sum(1 for n in by_rank.values() if n >= 4))
    previous = hand.previous
    return Seen(hand.number, level, hand.declarers, dict(hand.counts), tuple(hand.finished), tallies, unseen,
                hand.top, hand.passes, _to_act(hand), previous.order[0] if previous is not None else None,
                len(hand.tributers), hand.resisted, hand.outcome if hand.phase == OVER else None)


def _to_act(hand: Hand) -> tuple[Seat, ...]:
    """Who acts next: the seat on turn; before the lead is known, those who may lead (the
    tributers, or any seat on a first hand whose leader is not yet shown)."""
    if hand.turn is not None:
        return (hand.turn,)
    if hand.tributers and not hand.resisted:
        return tuple(hand.tributers)
    return PLAY_ORDER


def features(state: Seen, seat: Seat, us_wins: float = 0.0) -> list[float]:
    """The public state as ``seat`` (the seat to act) sees it, in ``FEATURES``' order;
    ``us_wins`` is the place model's input (1: ``seat``'s side finishes first)."""
    roles = (seat, next_seat(seat), partner(seat), prev_seat(seat))
    finished = state.finished
    counts = state.counts
    x: list[float] = []
    for s in roles:
        out = s in finished
        x.append(0.0 if out else float(counts[s]))
        x.append(float(out))
        x += state.tallies[s]
    us = [counts[s] for s in (roles[0], roles[2]) if s not in finished]
    them = [counts[s] for s in (roles[1], roles[3]) if s not in finished]
    x += [float(min(us, default=0)), float(min(them, default=0)), float(sum(us)), float(sum(them))]
    top = state.top
    if top is None:
        x += [0.0] * 4 + [-1.0, 0.0, 0.0, 0.0]
    else:
        x += [float(top.seat == s) for s in roles]
        play = top.play
        x += [float(TYPES.index(play.type)), float(len(play.cards)), float(rank_value(play, state.level)),
              float(bomb_tier(play)) if play.is_bomb else 0.0]
    x.append(float(state.passes))
    x += state.unseen
    mine = side_of(seat)
    winner = state.winner_before
    received = 0.0 if winner is None or state.resisted else (1.0 if side_of(winner) == mine else -1.0)
    first = finished[0] if finished else None
    x += [float(RANKS.index(state.level) + 2), float(winner is None), float(state.declarers == mine), received,
          float(state.tributes), float(state.resisted),
          0.0 if first is None else (1.0 if side_of(first) == mine else -1.0), float(len(finished)), us_wins]
    return x


# --- the fitted model ---------------------------------------------------------------------

def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def side_score(state: Seen, seat: Seat) -> float:
    """The win model's score (a log-odds) that ``seat``'s side finishes first, with ``seat`` to act."""
    return model().win.scores(features(state, seat))[0]


def side_chance(state: Seen, seat: Seat) -> float:
    """The chance that ``seat``'s side finishes first, with ``seat`` to act (the model alone)."""
    return _sigmoid(side_score(state, seat))


def place_chance(state: Seen, seat: Seat, us_wins: bool, score: float = 0.0) -> list[float]:
    """The winner's partner's chance of each of ``PLACES``, with ``seat`` to act, given
    whether ``seat``'s side wins (the model, its calibration, then what the finishing order
    rules out). ``score``: ``side_score`` for ``seat``, which the calibration reads while
    nobody is out (how sure a win is says something of how big it will be)."""
    fitted = model()
    z = fitted.place.scores(features(state, seat, float(us_wins)))
    p = fitted.calibration.chances(z, len(state.finished), score if us_wins else -score)
    winner_side = side_of(seat) if us_wins else other_side(side_of(seat))
    done = state.finished
    if len(done) >= 2:
        second_ours = side_of(done[1]) == winner_side
        if side_of(done[0]) == winner_side and second_ours:
            p = [1.0, 0.0, 0.0]
        elif side_of(done[0]) == winner_side:
            p = [0.0, *p[1:]]  # an opponent second: the partner is 3rd or 4th
            if len(done) >= 3:
                p = [0.0, 1.0, 0.0] if side_of(done[2]) == winner_side else [0.0, 0.0, 1.0]
    total = sum(p)
    return [v / total for v in p]


def win_chance(hand: Hand) -> Chance:
    """Each side's chance to win ``hand`` and with what partner's place, from its public
    state now (``chance(seen(hand))``)."""
    return chance(seen(hand))


def chance(state: Seen) -> Chance:
    """Each side's chance to win the hand in ``state`` and with what partner's place.
    Before the leader is known it is the mean over those who may lead."""
    if state.outcome is not None:
        o = state.outcome
        decided: dict[Side, float] = {s: float(s == o.winner_side) for s in SIDES}
        return Chance(decided, {s: {pl: float(s == o.winner_side and pl == o.partner_place) for pl in PLACES}
                                for s in SIDES}, True)
    seats = state.to_act
    win: dict[Side, float] = dict.fromkeys(SIDES, 0.0)
    places: dict[Side, dict[int, float]] = {s: dict.fromkeys(PLACES, 0.0) for s in SIDES}
    first = state.finished[0] if state.finished else None
    for seat in seats:
        mine, theirs = side_of(seat), other_side(side_of(seat))
        score = side_score(state, seat) if first is None else 0.0
        p_us = _sigmoid(score) if first is None else float(side_of(first) == mine)
        win[mine] += p_us / len(seats)
        win[theirs] += (1.0 - p_us) / len(seats)
        for side, p_side in ((mine, p_us), (theirs, 1.0 - p_us)):
            if p_side <= 0.0:
                continue
            for place, p in zip(PLACES, place_chance(state, seat, side == mine, score), strict=True):
                places[side][place] += p_side * p / len(seats)
    return Chance(win, places, first is not None)
