"""Card faces as SVG, drawn here: corner indices, a large suit, and the competition jokers.

Served at ``/cards/<card>.svg`` for the table page and the overlay; the big joker (大王) is
drawn in colour and the small joker (小王) in black, as on Chinese competition decks.
"""

from __future__ import annotations

from functools import cache

from engine.cards import ALL_CARDS, BIG_JOKER, rank_of, suit_of

SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
RED = "#c8102e"
BLACK = "#1b1b1b"


def rank_text(rank: str) -> str:
    return "10" if rank == "T" else rank


@cache
def card_svg(card: str) -> str:
    """The SVG text of a card face (``card`` must be one of the 54 platform names)."""
    if card not in ALL_CARDS:
        raise KeyError(card)
    frame = ('<rect x="2" y="2" width="96" height="136" rx="9" fill="#fffdf8" stroke="#9a9a9a" '
             'stroke-width="2"/>')
    if rank_of(card) in ("B", "R"):
        colour = RED if card == BIG_JOKER else BLACK
        name = "大王" if card == BIG_JOKER else "小王"
        letters = "".join(f'<tspan x="14" dy="{13 if i else 0}">{ch}</tspan>' for i, ch in enumerate("JOKER"))
        body = (f'<text x="14" y="22" font-size="13" font-weight="700" fill="{colour}" text-anchor="middle" '
                f'font-family="sans-serif">{letters}</text>'
                f'<text x="56" y="92" font-size="30" font-weight="700" fill="{colour}" text-anchor="middle" '
                f'font-family="sans-serif">{name}</text>'
                f'<circle cx="56" cy="48" r="17" fill="{colour if card == BIG_JOKER else "none"}" '
                f'stroke="{colour}" stroke-width="3"/>')
    else:
        colour = RED if suit_of(card) in "HD" else BLACK
        rank, symbol = rank_text(rank_of(card)), SYMBOL[suit_of(card)]
        size = 24 if len(rank) == 1 else 21
        corner = (f'<text x="15" y="29" font-size="{size}" font-weight="700" text-anchor="middle" '
                  f'font-family="sans-serif">{rank}</text>'
                  f'<text x="15" y="50" font-size="20" text-anchor="middle">{symbol}</text>')
        body = (f'<g fill="{colour}">{corner}'
                f'<g transform="rotate(180 50 70)">{corner}</g>'
                f'<text x="55" y="92" font-size="50" text-anchor="middle">{symbol}</text></g>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="100" height="140">'
            f'<title>{card}</title>{frame}{body}</svg>')
