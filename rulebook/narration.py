"""A replayed match as a readable hand-by-hand account, in Chinese or English.

What ``guandan replay`` and the demo print: the deal, tribute and return, every play with
its type, violations where they happened, the finishing order, the upgrade and levels,
and the match result.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.events import (
    BY_CAMERA,
    AlertDone,
    CameraNote,
    Correction,
    Deal,
    Forfeit,
    GiveBack,
    LevelAdjust,
    Overrun,
    Pass,
    Pause,
    Penalty,
    PlayCards,
    Press,
    Report,
    Resist,
    Resume,
    Struck,
    TimeCalled,
    Tribute,
)
from engine.match import Entry, Match
from engine.plays import JOKER_RANK, Play
from rulebook.i18n import TERMS, camera_note_text, level_name, term, violation


def rank_name(rank: str, lang: str) -> str:
    """A play's rank as players say it: 10 for T, 大王 / 小王 for the jokers' R and B."""
    return term(f"rank.{rank}", lang) if rank in ("R", "B") else level_name(rank)


def describe_play(play: Play, lang: str) -> str:
    if play.rank == JOKER_RANK:
        name = term("JokerBomb", lang)
    elif play.type == "Bomb":
        name = f"{len(play.cards)}{'张' if lang == 'zh' else '-card '}{term('Bomb', lang)}"
    else:
        name = term(play.type, lang)
    rank = "" if play.rank == JOKER_RANK else f" {rank_name(play.rank, lang)}"
    return f"{name}{rank} [{' '.join(play.cards)}]"


def account(match: Match, lang: str = "zh") -> Iterator[str]:
    """Yield the lines of the account."""
    h = match.header
    title = match.profile.profile.title_zh if lang == "zh" else match.profile.profile.title_en
    yield f"{'牌桌' if lang == 'zh' else 'Table'} {h.table or '-'} · {title}"
    for entry in match.history[1:]:
        yield from entry_lines(match, entry, lang)
    yield ""
    yield from result_lines(match, lang)


def entry_lines(match: Match, entry: Entry, lang: str) -> Iterator[str]:
    """The account's lines for one event: what happened, its violations, a hand's end."""
    ev = entry.event
    seat = term(ev.seat, lang) if hasattr(ev, "seat") else ""
    if isinstance(ev, Deal):
        hand = match.hands[entry.hand - 1]
        yield ""
        yield (f"{term('hand', lang, n=hand.number)}  "
               + term("playing_level", lang, level=level_name(hand.level), side=term(hand.declarers, lang)))
        what = term("cards_each", lang) if ev.hands is not None else term("hidden_hands", lang)
        line = f"  {term('deal', lang)}: {what}"
        if ev.leader:
            line += "; " + term("leader", lang, seat=term(ev.leader, lang))
        if hand.resisted:
            line += f"; {term('resist', lang)}"
        yield line
    elif isinstance(ev, Tribute):
        yield f"  {term('tribute', lang)}: {seat} {ev.card}"
    elif isinstance(ev, GiveBack):
        yield f"  {term('return', lang)}: {seat} {ev.card}"
    elif isinstance(ev, Resist):
        yield f"  {term('resist', lang)}: {' '.join(term(s, lang) for s in ev.seats)}"
    elif isinstance(ev, PlayCards):
        shown = describe_play(entry.reading, lang) if entry.reading else " ".join(ev.cards)
        yield f"  {seat}  {shown}"
    elif isinstance(ev, Pass):
        yield f"  {seat}  {term('PASS', lang)}"
    elif isinstance(ev, Report):
        yield f"  {seat}  {term('report', lang)} {ev.count}"
    elif isinstance(ev, TimeCalled):
        yield f"* {term('time_called', lang)}"
    elif isinstance(ev, Press):
        yield (f"* {term('referee_call', lang)}" if ev.seat == "R"
               else f"  {seat}  {term('press', lang)}")
    elif isinstance(ev, Overrun):
        yield "  " + seat + "  " + term("overrun", lang, action=term(f"action.{ev.action}", lang),
                                          limit=ev.limit, elapsed=ev.elapsed,
                                          penalty=_penalty_name(ev.penalty, lang))
    elif isinstance(ev, Pause):
        yield f"* {term('pause', lang)} {ev.reason}".rstrip()
    elif isinstance(ev, Resume):
        yield f"* {term('resume', lang)}"
    elif isinstance(ev, CameraNote):
        yield f"* {term('camera_note', lang)}: {camera_note_text(ev, lang)}"
    elif isinstance(ev, Struck):
        what = " ".join(getattr(ev.struck, "cards", ())) or term("PASS", lang)
        yield "  " + term("struck", lang, seat=seat, what=what)
    elif isinstance(ev, Correction):
        cards = " ".join(ev.cards) or term("PASS", lang)
        if ev.void:
            yield "* " + term("void_correction", lang, target=ev.target, by=ev.by, why=ev.why)
        elif ev.by == BY_CAMERA:
            yield "* " + term("camera_correction", lang, target=ev.target, cards=cards)
        else:
            yield "* " + term("correction", lang, target=ev.target, cards=cards, by=ev.by, why=ev.why)
    elif isinstance(ev, LevelAdjust):
        yield "* " + term("level_adjust", lang, side=term(ev.side, lang), levels=ev.levels, by=ev.by, why=ev.why)
    elif isinstance(ev, Penalty):
        yield "* " + term("penalty", lang, seat=seat, penalty=_penalty_name(ev.penalty, lang), by=ev.by,
                          why=ev.why)
    elif isinstance(ev, AlertDone):
        key = "alert_ack" if ev.action == "ack" else "alert_dismiss"
        yield "* " + term(key, lang, alert=ev.alert, by=ev.by, why=ev.why)
    elif isinstance(ev, Forfeit):
        yield f"* {term('forfeit', lang)}: {term(ev.side, lang)} {ev.reason}"
    if entry.missed is not None:  # the play or pass above, as a referee put it in
        m = entry.missed
        where = term("missed_before", lang, before=m.before) if m.before is not None else term("missed_here", lang)
        cards = " ".join(ev.cards) or term("PASS", lang)
        yield "* " + term("missed", lang, seq=m.seq, where=where, seat=seat, cards=cards, by=m.by, why=m.why)
    for v in entry.violations:
        who = term(v.seat, lang) if v.seat else ""
        yield f"  ! {term('violations', lang)} [{v.code}] {who} {violation(v.code, lang)} — {v.rule}"
    if entry.outcome is not None:
        o = entry.outcome
        places = ", ".join(f"{term(f'place{i + 1}', lang)} {term(s, lang)}" for i, s in enumerate(o.order))
        dd = f" ({term('double_down', lang)})" if o.double_down else ""
        yield f"  {term('finishing', lang)}: {places}{dd}"
        side, n = entry.upgrade
        up = (term("upgrade", lang, side=term(side, lang), n=n) if n
              else term("no_upgrade", lang, side=term(side, lang)))
        yield f"  {up}; {_levels(entry.levels, lang)}"


def _penalty_name(penalty: str, lang: str) -> str:
    key = f"penalty.{penalty}"
    return term(key, lang) if key in TERMS else penalty


def _levels(levels: dict, lang: str) -> str:
    return term("levels", lang, **{side: level_name(lv) for side, lv in levels.items()})


def result_lines(match: Match, lang: str) -> Iterator[str]:
    r = match.result
    if r is None:
        yield f"{term('match', lang)}: {'未结束' if lang == 'zh' else 'not finished'}; " + _levels(match.levels, lang)
        return
    who = term("winner", lang, side=term(r.winner, lang)) if r.winner else term("draw", lang)
    yield f"{who} ({term('reason.' + r.reason, lang)}); {_levels(r.levels, lang)}"
    for key in ("points", "small_points", "level_points"):
        scores = getattr(r, key)
        yield f"  {term(key, lang)}: {term('EW', lang)} {scores['EW']} : {term('NS', lang)} {scores['NS']}"
