"""A play read as no combination, or as not beating the table: the reader's runners-up are tried.

Players lay combinations; a row of cards that forms none (four cards in a row that are no
bomb, a "straight" with a gap) is far likelier one misread index — a 6 taken for a 9, a 7
for a J — than a player laying nonsense. So when the cards as read form no combination,
the reading that swaps the fewest cards (one, else two) for runners-up of the reader's,
each at least ``table.deck.RUNNER_UP`` likely and none making a third copy of a card, and
that forms a combination, is taken; of several, the one whose swapped cards are likeliest.
The play then carries the swapped cards' confidence, so a referee is asked to check it.

The same holds, with the same care, for a combination that would not beat the play it is
laid on (``as_beating``): a misread rank (a 大王 taken for the 小王, a 2 for an 8) is far
likelier than a player laying under the table, and judged as read it raises a chain of
false alerts. A play laid under the table and read surely — the illegal play a referee
must hear of — has no runner-up of that weight that beats, and the engine judges it.
A row with a card missing or one too many cannot be mended this way and is left as read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations, product

from engine.cards import COPIES, parse_card, rank_of
from engine.plays import STRAIGHT, STRAIGHT_FLUSH, Play, beats, classify
from table.deck import RUNNER_UP, Reread

MOST_SWAPS = 2


def as_combination(cards: Sequence[str], others: Sequence[Sequence[tuple[str, float]]], level: str,
                   seen: Counter, floor: float = RUNNER_UP) -> tuple[tuple[str, ...], list[Reread]]:
    """``cards`` (in laid order) as read if they form a combination at ``level`` (or cannot
    be made one), else the likeliest reading with the fewest runners-up swapped in that
    does; ``seen`` are the cards already played this hand (two decks: never a third copy)."""
    cards = tuple(cards)
    if not cards or classify(cards, level):
        return cards, []
    return _fewest_swaps(cards, others, seen, floor, lambda trial: bool(classify(trial, level)))


def as_beating(cards: Sequence[str], others: Sequence[Sequence[tuple[str, float]]], level: str,
               seen: Counter, top: Play | None, floor: float = RUNNER_UP) -> tuple[tuple[str, ...], list[Reread]]:
    """``cards`` as read if they beat ``top`` (the play they are laid on; ``None``: a lead)
    or cannot be made to, else the likeliest reading with the fewest runners-up swapped in
    (one card, else two, each at least ``floor`` likely) that beats it.

    The misreadings this mends are of rank, and they come in chains: a 大王 read as the 小王
    laid on a 小王, a pair of 2s at level 2 read as a pair of 8s on a pair of kings. Judged
    as read, such a play "does not beat", the trick's winner is wrong, so the passes the
    runtime infers next are wrong and the next play is "out of turn", and the card itself
    turns up a third time later ("duplicate card"): one misreading, three false alerts. A
    runner-up of some weight that makes the play beat is the likelier story by far, as
    with a row that is no combination. A single laid under a single and read surely (the
    illegal play a referee must hear of) has no such runner-up and is left to the engine."""
    cards = tuple(cards)

    def beating(readings: list[Play]) -> bool:
        return any(beats(play, top, level) for play in readings)

    readings = classify(cards, level) if cards and top is not None else []
    if not readings or beating(readings):  # no combination (as_combination's), a lead, or it beats
        return cards, []
    return _fewest_swaps(cards, others, seen, floor, lambda trial: beating(classify(trial, level)))


def _fewest_swaps(cards: tuple[str, ...], others: Sequence[Sequence[tuple[str, float]]], seen: Counter,
                  floor: float, accept: Callable[[tuple[str, ...]], bool]) -> tuple[tuple[str, ...], list[Reread]]:
    """The reading ``accept`` takes with the fewest runners-up (of at least ``floor``)
    swapped in, one card, else two, none making a third copy of a card; of several, the one
    whose least likely swapped card is likeliest. ``cards`` as they are if none is."""
    options = [[(name, conf) for name, conf in these if conf >= floor] for these in others]
    for swaps in range(1, MOST_SWAPS + 1):
        best: tuple[float, tuple[str, ...], list[Reread]] | None = None
        for places in combinations([i for i, o in enumerate(options) if o], swaps):
            for picks in product(*(options[i] for i in places)):
                trial = list(cards)
                for i, (name, _conf) in zip(places, picks, strict=True):
                    trial[i] = name
                if any(seen[name] + trial.count(name) > COPIES for name, _ in picks) or not accept(tuple(trial)):
                    continue
                score = min(conf for _, conf in picks)
                if best is None or score > best[0]:
                    rereads = [Reread(cards[i], name, conf) for i, (name, conf) in zip(places, picks, strict=True)]
                    best = (score, tuple(trial), rereads)
        if best is not None:
            return best[1], best[2]
    return cards, []


def as_plain_straight(cards: Sequence[str], others: Sequence[Sequence[tuple[str, float]]], level: str,
                      seen: Counter, floor: float = RUNNER_UP) -> tuple[tuple[str, ...], list[Reread]]:
    """``cards`` as read, unless they read as a straight flush (同花顺) that one card's
    runner-up of the same rank in another suit, at least ``floor`` likely, makes a plain
    straight: then that straight, with the likeliest such card swapped.

    A straight flush is a bomb, and a rare one: bots' games play one for about sixty
    straights, players keep theirs for when a bomb is needed. A straight read in one suit
    with one card's suit in doubt is far likelier a straight with one spade read for a
    club (the look-alike suits of the index, ``models/README.md``) than a flush; taken as
    a flush it would make the next plays "not beating" it false alerts."""
    cards = tuple(cards)
    if not cards or not any(p.type == STRAIGHT_FLUSH for p in classify(cards, level)):
        return cards, []
    best: tuple[float, tuple[str, ...], Reread] | None = None
    for i, these in enumerate(others):
        for name, conf in these:
            if conf < floor or rank_of(parse_card(name)) != rank_of(parse_card(cards[i])) or name == cards[i]:
                continue
            trial = cards[:i] + (name,) + cards[i + 1:]
            if seen[name] + trial.count(name) > COPIES:
                continue
            readings = {p.type for p in classify(trial, level)}
            if STRAIGHT in readings and STRAIGHT_FLUSH not in readings and (best is None or conf > best[0]):
                best = (conf, trial, Reread(cards[i], name, conf))
    return (best[1], [best[2]]) if best is not None else (cards, [])
