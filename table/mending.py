"""Mending misreads: a play read as it can have been laid, and the hand's plays read again.

A reading that cannot be right — a third copy of a card, a row that is no combination — is
read again from the reader's runners-up (``table.deck``, ``table.combination``),
at their lower confidence, and so is a straight flush with one card's suit in doubt (a rare
bomb, likelier a straight with a club read for a spade) and a play that would not beat the
one it is laid on where a runner-up of some weight beats it (a 大王 read as the 小王); the
referee is to be told what was read and what was taken (``possible``).

The hand's plays are read again together as each is committed (``HandReading``, over
``table.recount``): two decks hold two of each card, so when a card shows up a third
time the likelier misread may be an earlier play's, and that play is corrected in the
record (a ``correction`` by the camera; the referee is told) — into another rank only where
the record, so corrected, raises no violation it did not (``HandReading.harmless``).

Nothing here writes the record or tells anyone: each step returns what it found — the
corrections and alerts with it (``Recounted``, ``PlayRead``) — and the runtime records and
tells them, the corrections before the play is read on (``HandReading.play`` reads it
against the hand as corrected).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from engine.cards import Card, parse_card
from engine.events import BY_CAMERA, Correction, Deal, Event, Missed, PlayCards, RecordError, with_corrections
from engine.hand import HAND_EVENTS, Hand
from engine.layout import reading_from_layout
from engine.match import Match
from engine.plays import Play, Reading
from engine.seats import Seat
from rulebook.alerts import Alert
from table import passes
from table.combination import as_beating, as_combination, as_plain_straight
from table.deck import at_most_copies, within_deck
from table.recount import HandCount, ReadPlay
from vision.live.grouping import Laid
from vision.live.seat_reading import SeatZone

#: runner-ups kept per card of a play, for the referee to pick from (more are never likely)
RUNNER_UPS = 3


class PlayFields(TypedDict):
    """A play's fields as the table records it (``PlayCards``): the cards as laid, the
    camera's confidence, each card's runner-ups (``choices``) and, when the order laid
    decides it, its ``reading``. The camera's card names become the engine's ``Card`` here."""

    seat: Seat
    cards: tuple[Card, ...]
    confidence: float
    choices: tuple[tuple[tuple[Card, float], ...], ...]
    reading: NotRequired[Reading]


def engine_cards(names: tuple[str, ...]) -> tuple[Card, ...]:
    """The camera's card names (the reader's classes) as the engine's cards."""
    return tuple(parse_card(name) for name in names)


@dataclass(frozen=True)
class Mended:
    """A play as it can have been laid (``possible``): its cards, the confidences of what
    was changed, and what the referee is to be told of each change."""

    cards: tuple[str, ...]
    doubts: tuple[float, ...]
    alerts: tuple[Alert, ...]


@dataclass(frozen=True)
class CameraFix:
    """An earlier play of the hand that the hand, read together, takes as other cards: a
    correction of event ``target`` for the record (by the camera, why ``recount``), and the
    referee's word of it."""

    target: int
    cards: tuple[str, ...]
    alert: Alert


@dataclass(frozen=True)
class Recounted:
    """The play ``seat`` is laying, read as ``read``, as the hand read together takes it
    (``HandReading.recount``): its ``cards``, the confidences of what was changed, the
    earlier plays to correct first (``fixes``, in order) and what the referee is to be
    told of the play itself."""

    seat: Seat
    read: tuple[str, ...]
    cards: tuple[str, ...]
    doubts: tuple[float, ...] = ()
    fixes: tuple[CameraFix, ...] = ()
    alerts: tuple[Alert, ...] = ()


@dataclass(frozen=True)
class PlayRead:
    """A play as the table records it (the fields of its ``PlayCards``), and what the
    referee is to be told of how it was read."""

    fields: PlayFields
    alerts: tuple[Alert, ...]


def possible(seat: Seat, read: tuple[str, ...], laid: Laid, level: str, seen: Counter,
             laid_on: Callable[[tuple[str, ...]], Play | None]) -> Mended:
    """The play as it can have been laid, and the confidences of what was changed: a third
    copy of a card, a row that is no combination and a straight flush with a suit in doubt
    take the reader's runners-up (``laid.others_of``); copies beyond two with none are left
    out (no record holds them); cards that would not beat ``laid_on(cards)`` take a
    runner-up that does. Every change comes with its alert for the referee."""
    others = laid.others_of
    alerts: list[Alert] = []
    cards, rereads = within_deck(read, [others(c) for c in read], seen)
    for r in dict.fromkeys(rereads):  # two copies taken alike: told once
        alerts.append(Alert.of("third_copy", seat=seat, read=r.read, taken=r.taken, confidence=r.confidence))
    doubts = [r.confidence for r in rereads]
    cards, dropped = at_most_copies(cards)
    if dropped:
        alerts.append(Alert.of("too_many_copies", seat=seat, read=" ".join(read), dropped=" ".join(dropped)))
        doubts.append(0.0)  # the record does not say what lay there
    before = cards
    cards, mended = as_combination(cards, [others(c) for c in cards], level, seen)
    if mended:
        alerts.append(Alert.of("no_combination", seat=seat, read=" ".join(before), taken=" ".join(cards),
                               confidence=min(r.confidence for r in mended)))
    before = cards
    cards, unflushed = as_plain_straight(cards, [others(c) for c in cards], level, seen)
    if unflushed:
        alerts.append(Alert.of("unlikely_flush", seat=seat, read=" ".join(before), taken=" ".join(cards),
                               confidence=unflushed[0].confidence))
    before, on = cards, laid_on(cards)
    cards, lifted = as_beating(cards, [others(c) for c in cards], level, seen, on)
    if lifted and on is not None:
        alerts.append(Alert.of("would_not_beat", seat=seat, read=" ".join(before), on=" ".join(on.cards),
                               taken=" ".join(cards), confidence=min(r.confidence for r in lifted)))
    return Mended(cards, tuple(doubts + [r.confidence for r in mended + unflushed + lifted]), tuple(alerts))


def choices(cards: tuple[str, ...], laid: Laid) -> tuple[tuple[tuple[str, float], ...], ...]:
    """For each card of a play as recorded, what the reader made of it, likeliest first: the
    card and its confidence, then up to ``RUNNER_UPS`` others. A card taken from a runner-up
    (a mended read) lists the card that was read among its others, so the referee can put
    the reading back."""
    out = []
    for card in cards:
        if card in laid.cards:
            slot = ((card, laid.confidence_of(card)), *laid.others_of(card))
        else:
            read = next((name for name in laid.cards if card in dict(laid.others_of(name))), None)
            slot = ((card, dict(laid.others_of(read)).get(card, 0.0)), (read, laid.confidence_of(read)),
                    *(o for o in laid.others_of(read) if o[0] != card)) if read else ((card, 0.0),)
        out.append(tuple((name, round(conf, 3)) for name, conf in slot[:1 + RUNNER_UPS]))
    return tuple(out)


class HandReading:
    """The hand in play's plays as read (``count``, ``table.recount``) and the hand
    as it was dealt (``dealt``), kept in step with the record."""

    def __init__(self, corners_agree: bool = False) -> None:
        #: a card's corners are heard together for the play's confidence (``play``)
        self.corners_agree = corners_agree
        self.count: HandCount | None = None
        self.dealt: Hand | None = None

    def recorded(self, event: Event, match: Match) -> None:
        """An event of the table's has joined the match: a deal starts a new count, a play
        takes its place in it."""
        if isinstance(event, Deal) and match.hand is not None:
            self.count = HandCount(match.hand.level)
            self.dealt = copy.deepcopy(match.hand)
        elif isinstance(event, PlayCards) and self.count is not None:
            self.count.bind(event.seq)

    def resumed(self, match: Match) -> None:
        """Going on from a replayed record: the hand in play's plays count as they stand
        (their readings are gone with the process that made them); with no hand in play,
        nothing is counted until the next deal."""
        hand = match.hand
        if hand is None or hand.outcome is not None:
            self.count = None
            return
        self.count = HandCount(hand.level)
        for entry in match.history:
            if entry.hand == hand.number and isinstance(entry.event, PlayCards):
                self.count.add(ReadPlay(entry.event.seq, entry.event.cards, ()))

    def heed(self, event: Event, match: Match) -> None:
        """A referee's act on the hand in play: a corrected play's cards, or a missed play's,
        count as sure (never read again), and a voided play's not at all."""
        hand = match.hand
        if self.count is None or hand is None or hand.outcome is not None:
            return
        if isinstance(event, Missed):
            if event.cards:
                self.count.add(ReadPlay(event.seq, event.cards, ()))
        elif isinstance(event, Correction) and event.by != BY_CAMERA:
            self.count.plays = [p for p in self.count.plays if p.seq != event.target]
            mine = any(e.event.seq == event.target and e.hand == hand.number for e in match.history)
            if event.cards and mine:
                self.count.add(ReadPlay(event.target, event.cards, ()))

    def play(self, recounted: Recounted, zone: SeatZone, match: Match, lying: passes.Lying) -> PlayRead:
        """The play ``recounted.seat`` laid in ``zone``, as the hand read it again
        (``recount``; its corrections of earlier plays already in ``match``): the play as it
        can have been laid on the table as it stands (``lying``: the seats whose zones hold
        their cards, for the passes before it), its confidence the least of its cards' and of
        what was changed, each card's runner-ups (``choices``, for the referee's console) and
        its reading from the order laid (``engine.layout``).

        With a reader taught this deck (``corners_agree``), a card is as sure as its corners
        say together (``vision.live.grouping``): the last card of a row shows two, and one
        read at 0.6 beside the other at 0.9 is a card surer than either, as the camera's
        noise differs at each corner: taken corner by corner, most plays sent to the referee
        would be plays read right. With the zero-shot models a card is as sure as its least
        sure corner: a print they have never seen misleads them alike at both, and heard
        together the corners would let a misread joker through unflagged."""
        seat, read, laid = recounted.seat, recounted.read, zone.tracker.stable
        hand = match.hand
        level = hand.level if hand else "2"
        seen: Counter = hand.tracker.seen if hand is not None and hand.outcome is None else Counter()
        mended = possible(seat, recounted.cards, laid, level, seen,
                          lambda now: passes.laid_on(match.hand, seat, now, lying, match.next_seq))
        cards = mended.cards
        if self.count is not None:
            self.count.amend(cards)
        reading = reading_from_layout(cards, level)
        if self.corners_agree:
            conf = [c for name, c in zip(laid.cards, laid.confidences, strict=True) if name in read]
        else:
            conf = [d.conf for d in zone.detections if d.card in read]
        conf += [*recounted.doubts, *mended.doubts]
        fields: PlayFields = {"seat": seat, "cards": engine_cards(cards),
                              "confidence": round(min(conf), 3) if conf else 0.0,
                              "choices": tuple(tuple((parse_card(name), conf) for name, conf in slot)
                                               for slot in choices(cards, laid))}
        if reading is not None:
            fields["reading"] = Reading(reading.type, reading.rank)
        return PlayRead(fields, mended.alerts)

    def recount(self, seat: Seat, read: tuple[str, ...], laid: Laid, match: Match) -> Recounted:
        """The hand's plays read again with ``seat``'s, read as ``read`` (``laid``: the zone's
        reading, for each card's runner-ups): earlier plays whose likeliest cards changed
        are to be corrected in the record (``fixes``), and this play is taken as the hand
        reads it, with the confidences of what was changed. Every change is put to the
        referee."""
        if self.count is None:
            return Recounted(seat, read, read)
        choices = tuple(((name, laid.confidence_of(name)), *laid.others_of(name)) for name in read)
        self.count.add(ReadPlay(None, read, choices))
        cards = read
        doubts: tuple[float, ...] = ()
        fixes: list[CameraFix] = []
        alerts: list[Alert] = []
        for change in self.count.settle(lambda target, now: self.harmless(match, target, now)):
            if change.seq is None:
                alerts.append(Alert.of("recount_now", seat=seat, was=" ".join(change.was), now=" ".join(change.now)))
                cards = change.now
                doubts = tuple(dict(slot).get(now, 0.0)
                               for slot, was, now in zip(choices, change.was, change.now, strict=True) if now != was)
                continue
            target = next(e.event for e in match.history if e.event.seq == change.seq)
            fixes.append(CameraFix(change.seq, change.now,
                                   Alert.of("recount", target=change.seq, seat=getattr(target, "seat", None),
                                            was=" ".join(change.was), now=" ".join(change.now))))
        return Recounted(seat, read, cards, doubts, tuple(fixes), tuple(alerts))

    def harmless(self, match: Match, target: int, cards: tuple[str, ...]) -> bool:
        """Whether event ``target`` of the hand in play, corrected to ``cards``, leaves the
        hand with no violation it did not have: the hand's events replayed, as corrected, on
        a copy of the hand as it was dealt (about a millisecond, where the match itself takes
        a correction by replaying every hand before it too)."""
        hand = match.hand
        if self.dealt is None or hand is None or self.dealt.number != hand.number:
            return False
        mine = [entry.event for entry in match.history if entry.hand == hand.number]
        fix = Correction(seq=match.next_seq, t=0.0, target=target, cards=engine_cards(cards), by=BY_CAMERA,
                         why="recount")
        trial = copy.deepcopy(self.dealt)
        try:
            for event in with_corrections([*mine, fix]):
                if isinstance(event, HAND_EVENTS):
                    trial.push(event)
        except RecordError:
            return False
        return len(trial.violations) <= len(hand.violations)
