"""A hand of the bots' record staged at a table: who lays what, where, how and when, and
the record re-timed to the video.

Follows the record event by event, replaying it through the engine to know when a trick
ends (everyone passed after the last play, or 接风 after a player went out): then each
seat's cards of the trick are turned face down onto its pile. How a play arrives varies —
laid card by card or as a fan by a hand, a stack slid in and spread with no hand, cards
that appear between two frames — and between events hands nudge cards and lean over the
table, as at a real table where the camera does not see every hand that moves a card.
The record's times become the video's: a play's ``t`` is when its last card lies still,
a pass's when it is made (a tap, or a moment with nothing to see).
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass, field

from engine.events import Deal, Event, Header, Pass, PlayCards, Report
from engine.match import Match
from engine.profile import Profile
from engine.seats import PLAY_ORDER
from vision.stage import gestures
from vision.stage.faces import CARDS
from vision.stage.gestures import Player
from vision.stage.layout import LAYER_CM, bend, pile_pose, pile_spot, row_poses, stacked
from vision.stage.motion import ArmActor, CardActor, Track
from vision.stage.table import at_seat

#: how a play arrives, and how often
ARRIVALS = (("one by one", 0.4), ("fan", 0.2), ("slide", 0.25), ("drop", 0.15))


@dataclass
class Script:
    """A staged hand: its cards and arms, the record re-timed, and how long it runs."""

    cards: list[CardActor] = field(default_factory=list)
    arms: list[ArmActor] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    duration: float = 0.0
    arrivals: dict[str, int] = field(default_factory=dict)


class Stage:
    """Stages one hand's events on a table, in order."""

    def __init__(self, profile: Profile, rng: random.Random, fps: float, backs: int = 2) -> None:
        self.rng, self.fps, self.profile = rng, fps, profile
        self.players = {seat: Player.random(seat, rng) for seat in PLAY_ORDER}
        self.piles = {seat: pile_spot(seat, rng) for seat in PLAY_ORDER}
        self.pile_height = dict.fromkeys(PLAY_ORDER, 0.0)
        self.zone: dict[str, list[CardActor]] = {seat: [] for seat in PLAY_ORDER}
        self.gloss = (rng.uniform(0.03, 0.06), rng.uniform(300, 1500))  # varnish: a few % reflected, a sharp lamp image
        self.backs = [len(CARDS) + rng.randrange(backs) for _ in range(2)]  # the two decks' backs (or one)
        self.script = Script()
        self.t = rng.uniform(1.0, 2.0)
        self.busy = dict.fromkeys(PLAY_ORDER, 0.0)  # until when each player's hands are busy

    def _card(self, card: str, seat: str, seq: int) -> CardActor:
        rng = self.rng
        actor = CardActor(card, CARDS.index(card), rng.choice(self.backs), bend(rng),
                          self.gloss[0] * rng.uniform(0.85, 1.15), self.gloss[1], Track(shown=float("inf")), seat, seq)
        self.script.cards.append(actor)
        return actor

    def _zone_base(self, seat: str) -> float:
        """The height a new play lies from in ``seat``'s zone: over what lies there already."""
        lying = self.zone[seat]
        return max((c.track.last[2] for c in lying), default=-LAYER_CM) + LAYER_CM + (0.3 if lying else 0.0)

    def play(self, event: PlayCards) -> float:
        """Lay a play; returns when its cards lie still."""
        rng, seat = self.rng, event.seat
        player = self.players[seat]
        start = max(self.t + rng.uniform(0.4, 1.8) * player.pace, self.busy[seat])
        cards = [self._card(c, seat, event.seq) for c in event.cards]
        poses = stacked(row_poses(seat, len(cards), self._zone_base(seat), rng), [c.bend for c in cards])
        how = rng.choices([a for a, _ in ARRIVALS], [w for _, w in ARRIVALS])[0]
        self.script.arrivals[how] = self.script.arrivals.get(how, 0) + 1
        if how in ("one by one", "fan"):
            arm, done = gestures.lay_by_hand(player, cards, poses, start, rng, fan=how == "fan")
            self.script.arms.append(arm)
        elif how == "slide":
            done = gestures.slide_in(player, cards, poses, start, rng)
        else:
            done = gestures.drop_in(cards, poses, start, self.fps, rng)
        self.zone[seat] += cards
        self.busy[seat] = done.end
        self.t = done.still + rng.uniform(0.05, 0.3)
        if rng.random() < 0.1:
            self._nudge(cards[-1], done.end)
        return done.still

    def pass_(self, event: Pass) -> float:
        """A pass: often a tap on the table; returns when it is made."""
        rng, seat = self.rng, event.seat
        player = self.players[seat]
        start = max(self.t + rng.uniform(0.3, 1.2) * player.pace, self.busy[seat])
        if rng.random() < 0.45:
            arm, done = gestures.tap(player, start, rng)
            self.script.arms.append(arm)
            self.busy[seat] = done.end
            self.t = done.still + rng.uniform(0.1, 0.3)
            return done.still
        self.t = start
        return start

    def end_trick(self, seqs: set[int]) -> None:
        """Each seat turns its cards of the trick (plays ``seqs``) onto its pile."""
        rng = self.rng
        start = self.t + rng.uniform(0.6, 1.6)
        ends = [start]
        for seat in rng.sample(list(PLAY_ORDER), 4):
            cards = [c for c in self.zone[seat] if c.seq in seqs]
            if not cards:
                continue
            self.zone[seat] = [c for c in self.zone[seat] if c.seq not in seqs]
            piled = []
            for _ in cards:
                piled.append(pile_pose(self.piles[seat], self.pile_height[seat], rng))
                self.pile_height[seat] += LAYER_CM
            begin = max(start + rng.uniform(0.0, 0.9), self.busy[seat])
            arm, done = gestures.sweep(self.players[seat], cards, piled, begin, rng, by_hand=rng.random() < 0.7)
            if arm:
                self.script.arms.append(arm)
            self.busy[seat] = done.end
            ends.append(done.still)
        self.t = max(ends)

    def _nudge(self, card: CardActor, after: float) -> None:
        seat = card.owner
        arm, done = gestures.nudge(self.players[seat], card, after + self.rng.uniform(0.2, 0.8), self.rng)
        self.script.arms.append(arm)
        self.busy[seat] = done.end

    def maybe_lean(self) -> None:
        """Now and then a player leans over the table for a few seconds, over a zone and
        sometimes over its cards."""
        rng = self.rng
        if rng.random() >= 0.08:
            return
        seat = rng.choice(PLAY_ORDER)
        over_seat = seat if rng.random() < 0.5 else rng.choice(PLAY_ORDER)
        over = tuple(at_seat(over_seat, rng.uniform(12, 32), rng.uniform(-10, 10)))
        start = max(self.t, self.busy[seat])
        arm, done = gestures.lean(self.players[seat], over, start, rng.uniform(1.0, 3.0), rng)
        self.script.arms.append(arm)
        self.busy[seat] = done.end


def first_hand(events: list[Event], max_events: int | None = None) -> list[Event]:
    """The record up to the end of its first hand (and the time called right after), cut to
    ``max_events`` events if given."""
    out, deals = [], 0
    for event in events:
        if isinstance(event, Deal):
            deals += 1
            if deals > 1:
                break
        out.append(event)
    return out[:max_events] if max_events else out


def stage(events: list[Event], profile: Profile, rng: random.Random, fps: float) -> Script:
    """Stage ``events`` (a header, a deal, then the first hand's events): the script, its
    events re-timed to the video."""
    director = Stage(profile, rng, fps)
    match = Match(profile, events[0])
    timed: list[Event] = [dataclasses.replace(events[0], t=0.0)]
    last_trick, cleared = None, False
    for event in events[1:]:
        if isinstance(event, Header):
            continue
        if isinstance(event, PlayCards):
            t = director.play(event)
        elif isinstance(event, Pass):
            t = director.pass_(event)
        elif isinstance(event, Report):
            t = timed[-1].t + rng.uniform(0.3, 0.9)
            director.t = max(director.t, t)
        elif isinstance(event, Deal):
            t = 0.0
        else:
            t = director.t = director.t + rng.uniform(0.5, 1.5)
        timed.append(dataclasses.replace(event, t=math.ceil(max(t, timed[-1].t) * 1000) / 1000))  # not before it
        match.push(event)
        hand = match.hand
        if hand is not None and hand.last_trick and hand.last_trick is not last_trick and not hand.trick:
            last_trick = hand.last_trick
            director.end_trick({entry[3] for entry in hand.last_trick})
        elif hand is not None and hand.outcome is not None and hand.trick and not cleared:
            cleared = True  # the hand is over: its last trick is turned too
            director.end_trick({entry[3] for entry in hand.trick})
        if isinstance(event, PlayCards | Pass):
            director.maybe_lean()
    script = director.script
    script.events = timed
    ends = [director.t] + [a.track.hidden or a.track.end for a in script.arms] + [c.track.end for c in script.cards]
    script.duration = max(ends) + rng.uniform(1.2, 2.0)
    return script
