"""Simple bots and self-play: whole matches played by the engine, as records.

Used for the bundled demo record, for property tests (a random game's record replays to
the same state) and, later, for rendering videos of games. The bots are plain: they
shed their weakest cards, beat opponents cheaply, leave their partner's plays alone and
bomb only now and then. The random source is passed in, so a seed gives one game.
"""

from __future__ import annotations

import random

from engine.cards import Card, card_order, full_deck, rank_of, sort_cards
from engine.events import Deal, Event, GiveBack, Header, Pass, PlayCards, Report, TimeCalled, Tribute
from engine.hand import OVER, RETURN, TRIBUTE, Hand, correct_tributes, return_allowed
from engine.legal import legal_plays
from engine.match import Match
from engine.plays import Play, Reading, strength
from engine.profile import Profile
from engine.seats import PLAY_ORDER, Seat, partner, side_of


def deal(rng: random.Random) -> dict[Seat, tuple[Card, ...]]:
    """Shuffle two decks and give 27 cards to each seat."""
    deck = full_deck()
    rng.shuffle(deck)
    return {s: sort_cards(deck[i * 27:(i + 1) * 27]) for i, s in enumerate(PLAY_ORDER)}


def choose_play(hand: Hand, seat: Seat, rng: random.Random) -> Play | None:
    """A plain bot's choice for ``seat`` (``None``: pass)."""
    held = list(hand.holdings[seat].elements())
    top = hand.top
    if top is None or top.seat == seat:
        plays = legal_plays(held, None, hand.level)
        plain = [p for p in plays if not p.is_bomb] or plays
        weakest = min(strength(p, hand.level)[2] for p in plain)
        low = [p for p in plain if strength(p, hand.level)[2] == weakest]
        longest = max(len(p.cards) for p in low)
        return rng.choice([p for p in low if len(p.cards) == longest])
    if side_of(top.seat) == side_of(seat) and rng.random() < 0.9:
        return None
    plays = legal_plays(held, top.play, hand.level)
    if not plays:
        return None
    plain = [p for p in plays if not p.is_bomb]
    if plain:
        return plain[0]
    if rng.random() < 0.35 or hand.counts[top.seat] <= 5:
        return plays[0]
    return None


def wrong_play(hand: Hand, seat: Seat) -> Play | None:
    """A mistake a player makes: on a single, laying a lower single it holds (出错牌 — it
    does not beat); ``None`` when no such card is held."""
    top = hand.top
    if top is None or top.seat == seat or top.play.type != "Single":
        return None
    lower = sorted((c for c in set(hand.holdings[seat].elements()) if card_order(c, hand.level) <
                    card_order(top.play.cards[0], hand.level)), key=lambda c: card_order(c, hand.level))
    return Play("Single", rank_of(lower[0]), (lower[0],)) if lower else None


def _return_card(hand: Hand, seat: Seat, to: Seat) -> Card:
    relation = "partner" if partner(seat) == to else "opponent"
    rule = getattr(hand.profile.tribute, f"return_to_{relation}")
    held = sorted(hand.holdings[seat].elements(), key=lambda c: (card_order(c, hand.level), c))
    allowed = [c for c in held if return_allowed(c, hand.level, rule)]
    return (allowed or held)[0]


def self_play(profile: Profile, rng: random.Random, max_hands: int = 12,
              forget_report: float = 0.0, table: str = "demo", mistakes: float = 0.0) -> list[Event]:
    """Play a match between four bots; returns its record as events.

    After ``max_hands`` hands time is called (the match ends as the profile says).
    ``forget_report`` is the chance a bot forgets to report its card count (报牌) and
    ``mistakes`` the chance it lays a single that does not beat the single on the table,
    so records show violations. The game goes on from what was really laid: the cards of
    a mistake are gone from the player's hand, as at a real table.
    """
    events: list[Event] = []
    clock = [0.0]

    def stamp() -> tuple[int, float]:
        clock[0] += round(rng.uniform(1.0, 9.0), 1)
        return len(events), round(clock[0], 1)

    header = Header(seq=0, t=0.0, profile=profile.name, table=table,
                    players={s: f"Bot {s}" for s in PLAY_ORDER})
    events.append(header)
    match = Match(profile, header)

    def push(ev: Event) -> None:
        events.append(ev)
        match.push(ev)

    while not match.over:
        if len(match.hands) >= max_hands and not match.time_called:
            push(TimeCalled(*stamp()))
            if match.over:
                break
        first = not match.hands
        push(Deal(*stamp(), hands=deal(rng), leader=rng.choice(PLAY_ORDER) if first else None))
        hand = match.hand
        while hand is not None and hand.phase != OVER:
            if hand.phase == TRIBUTE:
                for s in hand.tributers:
                    card = rng.choice(correct_tributes(hand.holdings[s].elements(), hand.level))
                    push(Tribute(*stamp(), seat=s, card=card))
                continue
            if hand.phase == RETURN:
                for giver, receiver in list(hand.receivers.items()):
                    push(GiveBack(*stamp(), seat=receiver, card=_return_card(hand, receiver, giver)))
                continue
            seat = hand.turn or (hand.tributers[0] if hand.tributers else PLAY_ORDER[0])
            play = choose_play(hand, seat, rng)
            if mistakes and rng.random() < mistakes:
                play = wrong_play(hand, seat) or play
            if play is None:
                push(Pass(*stamp(), seat=seat))
                continue
            push(PlayCards(*stamp(), seat=seat, cards=play.cards, reading=Reading(play.type, play.rank)))
            if seat in hand.report_due and rng.random() >= forget_report:
                push(Report(*stamp(), seat=seat, count=hand.counts[seat]))
    return events
