"""The Chinese of what the engine says in English: a game record that cannot be read or
replayed (``engine.event_base.RecordError``), a card or level named wrong
(``engine.cards.InvalidCard``), a play that is not a reading of its cards
(``engine.plays.InvalidPlay``).

A referee whose act is refused at the console, an organiser loading a record, a director
entering a table's result read these; the engine names each by a code and says it in
English itself (its ``ENGLISH``, for logs and programs), so the English is taken from
there and only the Chinese is written here. ``ENGINE_WORDS`` joins the refusals'
(``rulebook.tournament_live.REFUSALS``), where every refusal is worded. Record fields and
values (``seq``, ``'seat'``, E S W N, EW NS) are the record format's and stay as written.
"""

from __future__ import annotations

from engine.events import RecordError
from engine.plays import InvalidPlay

#: code → 中文, for every code of the engine's errors
CHINESE: dict[str, str] = {
    "at_line": "第{line}行：{why}",
    # a line's shape
    "not_json": "不是有效的JSON（第{column}列：{why}）",
    "not_object": "每一行须为一个JSON对象",
    "event_type": "没有这种事件类型：{got!r}（可用：{known}）",
    "field_seq": "“seq”应为不小于0的整数，不是 {got!r}",
    "field_t": "“t”应为不小于0的秒数，不是 {got!r}",
    "field_seat": "{key!r} 应为座位 E、S、W、N 之一，不是 {got!r}",
    "field_side": "{key!r} 应为一方 EW 或 NS，不是 {got!r}",
    "field_card": "{key!r} 中的牌有误：{why}",
    "field_target": "{key!r} 应为此前某条事件的编号（seq），不是 {got!r}",
    "cards_not_list": "牌应为列表，不是 {got!r}",
    "choices_count": "“choices”应为每张牌一个列表（共{count}张），不是 {got!r}",
    "choices_pairs": "“choices”的每一项应为 [牌, 置信度] 的列表，不是 {got!r}",
    "record_format": "不支持的记录格式 {got!r}（应为 {expected!r}）",
    "start_levels": "“start_levels”须给出 EW 和 NS 两方的级数",
    "header_profile": "“profile”须写明比赛规则",
    "header_players": "“players”须为座位到选手姓名的对应",
    "reports_heard": "“reports_heard”应为 true 或 false",
    "header_doubt": "“doubt”应为大于0、不超过1的置信度，不是 {got!r}",
    "deal_hands": "“hands”须给出 E、S、W、N 四家的牌",
    "to_own_seat": "{event}（进贡或还贡）不能交给给牌的座位本身（{seat}）",
    "resist_seats": "“seats”须列出抗贡的座位",
    "play_no_cards": "出牌至少要有一张牌（过牌另有事件）",
    "play_reading": "“reading”应为 [牌型, 大小]，不是 {got!r}",
    "play_confidence": "“confidence”应在0到1之间，不是 {got!r}",
    "report_count": "“count”（报牌张数）应为0–27，不是 {got!r}",
    "press_seat": "“seat”应为 E、S、W、N 或 R（裁判）之一，不是 {got!r}",
    "overrun_action": "“action”应为 {actions} 之一，不是 {got!r}",
    "overrun_limit": "“limit”应为整秒数，不是 {got!r}",
    "overrun_elapsed": "“elapsed”应为秒数，不是 {got!r}",
    "note_code": "摄像头通知须带有“code”",
    "note_values": "“values”应为由简单值组成的对象，不是 {got!r}",
    # a referee's act as a line
    "act_by": "裁判操作（{event}）须写明由哪位裁判做出（“by”）",
    "void_bool": "“void”应为 true 或 false，不是 {got!r}",
    "void_cards": "作废的更正是把该事件撤回：不应带牌",
    "adjust_levels": "“levels”应为不为0的整数级数，不是 {got!r}",
    "penalty_named": "“penalty”须写明罚则",
    "alert_action": "“action”应为 ack（确认）或 dismiss（撤销），不是 {got!r}",
    "dismiss_why": "撤销警报须填写理由（“why”）",
    # the record as a whole
    "record_empty": "记录是空的",
    "header_first_line": "第一行须为表头（\"type\": \"header\"）",
    "seq_order": "事件号 {got} 不在 {last} 之后",
    "second_header": "出现了第二个表头",
    "after_end": "比赛已结束，之后不能再有 {event!r}",
    "no_hand": "没有正在进行的一副牌，不能有 {event!r}（须先发牌）",
    "missed_after_end": "比赛已结束，不能再补录漏记的出牌",
    "deal_in_hand": "上一副牌还没打完，不能发牌",
    "missed_before": "第{missed}条补录的出牌被补在第{before}条之前，而该条不是记录中的出牌或过牌",
    # a card, cards, a level
    "card_not_text": "不是牌：{text!r}（应为字符串，如 'S5'）",
    "card_unknown": "不是牌：{text!r}（花色 S/H/C/D 加点数 2-9 T J Q K A；大小王为 HR/SB）",
    "cards_one_string": "应为牌的列表，不是字符串 {text!r}",
    "card_copies": "{card} 出现了{n}次；两副牌中每张牌只有{copies}张",
    "level_unknown": "不是级数：{text!r}（级数为 2–9、10/T、J、Q、K、A）",
    # a play
    "play_shape": "一手牌应为 [牌型, 大小, 牌]，不是 {value!r}",
    "play_cards_not_list": "一手牌中的牌应为列表，不是 {cards!r}",
    "play_not_reading": "{cards} 在打{level}时不能读作 {type} {rank}",
}

#: code → (中文, English), the English the engine's own: a code without its Chinese above
#: fails here, on import, not in front of a referee
ENGINE_WORDS: dict[str, tuple[str, str]] = {
    code: (CHINESE[code], en) for code, en in {**RecordError.ENGLISH, **InvalidPlay.ENGLISH}.items()}
