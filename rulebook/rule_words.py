"""The rule books' own words for a violation: the clause a referee rules by, as written in the
event's rule document (``../shared/rules/*-zh.txt``, the sources a profile names and
``RULES.md`` digests), with an English rendering that keeps the books' terms. A clause the
book writes over several lines is joined with ：and ；.

The engine cites a rule by its place in ``RULES.md`` (``engine.violations.RULES``); a
referee deciding at a table wants the sentence itself, and the sentence differs by event —
临沂 takes an out-of-turn play back and records a 违例, 江苏 stops the offender's next turn,
临泉 records a 犯规 and leaves the cards exposed. A book that says nothing on a violation
has no entry: the console then shows the citation alone.
"""

from __future__ import annotations

from collections.abc import Iterable

_LINYI_WRONG_CARD = ("出错牌予以收回，记违例", "a wrong card (出错牌) is taken back and a violation (违例) recorded")
_LINYI_REPORT = ("不按规定报牌或报错牌，记违例",
                 "not reporting the cards left as the rules say (不按规定报牌), or reporting them wrong (报错牌): "
                 "a violation (违例)")
_LINYI_TRIBUTE = ("贡错牌、还错牌，应视情节予以纠正：尚未出牌的，退回错张重新给牌，给予警告；已经出牌的，判犯规",
                  "a wrong tribute or return (贡错牌、还错牌) is put right as the case calls for: before any play, "
                  "the wrong card goes back and the right one is given, with a warning (警告); once play has "
                  "begun, a foul (犯规)")
_JIANGSU_WRONG_CARD = ("任何一方所出的牌，一旦被对方看到（并被指明是什么牌）后不得收回，"
                       "如是错牌则停止一轮出牌，由下家出牌。",
                       "a play, once the opponents have seen it (and named its cards), is not taken back; if it is a "
                       "wrong card (错牌), the player misses a turn and the next player plays")
_JIANGSU_REPORT = ("手中牌10张以下（包括10张牌），必须主动报数，且随问随报；"
                   "如报错牌张或故意隐瞒，已出完的牌张有可能收回重出，且判罚犯规人。",
                   "with 10 cards or fewer in hand a player must say how many, unasked and whenever asked; a wrong "
                   "count or one hidden on purpose may have the cards played taken back and played again, and the "
                   "offender is penalised")

#: rule document → violation code → (the document's words, in English)
WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "linyi-rules-zh.txt": {
        "out_of_turn": ("越序出牌予以收回，恢复出牌顺序记违例。",
                        "a play out of turn (越序出牌) is taken back, the order of play restored, and a violation "
                        "(违例) recorded"),
        "not_a_combination": _LINYI_WRONG_CARD, "does_not_beat": _LINYI_WRONG_CARD,
        "missed_report": _LINYI_REPORT, "wrong_report": _LINYI_REPORT,
        "repeated_report": ("反复报牌、追问余牌，给予警告",
                            "reporting again (反复报牌) or asking again for the cards left: a warning (警告)"),
        "wrong_tribute": _LINYI_TRIBUTE, "wrong_return": _LINYI_TRIBUTE,
        "card_count_mismatch": ("全手牌张数不符，判犯规",
                                "a hand of the wrong number of cards (牌张数不符): a foul (犯规)"),
        "clock_overrun": ("贡牌、还牌、出牌超时，予以读秒；仍超时给予警告。",
                          "over time for a tribute, a return or a play: counted down aloud (读秒); still over, "
                          "a warning (警告)"),
    },
    "jiangsu-2015-provincial-rules-zh.txt": {
        "out_of_turn": ("上家没有出牌，下家就出牌，称为越序出牌。如是越序出牌则停止一轮出牌，由下家出牌。",
                        "playing before the player before you has played is a play out of turn (越序出牌): the "
                        "offender misses a turn and the next player plays"),
        "not_a_combination": _JIANGSU_WRONG_CARD, "does_not_beat": _JIANGSU_WRONG_CARD,
        "missed_report": _JIANGSU_REPORT, "wrong_report": _JIANGSU_REPORT,
        "clock_overrun": ("出牌：0---30秒属正常出牌时间；贡牌后，还牌人必须在40秒内还牌",
                          "a play: 0–30 seconds is the normal time; after a tribute, its receiver must return a "
                          "card within 40 seconds"),
    },
    "linquan-2019-company-rules-zh.txt": {
        "out_of_turn": ("即上家没有出牌，下家抢先出牌，出错一次，记犯规一次。"
                        "抢出的牌视为暴露张不得再收回，下一轮上手后必须先出此牌。",
                        "playing before the player before you has played: each time, a foul (犯规); the cards "
                        "played are exposed cards (暴露张), not taken back, and must be led at the player's next lead"),
        "missed_report": ("当手中剩余的牌不多于7张时，要主动报牌",
                          "with 7 cards or fewer left, a player must report them (报牌) unasked"),
    },
}


def rule_words(sources: Iterable[str], code: str) -> list[dict]:
    """What the rule documents ``sources`` (a profile's) say of the violation ``code``, each
    as ``{"source", "zh", "en"}``; empty where they say nothing of it."""
    return [{"source": source, "zh": WORDS[source][code][0], "en": WORDS[source][code][1]}
            for source in sources if code in WORDS.get(source, {})]
