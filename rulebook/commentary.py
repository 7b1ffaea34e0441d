"""A broadcast's words, in 中文 and English, from the engine's reading of a match: each
highlight's title and line (``engine.highlights``: what the overlay's banner says), the
commentary ticker (one line per notable play: "东家打出炸弹 8888，压过北家三带二",
"南家报牌：剩 6 张", "西家接风"), and the chapter list a video site takes
(``guandan highlights``: ``MM:SS title`` a line, from 00:00).

All of it derived from the replayed match, as the highlights are: a referee's correction
rewrites what follows from it.

>>> from engine.events import Deal, PlayCards
>>> from engine.match import Match
>>> from rulebook import profiles
>>> match = Match(profiles.load("jiangsu"))
>>> for event in (Deal(seq=1, t=0.0, leader="N"),
...               PlayCards(seq=2, t=4.0, seat="N", cards=("S5", "H5", "C5", "S7", "H7")),
...               PlayCards(seq=3, t=9.0, seat="W", cards=("S8", "H8", "C8", "D8"))):
...     _ = match.push(event)
>>> for line in ticker(match):
...     print(line.zh, "|", line.en)
第1把开始：打2，东西方坐庄 | Hand 1: playing 2, East-West's level
西家打出4张炸弹 8888，压过北家三带二 | West bombs with 8888 (4-card bomb) over North's full house
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.cards import NATURAL, RANKS, rank_of, suit_of, wildcard
from engine.events import Deal, Forfeit, GiveBack, Penalty, PlayCards, Report, TimeCalled, Tribute
from engine.highlights import (
    BOMB,
    DOUBLE_DOWN,
    JIEFENG,
    JOKER_BOMB,
    PASS_A,
    RESIST,
    STRAIGHT_FLUSH_KIND,
    Highlight,
    entry_highlights,
)
from engine.match import Match
from engine.plays import BOMB as BOMB_TYPE
from engine.plays import JOKER_RANK, STRAIGHT_FLUSH, Play
from rulebook.i18n import LANGS, level_name, term

#: key → (中文, English)
WORDS: dict[str, tuple[str, str]] = {
    # a highlight's title: the overlay's banner, a chapter's name
    "title.bomb": ("{size}张炸弹", "{size}-card bomb"),
    "title.joker_bomb": ("天王炸", "joker bomb (天王炸)"),
    "title.straight_flush": ("同花顺", "straight flush"),
    "title.jiefeng": ("接风", "jiefeng (接风)"),
    "title.double_down": ("双下", "double down (双下)"),
    "title.resist": ("抗贡", "tribute resisted (抗贡)"),
    "title.pass_a": ("过A", "passed A (过A)"),
    # the ticker
    "seat": ("{seat}家", "{seat}"),
    "bomb_on": ("{who}打出{what} {cards}，压过{whom}{on}", "{who} bombs with {cards} ({what}) over {whom}'s {on}"),
    "bomb_lead": ("{who}首出{what} {cards}", "{who} leads a {what}: {cards}"),
    "joker_bomb_on": ("{who}打出天王炸，压过{whom}{on}", "{who} plays the four jokers (天王炸) over {whom}'s {on}"),
    "joker_bomb_lead": ("{who}首出天王炸", "{who} leads the four jokers (天王炸)"),
    "flush_on": ("{who}打出同花顺 {cards}，压过{whom}{on}", "{who} plays a straight flush {cards} over {whom}'s {on}"),
    "flush_lead": ("{who}首出同花顺 {cards}", "{who} leads a straight flush: {cards}"),
    "report": ("{who}报牌：剩 {count} 张", "{who} reports {count} left (报牌)"),
    "out": ("{who}出完，{place}", "{who} is out: {place}"),
    "jiefeng": ("{who}接风", "{who} takes the lead for partner {whom}, who went out (接风)"),
    "deal": ("第{n}把开始：打{level}，{side}坐庄", "Hand {n}: playing {level}, {side}'s level"),
    "tribute": ("{who}进贡 {card}", "{who} pays tribute (进贡): {card}"),
    "give_back": ("{who}还贡 {card}", "{who} gives back (还贡): {card}"),
    "resist": ("{who}抗贡：两张大王在手，免于进贡", "{who}: tribute resisted (抗贡), two big jokers in hand"),
    "finish": ("名次：{places}", "finishing order: {places}"),
    "double_down": ("{side}双下！", "{side} double down (双下)!"),
    "hand_end": ("{upgrade}；{levels}", "{upgrade}; {levels}"),
    "pass_a": ("{side}过A！", "{side} pass A (过A)!"),
    "time_called": ("比赛时间到，打完本把", "time is called: this hand is played out"),
    "result": ("比赛结束：{who}", "match over: {who}"),
    # chapters
    "chapter.hand": ("第{n}把 · 打{level}", "Hand {n} · playing {level}"),
    "chapter.seat": ("{who}{title}", "{who}: {title}"),
    "chapter.side": ("{side}{title}", "{side}: {title}"),
    "chapter.time_called": ("比赛时间到", "time called"),
    "chapter.result": ("结果：{who}", "result: {who}"),
    "chapter.start": ("开场", "start"),
}

#: what the server says of OBS (``guandan serve --obs``, web.obs): code → (中文, English)
OBS_WORDS: dict[str, tuple[str, str]] = {
    "obs_connected": ("OBS {url}：已连接", "OBS {url}: connected"),
    "obs_unreachable": ("OBS {url}：连不上（{why}）：请确认OBS已打开，并在“工具 → WebSocket服务器设置”中启用了服务器",
                        "OBS {url}: cannot connect ({why}): check that OBS is running with its WebSocket server "
                        "enabled (Tools → WebSocket Server Settings)"),
    "obs_needs_password": ("OBS {url}：服务器设有密码，请用 --obs-password 提供",
                           "OBS {url}: the server has a password: give it with --obs-password"),
    "obs_wrong_password": ("OBS {url}：密码不对（见OBS“工具 → WebSocket服务器设置 → 显示连接信息”）",
                           "OBS {url}: wrong password (see OBS's Tools → WebSocket Server Settings → Show Connect "
                           "Info)"),
    "obs_not_obs": ("OBS {url}：对方不像 obs-websocket 5（{why}）",
                    "OBS {url}: the server does not speak obs-websocket 5 ({why})"),
    "obs_request_failed": ("OBS {url}：{request} 未成功（代码{status}：{comment}）；保存回放需先在OBS中“启动回放缓存”",
                           "OBS {url}: {request} failed (code {status}: {comment}); saving a replay needs OBS's "
                           "replay buffer started"),
    "obs_saved": ("牌桌 {table} 第{seq}条（{kinds}）：已让OBS保存回放", "table {table} #{seq} ({kinds}): OBS saved "
                                                                    "the replay buffer"),
    "obs_scene": ("牌桌 {table}：OBS切换到场景“{scene}”", "table {table}: OBS switched to scene {scene!r}"),
    "obs_option": ("--obs 应为 ws://主机:端口 或 牌桌=ws://主机:端口，不是 {text!r}",
                   "--obs is ws://HOST:PORT or TABLE=ws://HOST:PORT, not {text!r}"),
}


def obs_text(code: str, lang: str = "zh", **values) -> str:
    zh, en = OBS_WORDS[code]
    return (zh if lang == "zh" else en).format(**values)


SUIT_SIGNS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
#: chapters closer than this are one (YouTube takes none shorter than 10 s)
MIN_CHAPTER_S = 10.0
#: at most this many moments named in one chapter's title
CHAPTER_NAMES = 3


def word(key: str, lang: str, **values) -> str:
    zh, en = WORDS[key]
    return (zh if lang == "zh" else en).format(**values)


def who(seat: str, lang: str) -> str:
    """A seat as a commentator says it: 东家, East."""
    return word("seat", lang, seat=term(seat, lang))


def _rank(rank: str) -> str:
    return level_name(rank)


def bomb_cards(play: Play, level: str) -> str:
    """A bomb as players say it, its rank that many times ("8888"; wildcards count as the
    rank they stand for); a straight flush as its suit and run ("♠34567")."""
    if play.type == STRAIGHT_FLUSH:
        wild = wildcard(level)
        suits = {suit_of(c) for c in play.cards if c != wild}
        start = 1 if play.rank == "A" else NATURAL[play.rank]
        run = [RANKS[(start + i - 2) % 13] for i in range(len(play.cards))]
        return SUIT_SIGNS[suits.pop() if len(suits) == 1 else "H"] + "".join(_rank(r) for r in run)
    ranks = [_rank(play.rank)] * len(play.cards) if play.type == BOMB_TYPE else [_rank(rank_of(c)) for c in play.cards]
    return ("" if all(len(r) == 1 for r in ranks) else " ").join(ranks)


def play_name(play: Play, lang: str) -> str:
    """A play's kind: 三带二 / full house; a bomb with its size; the joker bomb."""
    if play.rank == JOKER_RANK:
        return word("title.joker_bomb", lang)
    if play.type == BOMB_TYPE:
        return word("title.bomb", lang, size=len(play.cards))
    return term(play.type, lang)


def card_name(card: str, lang: str) -> str:
    """A card as a viewer reads it: ♥A, 大王."""
    if card in ("HR", "SB"):
        return term("rank.R" if card == "HR" else "rank.B", lang)
    return SUIT_SIGNS[suit_of(card)] + _rank(rank_of(card))


def highlight_line(match: Match, h: Highlight, lang: str) -> str:
    """The ticker's sentence for a highlight."""
    if h.play is not None:
        level = match.hands[h.hand - 1].level
        kind = {BOMB: "bomb", JOKER_BOMB: "joker_bomb", STRAIGHT_FLUSH_KIND: "flush"}[h.kind]
        values = {"who": who(h.seat, lang), "what": play_name(h.play, lang), "cards": bomb_cards(h.play, level)}
        if h.on is None:
            return word(f"{kind}_lead", lang, **values)
        return word(f"{kind}_on", lang, **values, whom=who(h.on[0], lang), on=play_name(h.on[1], lang))
    if h.kind == JIEFENG:
        return word("jiefeng", lang, who=who(h.seat, lang), whom=who(h.seats[0], lang))
    if h.kind == RESIST:
        seats = ("、" if lang == "zh" else " and ").join(who(s, lang) for s in h.seats)
        return word("resist", lang, who=seats)
    if h.kind == DOUBLE_DOWN:
        return word("double_down", lang, side=term(h.side, lang))
    return word("pass_a", lang, side=term(h.side, lang))


def highlight_title(h: Highlight, lang: str) -> str:
    """The highlight's name, as the overlay's banner shows it big: 6张炸弹, 接风, 过A."""
    return word(f"title.{h.kind}", lang, size=h.size)


def highlight_json(match: Match, h: Highlight) -> dict:
    """A highlight as the pages and the API give it: its facts, its title and line in each
    language."""
    return h.to_json() | {"title": {lang: highlight_title(h, lang) for lang in LANGS},
                          "line": {lang: highlight_line(match, h, lang) for lang in LANGS}}


# --- the ticker -------------------------------------------------------------------------

@dataclass(frozen=True)
class TickerLine:
    """One line of the commentary ticker, in both languages, at the event it is about."""

    seq: int
    t: float
    hand: int | None
    kind: str
    zh: str
    en: str

    def to_json(self) -> dict:
        return {"seq": self.seq, "t": self.t, "hand": self.hand, "kind": self.kind, "zh": self.zh, "en": self.en}


def ticker(match: Match) -> list[TickerLine]:
    """The commentary ticker of the match so far, oldest first."""
    outs = _out_plays(match)
    last = _ending_seq(match)
    lines: list[TickerLine] = []
    for entry in match.history[1:]:
        ev = entry.event
        for kind, words in _entry_lines(match, entry, outs):
            lines.append(TickerLine(ev.seq, ev.t, entry.hand, kind, words("zh"), words("en")))
        if ev.seq == last and match.result is not None:
            lines.append(TickerLine(ev.seq, ev.t, entry.hand, "result", *(_result(match, lang) for lang in LANGS)))
    return lines


def _out_plays(match: Match) -> dict[int, tuple[str, int]]:
    """The play each seat went out with (its last play of a hand it finished), by seq:
    (seat, place)."""
    last_play: dict[tuple[int, str], int] = {}
    for entry in match.history:
        if entry.hand and isinstance(entry.event, PlayCards):
            last_play[(entry.hand, entry.event.seat)] = entry.event.seq
    out = {}
    for number, hand in enumerate(match.hands, start=1):
        for place, seat in enumerate(hand.finished, start=1):
            if (number, seat) in last_play:
                out[last_play[(number, seat)]] = (seat, place)
    return out


def _ending_seq(match: Match) -> int | None:
    """The seq of the event that ended the match (a hand's end, time called, a forfeit, a
    match-loss penalty): the last of them."""
    if match.result is None:
        return None
    enders = [e.event.seq for e in match.history[1:]
              if e.outcome is not None or isinstance(e.event, (TimeCalled, Forfeit, Penalty))]
    return enders[-1] if enders else match.history[-1].event.seq


def _entry_lines(match: Match, entry, outs) -> Iterator[tuple[str, callable]]:
    """(kind, words in a language) for each ticker line the event makes."""
    ev = entry.event
    found = entry_highlights(match, entry)
    if isinstance(ev, Deal) and entry.hand and entry.hand <= len(match.hands):
        hand = match.hands[entry.hand - 1]
        yield "deal", lambda lang: word("deal", lang, n=hand.number, level=level_name(hand.level),
                                        side=term(hand.declarers, lang))
    elif isinstance(ev, Tribute):
        yield "tribute", lambda lang: word("tribute", lang, who=who(ev.seat, lang), card=card_name(ev.card, lang))
    elif isinstance(ev, GiveBack):
        yield "give_back", lambda lang: word("give_back", lang, who=who(ev.seat, lang), card=card_name(ev.card, lang))
    elif isinstance(ev, Report):
        yield "report", lambda lang: word("report", lang, who=who(ev.seat, lang), count=ev.count)
    elif isinstance(ev, TimeCalled):
        yield "time_called", lambda lang: word("time_called", lang)
    for h in found:
        if h.kind not in (DOUBLE_DOWN, PASS_A):
            yield h.kind, lambda lang, h=h: highlight_line(match, h, lang)
    if isinstance(ev, PlayCards) and ev.seq in outs and entry.outcome is None:
        seat, place = outs[ev.seq]
        yield "out", lambda lang: word("out", lang, who=who(seat, lang), place=term(f"place{place}", lang))
    if entry.outcome is not None:
        order = entry.outcome.order
        yield "finish", lambda lang: word("finish", lang, places=("，" if lang == "zh" else ", ").join(
            f"{term(f'place{i}', lang)} {who(s, lang)}" for i, s in enumerate(order, start=1)))
        for h in found:
            if h.kind in (DOUBLE_DOWN, PASS_A):
                yield h.kind, lambda lang, h=h: highlight_line(match, h, lang)
        side, n = entry.upgrade
        yield "hand_end", lambda lang: word(
            "hand_end", lang,
            upgrade=(term("upgrade", lang, side=term(side, lang), n=n) if n
                     else term("no_upgrade", lang, side=term(side, lang))),
            levels=term("levels", lang, **{s: level_name(v) for s, v in entry.levels.items()}))


def _result(match: Match, lang: str) -> str:
    return word("result", lang, who=_winner(match, lang))


def _winner(match: Match, lang: str) -> str:
    r = match.result
    won = term("winner", lang, side=term(r.winner, lang)) if r.winner else term("draw", lang)
    why = term("reason." + r.reason, lang)
    return f"{won}（{why}）" if lang == "zh" else f"{won} ({why})"


# --- chapters ---------------------------------------------------------------------------

def chapters(match: Match, lang: str = "zh", start: float = 0.0) -> list[tuple[float, str]]:
    """The chapters of a video of the match as (seconds into the video, title): one at each
    hand's deal and each highlight, time called and the result; the video's 00:00 is the
    record's time ``start``. The first chapter is at 00:00 (the sites need one there), and
    a moment within ``MIN_CHAPTER_S`` of the chapter before joins its title."""
    moments: list[tuple[float, str]] = [(start, word("chapter.start", lang))]
    ending = _ending_seq(match)
    for entry in match.history[1:]:
        ev = entry.event
        if isinstance(ev, Deal) and entry.hand and entry.hand <= len(match.hands):
            hand = match.hands[entry.hand - 1]
            moments.append((ev.t, word("chapter.hand", lang, n=hand.number, level=level_name(hand.level))))
        for h in entry_highlights(match, entry):
            title = highlight_title(h, lang)
            if h.seat is not None:
                moments.append((ev.t, word("chapter.seat", lang, who=who(h.seat, lang), title=title)))
            else:
                moments.append((ev.t, word("chapter.side", lang, side=term(h.side, lang), title=title)))
        if isinstance(ev, TimeCalled):
            moments.append((ev.t, word("chapter.time_called", lang)))
        if ev.seq == ending:
            moments.append((ev.t, word("chapter.result", lang, who=_winner(match, lang))))
    out: list[tuple[float, list[str]]] = []
    for t, title in moments:
        at = max(0.0, t - start)
        if t < start and out:
            out[0] = (0.0, [title])  # what the video opens on: the latest moment before it
            continue
        if out and at - out[-1][0] < MIN_CHAPTER_S:
            if out[-1][1] == [word("chapter.start", lang)]:
                out[-1] = (out[-1][0], [title])  # the first hand is the opening chapter
            elif len(out[-1][1]) < CHAPTER_NAMES:
                out[-1][1].append(title)
            continue
        out.append((at, [title]))
    joiner = "，" if lang == "zh" else "; "
    return [(t, joiner.join(titles)) for t, titles in out]


def timestamp(seconds: float) -> str:
    """MM:SS, or H:MM:SS from an hour on (as the video sites read them)."""
    s = int(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def chapter_lines(match: Match, lang: str = "zh", start: float = 0.0) -> list[str]:
    """The chapter list as a video's description takes it: ``MM:SS title`` a line."""
    return [f"{timestamp(t)} {title}" for t, title in chapters(match, lang, start)]
