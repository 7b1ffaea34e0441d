"""The words the pages show, in the language the URL asks for (Chinese by default), and the
server's refusals: named by a code, worded in both languages by the rule books
(``rulebook.tournament_live.REFUSALS``), the asker's first.
"""

from __future__ import annotations

from typing import NoReturn

from flask import abort, request, session

from rulebook.i18n import LANGS, TERMS, VIOLATIONS
from rulebook.tournament_live import refusal

PAGE: dict[str, tuple[str, str]] = {
    "hall": ("赛场总览", "Hall"), "table": ("牌桌", "Table"), "referee": ("裁判台", "Referee console"),
    "login": ("裁判登录", "Referee login"), "logout": ("退出", "Log out"), "user": ("用户名", "User"),
    "password": ("密码", "Password"), "cards_left": ("余牌", "cards left"), "turn": ("轮到", "to act"),
    "level_now": ("本把打", "playing"), "trick": ("本轮出牌", "on the table"), "last_trick": ("上一轮", "last trick"),
    "log": ("记录", "record"), "alerts": ("警报", "alerts"), "no_alerts": ("暂无警报", "no open alerts"),
    "no_tables": ("还没有牌桌", "no tables yet"), "waiting": ("等待开局", "waiting for the deal"),
    "tracker": ("记牌", "card tracker"), "big_jokers": ("大王", "big jokers"), "small_jokers": ("小王", "small jokers"),
    "level_cards": ("级牌", "level cards"), "wildcards": ("逢人配", "wildcards"), "unseen": ("未出", "unseen"),
    "match_clock": ("比赛用时", "match time"), "score": ("比分", "score"), "evidence": ("证据画面", "evidence"),
    "ack": ("确认", "acknowledge"), "dismiss": ("撤销", "dismiss"), "apply_penalty": ("判罚", "apply penalty"),
    "reason": ("理由", "reason"), "correct_play": ("更正出牌", "correct a play"), "event_no": ("事件号", "event #"),
    "add_missed": ("补录漏记的出牌", "put in a missed play"),
    "void_event": ("作废（此事件并未发生）", "void (it never happened)"),
    "before_no": ("补在事件号之前（空：补在最后）", "before event # (empty: at the end)"),
    "no_cards_pass": ("不填牌即为“过”", "no cards: a pass"),
    "cards": ("牌", "cards"), "adjust_levels": ("调整级数", "adjust levels"), "levels_by": ("级数", "levels"),
    "record_forfeit": ("记录弃权", "record a forfeit"), "submit": ("提交", "submit"), "side": ("方", "side"),
    "status.open": ("待处理", "open"), "status.acknowledged": ("已确认", "acknowledged"),
    "status.dismissed": ("已撤销", "dismissed"), "status.penalised": ("已判罚", "penalised"),
    "reported": ("报牌", "reported"), "out": ("出完", "out"), "pass": ("过", "pass"), "over": ("结束", "over"),
    "lang_switch": ("English", "中文"), "record_error": ("记录有误", "record error"),
    "no_frame": ("无画面", "no frame"), "done": ("已记录", "recorded"),
    "sent_flash": ("已发往牌桌节点；牌桌记入后即在记录中显示",
                   "sent to the table's node: it shows in the record once the table has recorded it"),
    "sent_acts": ("发往牌桌的裁判操作", "acts sent to the table"),
    "sent.pending": ("等待牌桌接收", "waiting for the table"), "sent.taken": ("牌桌已接收", "taken by the table"),
    "sent.recorded": ("已记入第{seq}条", "recorded as event {seq}"),
    "sent.refused": ("牌桌拒绝", "refused by the table"),
    "act.correction": ("更正", "correction"), "act.missed": ("补录", "missed play"),
    "act.level_adjust": ("调整级数", "level adjustment"), "act.penalty": ("判罚", "penalty"),
    "act.alert_done": ("处理警报", "alert handled"), "act.forfeit": ("弃权", "forfeit"),
    "win_chance": ("胜率", "win chance"), "wc_up": ("升{n}级", "+{n}"),
}

#: the referee console's words (web/static/referee.js), the rule books' terms where they have one
CONSOLE: dict[str, tuple[str, str]] = {
    "kind.ruling": ("违规待裁决", "rulings"), "kind.doubt": ("摄像头存疑", "camera's doubts"),
    "kind.notice": ("通知", "notices"), "read_right": ("识别无误", "read right"),
    "ack_no_penalty": ("确认，不判罚", "acknowledge, no penalty"),
    "pick_cards": ("选牌更正", "pick the cards"), "camera_read": ("摄像头读作", "the camera read"),
    "runner_ups": ("备选读法", "runner-ups"), "engine_says": ("规则判定", "the engine concluded"),
    "confidence": ("置信度", "confidence"), "rule_broken": ("违反条款", "rule broken"),
    "ladder": ("罚则递进", "penalty ladder"),
    "ladder_step": ("{count}次{penalty}记{becomes}", "{count} × {penalty} make a {becomes}"),
    "given": ("本局已判", "given this match"), "none_given": ("本局未判罚", "none given this match"),
    "step_up": ("第{n}次：记{becomes}", "{n} given: a {becomes}"),
    "reason_optional": ("理由（可不填）", "reason (optional)"),
    "reason_needed": ("撤销需填写理由", "a dismissal needs a reason"),
    "put_before": ("补在第{seq}条之前", "before #{seq}"), "at_end": ("补在最后", "at the end"),
    "nothing_missed": ("没有漏记", "nothing missed"),
    "chosen": ("已选的牌（按出牌顺序）", "chosen (in the order laid)"),
    "clear": ("清空", "clear"), "apply": ("确定", "apply"), "cancel": ("取消", "cancel"),
    "no_play": ("无出牌", "no play"), "corrected_as": ("已更正第{seq}条", "corrected #{seq}"),
    "missed_in": ("已补录", "missed play put in"),
    "keys": ("J/K 或 ↑/↓ 选择 · Enter 确认（违规：判所示罚则）· 1–9 选备选读法 · C 选牌 · "
             "A 确认不判罚 · D 撤销 · Esc 关闭",
             "J/K or ↑/↓ move · Enter confirms (a ruling: the penalty shown) · 1–9 pick a runner-up · "
             "C picks cards · A acknowledges without a penalty · D dismisses · Esc closes"),
    "mine": ("我的牌桌", "my table"), "referee_of": ("裁判：{who}", "referee: {who}"),
    "assign": ("分配牌桌", "assign tables"), "assign_tables": ("牌桌号（逗号分隔）", "tables (comma-separated)"),
    "more_items": ("另有{n}项", "{n} more"), "queue_empty": ("暂无待处理事项", "nothing to decide"),
    "table_tools": ("牌桌工具", "table tools"), "seq_no": ("第{seq}条", "#{seq}"),
    "act_failed": ("操作未成功：{why}", "not recorded: {why}"), "seat_play": ("{seat}出牌", "{seat}'s play"),
}


def pick_lang() -> str:
    lang = request.args.get("lang") or session.get("lang") or "zh"
    return lang if lang in LANGS else "zh"


def refuse(status: int, code: str, /, **values: object) -> NoReturn:
    """End the request with ``status`` and the refusal ``code`` in both languages, the
    asker's first (``?lang=en``): the API answers it as ``{"error": …}``, a page shows it.
    A value that is itself a coded error (a store's, the hall's) is worded in each language."""
    abort(status, description=refusal(code, pick_lang(), **values))


def page_terms(lang: str) -> dict[str, str]:
    """Every word a page's script may need, in one language."""
    i = 0 if lang == "zh" else 1
    out = {k: v[i] for k, v in TERMS.items()}
    out.update({f"violation.{k}": v[i] for k, v in VIOLATIONS.items()})
    out.update({k: v[i] for k, v in PAGE.items()})
    out.update({k: v[i] for k, v in CONSOLE.items()})
    return out
