"""The words of a tournament run live: a table's state (playing, provisional, final), the
desk's refusals, and the tournament page's headings, in 中文 and English with the rule
books' terms (成绩, 待确认, 弃权, 轮空, 名次).

A refusal is read by a referee at a console or a director at a terminal who may read
either language, so it is always given in both, one line: the asker's language first.
"""

from __future__ import annotations

#: key → (中文, English); ``{name}`` fields are filled by ``refusal``
REFUSALS: dict[str, tuple[str, str]] = {
    "not_drawn": ("第{round}轮尚未编排", "round {round} has not been drawn"),
    "none_drawn": ("还没有编排任何一轮", "no round has been drawn yet"),
    "no_table": ("第{round}轮没有第{table}桌", "round {round} has no table {table}"),
    "has_result": ("第{round}轮第{table}桌已有成绩（第{entry}条，{state_zh}）：更正请由裁判录入级数或弃权",
                   "round {round}, table {table} has a result already (entry {entry}, {state_en}): a referee "
                   "corrects it by entering the levels or a forfeit"),
    "record_used": ("这份记录已是第{round}轮第{table}桌的成绩，不是本桌的比赛",
                    "this record is already the result of round {round}, table {table}: it is not this "
                    "table's match"),
    "record_table": ("记录来自牌桌 {other}，不是第{table}桌", "the record is of table {other}, not table {table}"),
    "record_profile": ("记录按规则 {played} 比赛，本赛事用 {used}",
                       "the record was played under profile {played!r}, the tournament uses {used!r}"),
    "record_unfinished": ("记录中的比赛尚未结束", "the match in this record has not finished"),
    "record_broken": ("记录无法复盘：{why}", "the record cannot be replayed: {why}"),
    "nothing_to_confirm": ("第{round}轮第{table}桌还没有成绩，无可确认",
                           "round {round}, table {table} has no result to confirm"),
    "already_final": ("第{round}轮第{table}桌的成绩已是最终成绩",
                      "round {round}, table {table}'s result is final already"),
    "changed": ("第{round}轮第{table}桌的成绩已变（现为第{entry}条）：请刷新后再确认",
                "round {round}, table {table}'s result has changed (now entry {entry}): reload and confirm again"),
    "missing": ("第{round}轮还缺第{tables}桌的成绩", "round {round} still lacks results for table(s) {tables}"),
    "provisional": ("第{round}轮第{tables}桌的成绩待确认：裁判确认后才能编排下一轮",
                    "round {round} has provisional results at table(s) {tables}: a referee confirms them before "
                    "the next round is drawn"),
    "unknown_pair": ("没有组合 {pair}", "unknown pair {pair!r}"),
    "withdrawn": ("组合 {pair} 已于第{round}轮退赛", "pair {pair!r} withdrew in round {round} already"),
    "withdraw_done": ("赛事已结束，无从退赛", "the tournament is over: there is nothing to withdraw from"),
}

#: a table's state in the current round, as a page shows it
STATES: dict[str, tuple[str, str]] = {
    "playing": ("比赛中", "playing"), "provisional": ("待确认", "provisional"), "final": ("已确认", "final"),
    "bye": ("轮空", "bye"),
}

#: the tournament page's and overlay's own words (the standings' columns are
#: ``rulebook.tournament_report.WORDS``)
PAGE: dict[str, tuple[str, str]] = {
    "standings": ("成绩名次表", "Standings"), "draw": ("第{n}轮对阵", "Round {n} draw"),
    "history": ("各组合战绩", "Each pair's history"), "sheets": ("积分记录表（打印）", "Score sheets (print)"),
    "standings_print": ("名次表（打印）", "Standings (print)"), "state": ("状态", "State"),
    "result": ("成绩", "Result"), "confirm": ("确认成绩", "confirm"), "no_draw": ("尚未编排", "not drawn yet"),
    "opponent": ("对手", "Opponent"), "round_col": ("轮次", "Round"), "entered_by": ("录入", "Entered by"),
    "round_of": ("第{n}轮（共{of}轮）", "round {n} of {of}"), "page_of": ("第{n}/{of}页", "page {n} of {of}"),
    "confirmed": ("第{round}轮第{table}桌成绩已确认", "round {round}, table {table}: result confirmed"),
    "withdrew": ("退赛", "withdrew"), "nav": ("赛事", "Tournament"),
    "draw_next": ("编排第{n}轮", "Draw round {n}"),
    "queue": ("待确认 {provisional} 桌，未完赛 {playing} 桌", "{provisional} to confirm, {playing} not finished"),
    "provisional_note": ("（待裁判确认）", " (provisional: a referee confirms it)"),
    "repeated_note": ("（同一记录已录入，未重复录入）", " (this record was entered already; nothing new entered)"),
    "withdrawal": ("组合 {pair} 自第{round}轮起退赛，其后各轮均按弃权计",
                   "pair {pair} withdraws from round {round} on: each of its later tables counts as its forfeit"),
    "forfeit_entered": ("第{round}轮第{table}桌按 {pair} 弃权计", "round {round}, table {table}: {pair} forfeits"),
}


#: a tournament table's own page (its node's): the seating the hall sent, the result its
#: players confirm with their seat buttons
SEATING: dict[str, tuple[str, str]] = {
    "seating": ("{event} · 第{round}轮（共{rounds}轮）· 第{table}桌",
                "{event} · round {round} of {rounds} · table {table}"),
    "press_to_confirm": ("双方各一名选手按本座位键确认成绩",
                         "a player of each side presses their seat button to confirm"),
    "pressed": ("已按键：{sides}", "pressed: {sides}"),
}


def seating_terms(lang: str) -> dict[str, str]:
    """The words of a table's seating on its page, with the states' (``state.final``: 已确认)."""
    i = 0 if lang == "zh" else 1
    return {k: v[i] for k, v in SEATING.items()} | {f"state.{k}": v[i] for k, v in STATES.items()}


def refusal(key: str, lang: str = "zh", **values: object) -> str:
    """A refusal in both languages on one line, ``lang`` first."""
    zh, en = REFUSALS[key]
    zh, en = zh.format(**values), en.format(**values)
    return f"{zh} / {en}" if lang == "zh" else f"{en} / {zh}"


def state_word(state: str, lang: str) -> str:
    zh, en = STATES[state]
    return zh if lang == "zh" else en


def page_word(key: str, lang: str, **values: object) -> str:
    zh, en = PAGE[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text
