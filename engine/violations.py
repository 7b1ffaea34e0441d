"""Violations: illegal acts as values, never exceptions.

The engine records what it sees and goes on; a referee decides. Each violation has a
stable ``code`` (the referee console, the overlay and the record key on it), the seat,
the record ``seq`` of the event it refers to, the rule it breaks, and details. Wording
for people, in Chinese and English, lives with the user-facing code (``rulebook.i18n``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from engine.seats import Seat

#: code → the rule it breaks (RULES.md section; the rule books' own term).
RULES: dict[str, str] = {
    "out_of_turn": "RULES.md A hand §3 (越序出牌)",
    "not_a_combination": "RULES.md Combinations (出错牌)",
    "does_not_beat": "RULES.md Combinations: a higher play of the same type, or a bomb (出错牌)",
    "pass_on_lead": "RULES.md A hand §3: the leader plays any combination",
    "card_not_held": "RULES.md Table and cards (出错牌 / 牌张数不符)",
    "card_count_mismatch": "RULES.md Table and cards: 27 cards each (牌张数不符)",
    "duplicate_card": "RULES.md Table and cards: two decks, each card twice",
    "wrong_tribute": "RULES.md A hand §2 (贡错牌)",
    "wrong_return": "RULES.md A hand §2 Return (还错牌)",
    "missed_report": "RULES.md A hand §4 (不按规定报牌)",
    "wrong_report": "RULES.md A hand §4 (报错牌)",
    "repeated_report": "linyi: 报牌后不得再次报牌 (反复报牌)",
    "play_after_out": "RULES.md A hand §5: a player who is out takes no further part",
    "clock_overrun": "RULES.md Time (读秒)",
}


class ViolationJson(TypedDict):
    """A violation as a record's ``violation`` line and the API have it."""

    code: str
    seat: Seat | None
    seq: int | None
    rule: str
    detail: dict[str, object]


@dataclass(frozen=True)
class Violation:
    code: str
    seat: Seat | None
    seq: int | None
    detail: dict[str, object] = field(default_factory=dict)

    @property
    def rule(self) -> str:
        return RULES[self.code]

    def to_json(self) -> ViolationJson:
        return {"code": self.code, "seat": self.seat, "seq": self.seq,
                "rule": self.rule, "detail": dict(self.detail)}
