"""The words of a tournament run live: a table's state (playing, provisional, final), the
refusals of the desk, the engine, the command line, the stores and the rule profiles, and
the tournament page's headings, in 中文 and English with the rule books' terms (成绩, 待确认,
弃权, 轮空, 名次).

A refusal is read by a referee at a console or a director at a terminal who may read
either language, so it is always given in both, one line: the asker's language first.
Whoever refuses names the refusal with a code and the values its words need
(``engine.tournament.TournamentError``, ``engine.profile.ProfileError``, a ``Refusal``
below); the words are here alone, so both languages say the same thing.
"""

from __future__ import annotations

from engine.coded import Coded

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
    # the engine's (``engine.tournament.TournamentError``: the rules of a format, a draw, a score)
    "not_a_level": ("不是级数：{text}（2–10、J、Q、K、A，过A写A+）",
                    "not a level: {text!r} (2-10, J, Q, K, A, or A+ for passed A)"),
    "unknown_format": ("没有赛制 {format}；赛制为 {formats}", "unknown format {format!r}; formats are {formats}"),
    "unknown_seeding": ("排位方式为 {seedings} 之一，不是 {seeding}", "seeding is one of {seedings}, not {seeding!r}"),
    "too_few_pairs": ("比赛至少要有2对组合", "a tournament needs at least 2 pairs"),
    "groups_not_round_robin": ("只有分组循环才分组（--groups）", "--groups is for a round robin only"),
    "groups_range": ("{pairs}对组合可分为1至{most}组（每组至少2对），不能分{groups}组",
                     "{pairs} pairs make 1 to {most} groups of 2 or more, not {groups}"),
    "swiss_rounds": ("积分编排制须给出轮数（--rounds，至少1轮）", "a Swiss tournament needs --rounds (1 or more)"),
    "rounds_fixed": ("本赛制须打{needed}轮，不是{rounds}轮（不要给 --rounds）",
                     "this {format} plays {needed} rounds, not {rounds} (leave out --rounds)"),
    "round_not_drawn": ("第{round}轮尚未编排（已编排第1–{drawn}轮）",
                        "round {round} has not been drawn (rounds drawn: 1-{drawn})"),
    "drawn_already": ("第{round}轮已编排", "round {round} is already drawn"),
    "not_next": ("下一轮是第{next}轮，不是第{round}轮", "round {next} is the next to draw, not round {round}"),
    "all_drawn": ("本赛事{rounds}轮均已编排", "all {rounds} rounds of this tournament are drawn"),
    "both_passed_a": ("只能有一对组合过A", "only one pair can pass A"),
    "winner_elsewhere": ("胜方 {winner} 不在第{table}桌", "the winner {winner!r} does not play at table {table}"),
    "levels_say": ("按级数是 {won} 胜，不是 {winner}", "the levels say {won!r} won, not {winner!r}"),
    "knockout_tie": ("第{table}桌同为{level}：淘汰赛必须分出胜负，请加打一副牌并给出胜方（--winner 组合）",
                     "table {table} is tied at {level}: a knockout match must be decided — play the extra hand "
                     "(加打一副牌) and give its winner (--winner PAIR)"),
    "pair_elsewhere": ("组合 {pair} 不在第{round}轮第{table}桌（{ns} 对 {ew}）",
                       "pair {pair!r} does not play at table {table} in round {round} ({ns} v {ew})"),
    "same_pair": ("请给出本桌两对不同的组合", "give the two different pairs of the table"),
    "knockout_draw": ("第{table}桌为平局：淘汰赛必须分出胜负",
                      "table {table} ends in a draw: a knockout match must be decided"),
    "winner_fixed": ("第{next}轮已编排：第{table}桌的胜方不能再改（更正不改变已公布的编排）",
                     "round {next} is drawn already: the winner of table {table} can no longer change"),
    # the command line's (``guandan tournament``)
    "result_kinds": ("--levels、--forfeit、--record 三者只能给一个",
                     "give exactly one of --levels LA LB, --forfeit SIDE_OR_PAIR, --record FILE"),
    "winner_with_levels": ("--winner 须与 --levels 一同给出（同级加打一副牌的胜方）",
                           "--winner goes with --levels (the extra hand of a tie)"),
    "levels_need_pairs": ("--levels 须与本桌两对组合一同给出：result 桌号 A B --levels LA LB",
                          "--levels needs the two pairs: result TABLE A B --levels LA LB"),
    "both_pairs": ("请给出本桌两对组合，或都不给", "give both pairs of the table, or neither"),
    "no_file": ("{path}：没有这个文件", "{path}: no such file"),
    "record_unreadable": ("{path}：无法读取记录（{why}）", "{path}: cannot read the record ({why})"),
    "pairs_unreadable": ("{path}：无法读取组合名单（{why}）", "{path}: cannot read the pairs ({why})"),
    "pairs_header": ("{path}：第一行须为列名，含 id,name（可加 players）",
                     "{path}: the first line must be a header naming the columns id,name (and optionally players)"),
    "pair_without_id": ("{path}：第{line}行：组合没有编号", "{path}: line {line}: a pair without an id"),
    "pair_twice": ("{path}：第{line}行：组合编号 {pair} 重复", "{path}: line {line}: duplicate pair id {pair!r}"),
    # a rule profile's (``engine.profile.ProfileError``, ``rulebook.profiles.BadProfile``): a
    # tournament's --profile, a record's header, an organiser's own TOML file
    "profile_unknown": ("{source}：没有这个规则；内置规则为 {names}，或给出 .toml 文件",
                        "{source}: no such profile; bundled profiles are {names}, or give a .toml file"),
    "profile_circle": ("{source}：extends：规则相互继承，成了一个圈",
                       "{source}: extends: profiles extend each other in a circle"),
    "profile_toml": ("{source}：不是有效的 TOML（{why}）", "{source}: not valid TOML: {why}"),
    "profile_unreadable": ("{source}：无法读取（{why}）", "{source}: cannot read: {why}"),
    "profile_extends": ("{source}：extends 应为一个规则的名字，不是 {value!r}",
                        "{source}: extends: expected the name of a profile, got {value!r}"),
    "profile_unknown_key": ("{source}：{key}：规则中没有这一项", "{source}: {key}: unknown key"),
    "profile_missing_key": ("{source}：{key}：缺少这一项", "{source}: {key}: missing key"),
    "profile_not_table": ("{source}：{key}：应为表，不是 {value!r}",
                          "{source}: {key}: expected a table, got {value!r}"),
    "profile_not_list": ("{source}：{key}：应为列表，不是 {value!r}",
                         "{source}: {key}: expected a list, got {value!r}"),
    "profile_not_bool": ("{source}：{key}：应为 true 或 false，不是 {value!r}",
                         "{source}: {key}: expected true or false, got {value!r}"),
    "profile_not_whole": ("{source}：{key}：应为整数，不是 {value!r}",
                          "{source}: {key}: expected a whole number, got {value!r}"),
    "profile_not_string": ("{source}：{key}：应为字符串，不是 {value!r}",
                           "{source}: {key}: expected a string, got {value!r}"),
    "profile_level": ("{source}：{key}：{value} 不是级数（2–10、J、Q、K、A）",
                      "{source}: {key}: not a level: {value!r} (levels are 2-9, 10/T, J, Q, K, A)"),
    "profile_rank": ("{source}：{key}：{value} 不是牌点", "{source}: {key}: {value!r} is not a rank"),
    "profile_choice": ("{source}：{key}：{value} 不是 {allowed} 之一",
                       "{source}: {key}: {value!r} is not one of {allowed}"),
    # the stores' (``store.tournament_store.StoreError``, ``store.event_store.StoreError``; a
    # database that cannot be opened: ``store.db.OpenError``)
    "db_url": ("{name}：不支持这种地址（请给出 SQLite 文件或 postgresql://USER@HOST:PORT/DB）",
               "{name}: unsupported URL (give a SQLite file or postgresql://USER@HOST:PORT/DB)"),
    "db_connect": ("{name}：无法连接 PostgreSQL（{why}）", "{name}: cannot connect to PostgreSQL ({why})"),
    "db_newer": ("{name}：由较新版本的计分程序写入（{store} 数据结构第{version}版），请升级本程序",
                 "{name}: written by a newer scorer ({store} schema {version})"),
    "db_half": ("{name}：{store} 的数据表残缺（有 {there}，缺 {missing}）：不是本程序建立的数据库",
                "{name}: the {store} tables are half there ({there} without {missing}): not a database this "
                "scorer made"),
    "no_tournament_file": ("{name}：没有这个比赛文件（请先用 `guandan tournament new` 创建比赛）",
                           "{name}: no such tournament file (create one with `guandan tournament new`)"),
    "not_tournament_file": ("{name}：不是比赛文件（{why}）", "{name}: not a tournament file ({why})"),
    "holds_tournament": ("{name}：已存有一项比赛（新比赛须用新的 --db 文件或数据库）",
                         "{name}: already holds a tournament (a new tournament needs a new --db file or database)"),
    "no_tournament": ("{name}：数据库中没有比赛（请先用 `guandan tournament new` 创建比赛）",
                      "{name}: no tournament in this database (create one with `guandan tournament new`)"),
    "holds_no_tournament": ("{name}：没有比赛", "{name}: holds no tournament"),
    "confirmed_already": ("第{entry}条成绩已确认", "result {entry} is already confirmed"),
    "store_unopenable": ("{name}：无法打开存储（{why}）", "{name}: cannot open the store ({why})"),
    "table_id": ("牌桌编号须为1–40个字母、数字、- 或 _，不是 {table!r}",
                 "a table id is 1-40 letters, digits, - or _, got {table!r}"),
    "unknown_table": ("没有牌桌 {table!r}", "no table {table!r}"),
    "seq_taken": ("牌桌 {table!r} 已有第{seq}条事件", "table {table!r} already has an event {seq}"),
    "no_free_seq": ("牌桌 {table}：试了{tries}次仍找不到空闲的事件号，未能记入",
                    "table {table}: no free seq for the event after {tries} tries"),
    "frame_not_jpeg": ("证据画面须为 JPEG 图像", "an evidence frame must be a JPEG image"),
    "user_name": ("用户名须为1–40个字母、数字、- 或 _，不是 {name!r}",
                  "a user name is 1-40 letters, digits, - or _, got {name!r}"),
    "password_short": ("密码至少要8个字符", "a password needs at least 8 characters"),
    "user_exists": ("用户 {name!r} 已存在", "user {name!r} exists already"),
    "unknown_user": ("没有用户 {name!r}", "no user {name!r}"),
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
    # the referee console's results queue (web/static/referee_results.js)
    "kind_result": ("待确认成绩", "results to confirm"),
    "round_table": ("第{round}轮第{table}桌", "round {round}, table {table}"),
    "not_finished": ("未完赛：{tables}", "not finished: {tables}"), "table_no": ("第{table}桌", "table {table}"),
    "table_page": ("牌桌页面", "table page"),
    "record": ("比赛记录", "game record"), "evidence": ("证据", "evidence"),
    "entered": ("{by} 录入（{source}）", "entered by {by} ({source})"),
    "open_items": ("本桌仍有{n}项待处理", "this table still has {n} open items"),
    "all_final": ("本轮成绩均已确认", "every result of the round is final"),
    "last_final": ("全部{n}轮成绩均已确认", "all {n} rounds are final"),
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


def refusal(key: str, lang: str = "zh", /, **values: object) -> str:
    """A refusal in both languages on one line, ``lang`` first. A value that is itself a
    coded error (a profile's inside a record's: ``why=exc``) is put in each language's own
    words, so neither half is a mix.

    >>> refusal("unknown_table", "en", table="t9")
    "no table 't9' / 没有牌桌 't9'"
    """
    zh, en = _both(key, values)
    return f"{zh} / {en}" if lang == "zh" else f"{en} / {zh}"


def _both(key: str, values: dict[str, object]) -> tuple[str, str]:
    """The refusal ``key`` in (中文, English)."""
    zh, en = (text.format(**{k: _both(v.code, v.values)[i] if _coded(v) else v for k, v in values.items()})
              for i, text in enumerate(REFUSALS[key]))
    return zh, en


def _coded(value: object) -> bool:
    """Whether ``value`` is an error named by a code that has words here."""
    return (isinstance(value, Exception) and isinstance(getattr(value, "code", None), str)
            and value.code in REFUSALS and isinstance(getattr(value, "values", None), dict))


class Refusal(Coded):
    """An error a person reads, named by a ``code`` and the ``values`` its words need
    (``REFUSALS``): ``str`` gives both languages, Chinese first (a log, a terminal or a
    caller with no language chosen), ``text(lang)`` the asker's first. The stores' errors
    are these, so whatever shows one shows it in both languages.

    >>> str(Refusal("unknown_user", name="wang"))
    "没有用户 'wang' / no user 'wang'"
    """

    def __str__(self) -> str:
        return refusal(self.code, "zh", **self.values)

    def text(self, lang: str) -> str:
        return refusal(self.code, lang, **self.values)


def state_word(state: str, lang: str) -> str:
    zh, en = STATES[state]
    return zh if lang == "zh" else en


def page_word(key: str, lang: str, **values: object) -> str:
    zh, en = PAGE[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text
