"""The words of the statistics commentators read (``engine.stats``; the stats pages and
their JSON), in 中文 and English with the rule books' terms (上游, 进贡, 接风, 双下, 抗贡)."""

from __future__ import annotations

from rulebook.i18n import LANGS

#: a figure's name, and the page's words: key → (中文, English)
STAT_WORDS: dict[str, tuple[str, str]] = {
    # a player's figures (engine.stats.PlayerStats)
    "matches": ("场次", "matches"),
    "hands": ("把数", "hands"),
    "first_out": ("上游", "first out (上游)"),
    "first_out_rate": ("上游率", "first-out rate (上游)"),
    "places": ("上游/二游/三游/下游", "1st/2nd/3rd/4th (上游/二游/三游/下游)"),
    "plays": ("出牌", "plays"),
    "passes": ("过牌", "passes"),
    "bombs": ("炸弹", "bombs"),
    "straight_flushes": ("其中同花顺", "of which straight flushes"),
    "joker_bombs": ("其中天王炸", "of which joker bombs (天王炸)"),
    "tributes_paid": ("进贡", "tributes paid (进贡)"),
    "tributes_received": ("受贡", "tributes received"),
    "jiefeng": ("接风", "jiefeng (接风)"),
    "timed": ("计时次数", "plays and passes timed"),
    "think_total": ("用时合计（秒）", "time taken (s)"),
    "think_average": ("平均用时（秒）", "average think time (s)"),
    "think_longest": ("最长用时（秒）", "longest think time (s)"),
    # a table's (engine.stats.TableStats)
    "double_downs": ("双下", "double downs (双下)"),
    "resists": ("抗贡", "tributes resisted (抗贡)"),
    "tributes": ("进贡次数", "tributes paid (进贡)"),
    "seconds": ("比赛时长", "match length"),
    # the page
    "stats": ("技术统计", "Statistics"),
    "stats_of": ("牌桌 {table} 技术统计", "Table {table}: statistics"),
    "all_stats": ("全部牌桌技术统计", "Statistics of every table"),
    "players": ("选手", "Players"),
    "tables": ("牌桌", "Tables"),
    "player": ("选手", "player"),
    "seat": ("座位", "seat"),
    "table": ("牌桌", "table"),
    "total": ("合计", "all tables"),
    "none_yet": ("还没有比赛记录", "no match recorded yet"),
    "bombs_note": ("炸弹包括同花顺和天王炸（四张王）",
                   "bombs include straight flushes and the joker bomb (four jokers)"),
    "think_note": ("用时：从轮到该家（发牌、进贡还贡或上一家出牌过牌之时）到其出牌或过牌，不计裁判暂停；"
                   "裁判补录的出牌不计时",
                   "think time: from the seat's turn (the deal, the tribute and return, or the play or pass before) "
                   "to its play or pass, the referee's pauses left out; a play a referee put in later is not timed"),
    "unnamed": ("{table}桌{seat}家", "table {table}, {seat}"),
    # a tournament's page: its matches only, each named by round and table (R-N)
    "tournament_stats": ("{name} 技术统计", "{name}: statistics"),
    "matches_heading": ("比赛", "Matches"),
    "match": ("比赛（轮-桌）", "match (round-table)"),
    "without_record": ("另有 {n} 场成绩没有比赛记录（手工录入或弃权），未计入统计",
                       "{n} more results have no game record (typed or forfeited) and are not counted"),
}

#: the figures each list shows, in order
PLAYER_FIGURES = ("matches", "hands", "first_out", "first_out_rate", "places", "bombs", "straight_flushes",
                  "joker_bombs", "tributes_paid", "tributes_received", "jiefeng", "plays", "passes",
                  "think_average", "think_longest")
TABLE_FIGURES = ("matches", "hands", "bombs", "straight_flushes", "joker_bombs", "double_downs", "resists",
                 "jiefeng", "tributes", "think_average", "think_longest", "seconds")


def stat_word(key: str, lang: str, **values) -> str:
    zh, en = STAT_WORDS[key]
    return (zh if lang == "zh" else en).format(**values)


def stat_labels() -> dict[str, dict[str, str]]:
    """Every figure's name in each language, as the JSON gives them."""
    return {key: {lang: stat_word(key, lang) for lang in LANGS}
            for key in dict.fromkeys(PLAYER_FIGURES + TABLE_FIGURES)}


def figure(key: str, value, lang: str) -> str:
    """A figure as the page shows it: a rate in per cent, places as 1/2/0/3, seconds to
    one decimal, a match's length as minutes and seconds; — for none."""
    if value is None:
        return "—"
    if key == "first_out_rate":
        return f"{value * 100:.0f}%"
    if key == "places":
        return "/".join(str(n) for n in value)
    if key == "seconds":
        m, s = divmod(int(value), 60)
        return f"{m}′{s:02d}″"
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(value)
