"""Passes a camera cannot see: which seats knocked, read from who lays cards next.

A pass is a knock on the table, no cards laid, so a camera table infers it. Mostly the
seats passing are those the turn goes over before the seat that lays. But cards laid by
the seat that would lead once everyone had passed (the trick's winner, or its partner when
the winner has just gone out: 接风), after the trick was turned face down (the top play's
zone cleared), came after a whole round of passes, whether or not they would beat the
trick (else a partner's lead after a winner went out would be taken as played on the
winner's cards, passes short). With the trick still lying there, cards that cannot
beat it are a play under it, for the engine to flag.

Pure: each function takes the hand, and ``lying`` — the seats whose zones still hold the
cards they played — and works on copies of the hand.
"""

from __future__ import annotations

import copy

from engine.cards import InvalidCard
from engine.events import Pass
from engine.hand import Hand
from engine.plays import Play, beats, classify
from engine.seats import Seat

#: the seats whose zones still hold the cards they played
Lying = frozenset[Seat]


def passes_for(hand: Hand | None, seat: Seat, lying: Lying, next_seq: int) -> tuple[list[Seat], Hand | None]:
    """The seats recorded as passing before ``seat`` lays, and a copy of the hand once they
    have (None: no trick is on, nobody passes); ``next_seq``: the record's next seq."""
    if hand is None or hand.phase != "play" or hand.top is None:
        return [], None
    if hand.top.seat not in lying:
        passed, trial = pass_on(hand, seat, next_seq, whole_round=True)
        if trial.top is None and trial.turn == seat:
            return passed, trial
    return pass_on(hand, seat, next_seq, whole_round=False)


def pass_on(hand: Hand, seat: Seat, next_seq: int, whole_round: bool) -> tuple[list[Seat], Hand]:
    """A copy of ``hand`` with passes pushed by the seats whose turn comes before ``seat``'s
    (at most three), or with ``whole_round`` until the trick ends (at most four): the seats
    and the copy."""
    trial = copy.deepcopy(hand)
    seq = next_seq - 1
    passed: list[Seat] = []
    while trial.top is not None and trial.turn is not None and len(passed) < (4 if whole_round else 3):
        if not whole_round and trial.turn == seat:
            break
        passed.append(trial.turn)
        seq += 1
        trial.push(Pass(seq=seq, t=0.0, seat=trial.turn))
    return passed, trial


def laid_on(hand: Hand | None, seat: Seat, cards: tuple[str, ...], lying: Lying, next_seq: int) -> Play | None:
    """The play ``cards`` are judged against once the passes before them are recorded, when
    they do not beat the table as it lies (None: they beat it, or they lead)."""
    if hand is None or hand.phase != "play" or hand.top is None or beats_table(hand, cards):
        return None
    trial = passes_for(hand, seat, lying, next_seq)[1]
    return trial.top.play if trial is not None and trial.top is not None else None


def beats_table(hand: Hand, cards: tuple[str, ...]) -> bool:
    """Whether some reading of ``cards`` beats the trick's top play."""
    try:
        readings = classify(cards, hand.level)
    except InvalidCard:
        return False
    top = hand.top.play if hand.top is not None else None
    return any(beats(play, top, hand.level) for play in readings)


def may_lay(hand: Hand, seat: Seat, lying: Lying, next_seq: int) -> bool:
    """Whether ``seat`` may lay cards now: its turn, or the turn of a seat after the ones a
    camera would take as passing first — but not the seat whose play tops the trick while it
    still lies in its zone (what covers it there is a hand, not a new lead)."""
    if hand.top is None:
        return hand.turn in (None, seat)
    if hand.top.seat == seat and seat in lying:
        return False
    trial = passes_for(hand, seat, lying, next_seq)[1]
    return trial is not None and trial.turn == seat
