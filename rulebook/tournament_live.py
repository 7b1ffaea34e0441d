"""The words of a tournament run live: a table's state (playing, provisional, final), the
refusals of the desk, the engine, the command line, the stores, the rule profiles, the web
server and the hall, and the tournament page's headings, in 中文 and English with the rule
books' terms (成绩, 待确认, 弃权, 轮空, 名次).

A refusal is read by a referee at a console or a director at a terminal who may read
either language, so it is always given in both, one line: the asker's language first.
Whoever refuses names the refusal with a code and the values its words need
(``engine.tournament.TournamentError``, ``engine.profile.ProfileError``, a ``Refusal``
below); the words are here alone, so both languages say the same thing. The engine's
errors that say themselves in English — a broken record, a card named wrong — have their
Chinese in ``rulebook.engine_words`` and their words here all the same; the operator's
commands' (the camera's, the clock's) are written in ``rulebook.command_words``.
"""

from __future__ import annotations

from engine.coded import Coded
from rulebook.command_words import COMMAND_WORDS
from rulebook.engine_words import ENGINE_WORDS

#: key → (中文, English); ``{name}`` fields are filled by ``refusal``. The engine's and the
#: operator's commands' come first, so a code named again below would replace their words
#: (the tests check none is)
REFUSALS: dict[str, tuple[str, str]] = {
    **ENGINE_WORDS,
    **COMMAND_WORDS,
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
    "record_file_broken": ("{path}：记录无法复盘：{why}", "{path}: the record cannot be replayed: {why}"),
    "record_breaks_at": ("第{seq}条：{why}", "seq {seq}: {why}"),
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
    # a referee's act against the table's record (``store.referee_acts.ActRefused``)
    "act_target": ("第{target}条不是本桌记录中的出牌或过牌", "event {target} is not a play or a pass of this table"),
    "act_alert": ("本桌记录中没有第{alert}条可作为警报", "no event {alert} at this table to be an alert"),
    # the web server's (web/: the API's ``{"error": …}``, the pages' error page; ``web.i18n.refuse``)
    "send_json": ("请发送JSON对象（Content-Type: application/json）",
                  "send a JSON object (Content-Type: application/json)"),
    "after_not_id": ("“after”应为全局事件编号（整数）", "'after' is a global event id (a whole number)"),
    "no_frame": ("牌桌 {table!r} 第{seq}条事件没有证据画面", "no evidence frame for event {seq} of table {table!r}"),
    "limit_not_count": ("“limit”应为事项数（整数）", "'limit' is a number of items"),
    "delay_range": ("“delay”应为0–600秒", "'delay' is seconds, 0 to 600"),
    "table_body": ('请发送 {{"id": 牌桌编号, "header": 记录的表头行}}',
                   'send {{"id": TABLE, "header": {{the record\'s header line}}}}'),
    "header_first": ("牌桌的第一条事件须为表头", "the first event of a table is its header"),
    "header_bad": ("表头有误：{why}", "the header is wrong: {why}"),
    "events_body": ('请发送 {{"events": [事件, ...]}}（记录的各行，JSON对象）',
                    'send {{"events": [event, ...]}} (record lines as JSON objects)'),
    "event_bad": ("第{i}个事件（从0起数）有误：{why}", "event {i}: {why}"),
    "event_header": ("第{i}个事件（从0起数）：表头只在建立牌桌时给出一次",
                     "event {i}: a table has one header, given when it is created"),
    "no_act": ("没有裁判操作 {act!r}（可用：{acts}）", "no referee act {act!r} (one of {acts})"),
    "unknown_act": ("没有这种裁判操作：{act!r}", "unknown act {act!r}"),
    "assign_body": ('请发送 {{"referee": 裁判名, "tables": [牌桌编号, ...]}}',
                    'send {{"referee": NAME, "tables": [TABLE, ...]}}'),
    "record_would_break": ("这样记录将无法复盘：{why}", "the record would break: {why}"),
    "act_refused": ("牌桌 {table}：{why}", "table {table}: {why}"),
    "node_takes_no_acts": ("牌桌 {table} 的记录来自不接受裁判操作的节点（回放的比赛记录）：请在保存记录处操作",
                           "table {table}'s record comes from a node that takes no referee acts (a recorded "
                           "match played back): make them where the record is kept"),
    "act_not_sent": ("未能发往牌桌节点：{why}", "not sent to the table's node: {why}"),
    "cards_bad": ("牌有误：{why}", "not cards: {why}"),
    "not_whole": ("应为整数，不是 {text!r}", "expected a whole number, got {text!r}"),
    "csrf": ("表单已过期或不是来自本站（CSRF）：请刷新页面后重试",
             "the form has expired or did not come from this site (CSRF); reload and try again"),
    "bad_token": ("令牌无效或已撤销", "unknown or revoked token"),
    "login_needed": ("请以裁判身份登录，或发送 'Authorization: Bearer <令牌>'",
                     "log in as a referee, or send 'Authorization: Bearer <token>'"),
    "too_many_logins": ("登录失败次数过多，请稍后再试", "too many failed logins, wait a few minutes"),
    "wrong_login": ("用户名或密码错误", "wrong user or password"),
    "layout_choice": ("layout 应为 full（完整）、compact（紧凑）、vertical（竖屏 1080×1920）"
                      "或 square（方屏 1080×1080）",
                      "layout is full, compact, vertical (1080×1920) or square (1080×1080)"),
    "no_card": ("没有这张牌：{card!r}", "no card {card!r}"),
    "no_tournament_here": ("本服务器的数据库中没有比赛（请用 guandan tournament new --db … 创建）",
                           "this server's database holds no tournament (guandan tournament new --db …)"),
    "no_tournament_id": ("没有第{tid}号比赛（本服务器的比赛为第{ours}号）",
                         "no tournament {tid} (this server's is {ours})"),
    "overlay_rows": ("每页{least}–{most}行，翻页间隔2–600秒", "top is {least}-{most} rows, seconds 2-600"),
    "no_evidence_record": ("第{entry}条成绩没有附带比赛记录", "no record is kept with entry {entry}"),
    "whole_from_1": ("“{key}”应为从1起的整数", "'{key}' is a whole number from 1"),
    "result_kinds_api": ("levels、forfeit、record 三者只能给一个", "send exactly one of levels, forfeit, record"),
    "pairs_list": ("“pairs”应为本桌两对组合的编号", "'pairs' is a list of the table's two pair ids"),
    "winner_id": ("“winner”应为组合编号", "'winner' is a pair id"),
    "levels_with_pairs": ('级数须与本桌两对组合一同给出：{{"pairs": [A, B], "levels": [LA, LB]}}',
                          'levels go with the two pairs: {{"pairs": [A, B], "levels": [LA, LB]}}'),
    "record_text": ("“record”应为比赛记录的文本（JSON Lines）", "'record' is the game record's text (JSON lines)"),
    # what Flask answers by itself (an address with no page, a method a route does not take, …)
    "http_400": ("请求有误", "bad request"), "http_404": ("没有这个页面", "no such page"),
    "http_405": ("此地址不接受这种请求方法", "this address does not take that method"),
    "http_413": ("请求过大", "the request is too large"), "http_500": ("服务器内部出错", "the server failed"),
    "http_error": ("请求未能完成（{code}）", "the request failed ({code})"),
    # the hall's (``hall.errors.HallError``): a broker address, a name, an act sent down to a node
    "broker_address": ("MQTT 服务器地址有误：{url!r}（{why}）；应为 mqtt://主机:端口",
                       "bad broker address {url!r} ({why}); expected mqtt://HOST:PORT"),
    "broker_form": ("MQTT 服务器地址有误：{url!r}；应为 mqtt://主机:端口，例如 mqtt://127.0.0.1:1883",
                    "bad broker address {url!r}; expected mqtt://HOST:PORT, e.g. mqtt://127.0.0.1:1883"),
    "broker_tls": ("{url}：尚不支持 TLS（mqtts://）；在赛场网络中请用 mqtt://主机:端口",
                   "{url}: TLS (mqtts://) is not supported yet; use mqtt://HOST:PORT on the hall network"),
    "broker_unreachable": ("无法连接 MQTT 服务器 {broker}（{why}）",
                           "cannot reach the MQTT broker at {broker} ({why})"),
    "broker_refused": ("无法连接 MQTT 服务器 {broker}（{why}）：mosquitto 是否在运行？",
                       "cannot reach the MQTT broker at {broker} ({why}); is mosquitto running?"),
    "name_hall": ("赛场名须为1–40个字母、数字、- 或 _，不是 {name!r}",
                  "a hall name is 1-40 letters, digits, - or _, got {name!r}"),
    "name_node": ("节点名须为1–40个字母、数字、- 或 _，不是 {name!r}",
                  "a node name is 1-40 letters, digits, - or _, got {name!r}"),
    "name_table": ("牌桌名须为1–40个字母、数字、- 或 _，不是 {name!r}",
                   "a table name is 1-40 letters, digits, - or _, got {name!r}"),
    "hall_offline": ("赛场服务器未连接 MQTT 服务器", "the hall server is not connected to its broker"),
    "act_unconfirmed": ("MQTT 服务器{seconds}秒内未确认这项裁判操作；它仍可能到达牌桌：再次操作前请先查看已发出的操作",
                        "the broker has not confirmed the act within {seconds} s; it may still reach the table: "
                        "see the acts sent before making it again"),
    "act_not_json": ("裁判操作的消息不是JSON", "the act's message is not JSON"),
    "act_without_id": ("裁判操作的消息没有带上自己的编号", "the act's message does not carry its own id"),
    "act_without_fields": ("裁判操作的消息没有写明操作或其内容", "the act's message names no act or has no fields"),
    "act_without_referee": ("裁判操作的消息没有写明是哪位裁判", "the act's message does not say which referee made it"),
    "no_record_yet": ("牌桌 {table} 还没有记录", "table {table} has no record yet"),
    "topic_seq": ("消息主题中的事件号为 {topic}，事件本身为 {seq}",
                  "the topic says seq {topic} but the event is seq {seq}"),
    "header_seq": ("记录以表头（第0条）开始，且只有一个表头",
                   "a record starts with its header (seq 0), and has only one"),
    "outbox_unopenable": ("{path}：无法打开待发事件库（{why}）", "{path}: cannot open the outbox ({why})"),
    "hall_store_failed": ("{name}：无法保存事件（{why}）；未保存的事件均未确认",
                          "{name}: cannot store events ({why}); nothing unstored was acknowledged"),
    "simulate_counts": ("--tables、--seconds、--rate 和 --matches 须大于0",
                        "--tables, --seconds, --rate and --matches must be more than 0"),
    "not_acknowledged": ("{left}个事件在{seconds}秒内未获 MQTT 服务器确认；保存在 {path}",
                         "{left} event(s) not acknowledged by the broker within {seconds} s; they are kept in {path}"),
    # ``guandan serve``, ``user`` and ``table`` (``scorer.serve_cli.ServeError``)
    "no_store": ("{path}：没有这个存储（请先用 'guandan table load' 或 'guandan user add' 创建）",
                 "{path}: no such store (create it with 'guandan table load' or 'guandan user add')"),
    "port_taken": ("无法使用端口 {port}（{host}:{port}，{why}）：已被其他程序或另一个 guandan 占用？请用 --port 换一个",
                   "cannot listen on {host}:{port} ({why}): is another program, or another guandan, using it? "
                   "Give another --port"),
    "passwords_differ": ("两次输入的密码不同", "the two passwords differ"),
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
    "stats": ("技术统计", "Statistics"),
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
    zh, en = _words(key, "zh", values), _words(key, "en", values)
    return f"{zh} / {en}" if lang == "zh" else f"{en} / {zh}"


def refusal_in_each(key: str, /, **values: object) -> dict[str, str]:
    """The refusal ``key`` in each language apart, ``{"zh": …, "en": …}``: for a page that
    is in one language and a snapshot made once for readers of both."""
    return {lang: _words(key, lang, values) for lang in ("zh", "en")}


def worded(value: object, lang: str) -> object:
    """``value`` as ``lang`` says it: a coded error with words here (a record's error inside
    an alert, a card's inside a record's) in that language's words; a value that words itself
    in either language (``text(lang)``: an operator's alert, why a picture cannot teach a
    deck, inside a command's refusal) in that language's; anything else as it is."""
    if _coded(value):
        return _words(value.code, lang, value.values)
    text = getattr(value, "text", None)
    return text(lang) if callable(text) else value


def _words(key: str, lang: str, values: dict[str, object]) -> str:
    """The refusal ``key`` in ``lang`` alone."""
    zh, en = REFUSALS[key]
    return (zh if lang == "zh" else en).format(**{k: worded(v, lang) for k, v in values.items()})


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
