"""Words people read, in Chinese (the default) and English, with the rule books' terms.

The engine speaks in codes (play types, violation codes, seats); everything a referee,
player or viewer reads is looked up here, so both languages stay complete together.
"""

from __future__ import annotations

from dataclasses import dataclass
from string import Formatter
from typing import Self

from rulebook.tournament_live import worded

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"

TERMS: dict[str, tuple[str, str]] = {
    # seats and sides
    "E": ("东", "East"), "S": ("南", "South"), "W": ("西", "West"), "N": ("北", "North"),
    "EW": ("东西方", "East-West"), "NS": ("南北方", "North-South"),
    # play types
    "rank.R": ("大王", "big joker"), "rank.B": ("小王", "small joker"),
    "Single": ("单张", "single"), "Pair": ("对子", "pair"), "Trips": ("三同张", "triple"),
    "ThreePair": ("三连对（木板）", "tube"), "ThreeWithTwo": ("三带二", "full house"),
    "TwoTrips": ("钢板", "plate"), "Straight": ("顺子", "straight"),
    "StraightFlush": ("同花顺", "straight flush"), "Bomb": ("炸弹", "bomb"),
    "JokerBomb": ("四大天王", "joker bomb"), "PASS": ("过", "pass"),
    # places
    "place1": ("上游", "1st (上游)"), "place2": ("二游", "2nd (二游)"),
    "place3": ("三游", "3rd (三游)"), "place4": ("下游", "4th (下游)"),
    # acts
    "deal": ("发牌", "deal"), "tribute": ("进贡", "tribute"), "return": ("还贡", "return"),
    "resist": ("抗贡", "resisted tribute"), "report": ("报牌", "card count"),
    "double_down": ("双下", "double down"), "time_called": ("比赛时间到", "time called"),
    "forfeit": ("弃权", "forfeit"), "level": ("级", "level"), "hand": ("第{n}把", "Hand {n}"),
    "match": ("本局", "match"), "passed_a": ("过A", "passed A"),
    "upgrade": ("{side}升{n}级", "{side} up {n}"), "no_upgrade": ("{side}不升级", "{side} stays"),
    "levels": ("级数：东西方打{EW}，南北方打{NS}", "levels: East-West {EW}, North-South {NS}"),
    "playing_level": ("打{level}，{side}坐庄", "playing {level}, {side}'s level"),
    "hidden_hands": ("手牌未知（摄像记录）", "hands hidden (camera record)"),
    "cards_each": ("每家27张", "27 cards each"),
    "leader": ("{seat}先出", "{seat} leads"),
    "finishing": ("名次", "finishing order"),
    "winner": ("胜方：{side}", "winner: {side}"),
    "draw": ("平局", "draw"),
    "points": ("积分", "match points"), "small_points": ("小分", "small points"),
    "level_points": ("级差分", "level-difference points"),
    "reason.passed_a": ("先过A", "first to pass A"), "reason.time": ("时间到，级数领先", "time, higher level"),
    "reason.forfeit": ("对方弃权", "forfeit"), "reason.extra_hand": ("加赛一把决胜", "extra hand"),
    "reason.first_to_level": ("同级，先到者胜", "tie, first to reach the level"),
    "reason.draw": ("同级平局", "equal levels"),
    "violations": ("违规", "violations"),
    "press": ("按键", "pressed the button"), "referee_call": ("裁判呼叫", "referee call"),
    "overrun": ("超时：{action}限{limit}秒，用时{elapsed:.0f}秒（{penalty}）",
                "over time: {action} limit {limit} s, took {elapsed:.0f} s ({penalty})"),
    "pause": ("裁判暂停计时", "clock paused by the referee"), "resume": ("继续计时", "clock resumed"),
    "correction": ("裁判更正第{target}条：{cards}（{by}：{why}）",
                   "referee corrected #{target}: {cards} ({by}: {why})"),
    "camera_note": ("摄像头提示", "camera"),
    "void_correction": ("裁判作废第{target}条：此事件并未发生（{by}：{why}）",
                        "referee struck out #{target}: it never happened ({by}: {why})"),
    "struck": ("{seat}  {what}（已作废）", "{seat}  {what} (struck out)"),
    "missed": ("裁判补录第{seq}条（摄像头漏记），{where}：{seat} {cards}（{by}：{why}）",
               "referee put in #{seq}, missed by the camera, {where}: {seat} {cards} ({by}: {why})"),
    "missed_before": ("补在第{before}条之前", "before #{before}"),
    "missed_here": ("补在此处", "here"),
    "camera_correction": ("摄像头复核更正第{target}条：{cards}（两副牌每张牌只有两张）",
                          "camera recount corrected #{target}: {cards} (two decks hold two of each card)"),
    "level_adjust": ("裁判调整{side}级数 {levels:+d}（{by}：{why}）",
                     "referee moved {side} {levels:+d} levels ({by}: {why})"),
    "penalty": ("裁判判罚{seat}：{penalty}（{by}：{why}）", "referee penalised {seat}: {penalty} ({by}: {why})"),
    "alert_ack": ("裁判已确认第{alert}条", "referee acknowledged #{alert}"),
    "alert_dismiss": ("裁判撤销第{alert}条：{why}（{by}）", "referee dismissed #{alert}: {why} ({by})"),
    "action.tribute": ("进贡", "tribute"), "action.return": ("还贡", "return"),
    "action.first_lead": ("首出", "first lead"), "action.play": ("出牌", "play"),
    "penalty.warning": ("警告", "warning"), "penalty.violation": ("违例", "violation"),
    "penalty.foul": ("犯规", "foul"), "penalty.level_loss": ("降级", "level loss"),
    "penalty.match_loss": ("判负", "match loss"),
    "penalty.opponents_up_1": ("拖延：对方升1级", "stalling: opponents up 1 level"),
    "penalty.opponents_up_2": ("拖延：对方升2级", "stalling: opponents up 2 levels"),
    "penalty.opponents_up_3": ("拖延：对方升3级", "stalling: opponents up 3 levels"),
    "penalty.disqualification": ("取消资格", "disqualification"),
}

VIOLATIONS: dict[str, tuple[str, str]] = {
    "out_of_turn": ("越序出牌", "out of turn"),
    "not_a_combination": ("出错牌：不成牌型", "not a combination"),
    "does_not_beat": ("出错牌：管不上", "does not beat the play on the table"),
    "pass_on_lead": ("首家不能不出", "pass on a lead"),
    "card_not_held": ("出了手中没有的牌", "played a card not held"),
    "card_count_mismatch": ("牌张数不符", "card count mismatch"),
    "duplicate_card": ("同一张牌出现超过两次", "a card seen more than twice"),
    "wrong_tribute": ("贡错牌", "wrong tribute"),
    "wrong_return": ("还错牌", "wrong return"),
    "missed_report": ("未按规定报牌", "missed card-count report"),
    "wrong_report": ("报错牌张数", "wrong card-count report"),
    "repeated_report": ("反复报牌", "repeated card-count report"),
    "play_after_out": ("已出完仍出牌", "acted after going out"),
    "clock_overrun": ("超时", "clock overrun"),
    "referee_call": ("裁判呼叫", "referee call"),
    "low_confidence": ("识别置信度低，请核对", "low-confidence read: please check"),
    "camera_recount": ("摄像头按两副牌复核后更正了这手牌，请核对",
                       "the camera corrected this play, reading the hand against the two decks: please check"),
}


# What the table runtime and the camera tell the operator and the referee (rulebook.alerts).
# ``{seat}`` is worded by alert_text (南 / S), ``{act}`` is a TERMS key (进贡 / tribute).
ALERTS: dict[str, tuple[str, str]] = {
    "camera_up": ("摄像头已连接", "camera up"),
    "camera_cannot_open": ("无法打开摄像头", "cannot open the camera"),
    "camera_stopped": ("摄像头停止发送画面", "the camera stopped sending frames"),
    "recording_ended": ("录像已播完", "the recording ended"),
    "camera_moves_again": ("摄像头：画面恢复变化", "camera: the picture moves again"),
    "camera_frozen": ("摄像头：画面连续{seconds:g}秒逐像素不变，视频信号疑似卡住（请检查摄像头及线缆）；"
                      "此时看不到出牌",
                      "camera: the same picture, to the pixel, for {seconds:g} s: the feed looks frozen "
                      "(check the camera and its cable); plays are not being seen"),
    "camera_behind": ("本机跟不上摄像头：最近{seconds:g}秒每秒只读了{fps:g}帧（摄像头每秒{camera_fps:g}帧，其余丢弃），"
                      "出牌会记得晚——请换更快的电脑或关掉其他程序",
                      "this computer is not keeping up with the camera: over the last {seconds:g} s it read "
                      "{fps:g} frames a second of the camera's {camera_fps:g} (the rest dropped), so plays will be "
                      "recorded late — use a faster computer or close other programs"),
    "camera_caught_up": ("本机又跟上摄像头了：每秒读{fps:g}帧（摄像头每秒{camera_fps:g}帧）",
                         "keeping up with the camera again: {fps:g} frames read a second of the camera's "
                         "{camera_fps:g}"),
    "camera_slow": ("摄像头每秒只送来{camera_fps:g}帧（最近{seconds:g}秒）：出牌会记得晚、认得不准——"
                    "请把摄像头设为每秒25–30帧",
                    "the camera sends only {camera_fps:g} frames a second (over the last {seconds:g} s): plays "
                    "will be recorded late and read less surely — set it to 25–30 frames a second"),
    "camera_moved": ("摄像头位置变了：已重新标定", "camera moved: recalibrated"),
    "markers_missing": ("摄像头：只找到{found}个桌面标记（共4个，缺{missing}号），至少需要2个——请确认标记"
                        "都在画面内、平放、无反光，并按100%打印（guandan markers）",
                        "camera: found {found} of the 4 table markers (missing {missing}): need at least 2 — "
                        "check they are in view, flat, lit without glare, and printed at 100% "
                        "('guandan markers')"),
    "markers_no_plane": ("摄像头：找到的标记不在同一桌面平面上（是否按打印的样子摆放？）",
                         "camera: the markers found do not fit one table plane (are they laid as printed?)"),
    "zone_coarse": ("摄像头：{seat}家出牌区只有{px:.1f}像素/厘米，大多数牌认不出（至少{least:g}，最好{good:g}）："
                    "请把摄像头移近、放大画面或改用1080p",
                    "camera: seat {seat}'s play zone is seen at {px:.1f} px/cm, too coarse to read most cards "
                    "(at least {least:g}, better {good:g}): bring the camera closer, zoom in, or use 1080p"),
    "zone_covered": ("{seat}家：出牌区上有东西，既不是空桌面，也认不出牌（手？认不出的牌？）：移开之前不识别；"
                     "如有出牌，请裁判核对，漏记的可在裁判台补录",
                     "seat {seat}: something lies over the play zone that is neither bare table nor cards "
                     "the camera can read (a hand? a card it cannot read?); nothing there is read until it "
                     "clears, and a referee should check any play laid there (one the camera missed can be "
                     "put in at the referee console)"),
    "unread_card": ("{seat}家：出牌区有一张认不出的牌，按它的标记和未出的牌推断为{card}（置信度{confidence:.2f}）："
                    "按{card}记录，请裁判核对这手牌",
                    "seat {seat}: a card lies in the play zone that the camera cannot read; its marks and the "
                    "cards not yet out make it {card} (confidence {confidence:.2f}): recorded as {card}; a "
                    "referee should check the play"),
    "zone_new_bare": ("{seat}家：出牌区已{seconds:g}秒没有变化，也没认出牌：此后把它当作空的出牌区",
                      "seat {seat}: the play zone has looked the same for {seconds:g} s with no card read; "
                      "taken as its empty look from now on"),
    "third_copy": ("{seat}家：认出{read}，但两张{read}都已出过：按{taken}记录（置信度{confidence:.2f}），"
                   "请裁判核对这手牌",
                   "seat {seat}: read {read}, but both {read} are already out: taken as {taken} "
                   "(confidence {confidence:.2f}); a referee should check the play"),
    "recount": ("复核：两副牌每张牌只有两张，全手的牌合起来看，第{target}条{seat}家的{was}更可能是{now}："
                "已更正记录，请裁判核对",
                "recount: two decks hold two of each card, and the hand's cards read together make "
                "#{target}, seat {seat}'s {was}, likelier {now}: the record is corrected; a referee "
                "should check it"),
    "recount_now": ("{seat}家：认出{was}，但两副牌每张牌只有两张，全手的牌合起来看更可能是{now}：按{now}记录，"
                    "请裁判核对这手牌",
                    "seat {seat}: read {was}, but two decks hold two of each card and the hand's cards read "
                    "together make {now} likelier: recorded as {now}; a referee should check the play"),
    "too_many_copies": ("{seat}家：认出{read}，同一张牌多于两副牌所有：记录时去掉了{dropped}，裁判必须核对这手牌",
                        "seat {seat}: read {read}, more copies of a card than two decks hold: recorded "
                        "without {dropped}; a referee must check the play"),
    "no_combination": ("{seat}家：认出{read}，不成牌型：按{taken}记录（置信度{confidence:.2f}），请裁判核对这手牌",
                       "seat {seat}: read {read}, which is no combination: taken as {taken} "
                       "(confidence {confidence:.2f}); a referee should check the play"),
    "unlikely_flush": ("{seat}家：认出同花顺{read}，其中一张花色存疑：按顺子{taken}记录（置信度{confidence:.2f}），"
                       "请裁判核对这手牌",
                       "seat {seat}: read {read}, a straight flush with one suit in doubt: taken as the straight "
                       "{taken} (confidence {confidence:.2f}); a referee should check the play"),
    "would_not_beat": ("{seat}家：认出{read}，压不过桌上的{on}：按{taken}记录（置信度{confidence:.2f}），"
                       "请裁判核对这手牌",
                       "seat {seat}: read {read}, which would not beat {on} on the table: taken as {taken} "
                       "(confidence {confidence:.2f}); a referee should check the play"),
    "outside_refused": ("记录中第{seq}条（裁判或其他写入方所记）与本桌摄像头的记录接不上，未采用：{why}；"
                        "请裁判核对本桌记录",
                        "event #{seq} of the record (a referee's or another writer's) does not follow from the "
                        "table camera's record and was not taken: {why}; a referee should check the table's record"),
    "one_card_expected": ("{act}：{seat}家亮出{n}张牌（{cards}），应为一张；请裁判录入{act}",
                          "{act}: seat {seat} showed {n} cards ({cards}), one was expected; "
                          "a referee must enter the {act}"),
}


# What ``guandan enroll`` tells the operator about a picture of the enrollment layout
# (``vision.enroll``): six rows of nine, 2 → A in 黑桃 红桃 梅花 方块, then 小王 大王.
ENROLL: dict[str, tuple[str, str]] = {
    "enroll_unreadable": ("{source}：不是能读取的图片或录像", "{source}: not a picture or a video that can be read"),
    "enroll_count": ("{source}：找到{found}张牌，应为{expected}张。请把整副牌（54张，含大小王）正面朝上"
                     "摆成6行、每行9张，牌与牌之间至少留5毫米，全部放在四个标记之内（找到的牌已画在 {picture}）",
                     "{source}: found {found} cards, {expected} expected. Lay the whole deck (54 cards, jokers "
                     "included) face up in 6 rows of 9, at least 5 mm apart, all inside the four markers (the "
                     "cards found are drawn in {picture})"),
    "enroll_not_upright": ("{source}：有{n}张牌横放；每张牌都应竖放、正对南家（标出于 {picture}）",
                           "{source}: {n} cards lie sideways; every card stands upright for South (marked in "
                           "{picture})"),
    "enroll_rows": ("{source}：牌没有排成{rows}行、每行{columns}张（行与行之间要留出空隙；见 {picture}）",
                    "{source}: the cards do not lie in {rows} rows of {columns} (leave a gap between rows; see "
                    "{picture})"),
    "enroll_dark": ("{source}：画面太暗（牌面亮度{level}，至少要{least}）：请开灯或调整摄像头曝光",
                    "{source}: the picture is too dark (the cards' brightness {level}, at least {least}): light "
                    "the table or change the camera's exposure"),
    "enroll_dark_markers": ("{source}：画面太暗，找不到桌面标记（平均灰度{mean}/255，最亮处{level}，至少要{least}）："
                            "请开灯或调整摄像头曝光",
                            "{source}: the picture is too dark to find the table markers in (mean grey level "
                            "{mean} of 255, its brightest part {level}, at least {least} needed): light the table "
                            "or change the camera's exposure"),
    "enroll_blurred": ("{source}：画面模糊（清晰度{level}，至少要{least}）：请对焦，拍摄时镜头和牌都不要动",
                       "{source}: the picture is blurred (sharpness {level}, at least {least}): focus the camera "
                       "and keep it and the cards still"),
    "enroll_swapped": ("{first}和{second}放错了位置（{first}的位置上读到{second}，{second}的位置上读到{first}）："
                       "请按顺序摆放后重新拍摄（见 {picture}）",
                       "{first} and {second} are in each other's places ({second} read where {first} belongs, "
                       "{first} where {second} belongs): lay them in order and take the picture again (see "
                       "{picture})"),
    "enroll_twice": ("两个位置上都读到{card}（第{place}位应为{expected}）：一副牌每张只摆一次，请换上正确的牌"
                     "（见 {picture}）",
                     "{card} read in two places (place {place} is {expected}'s): each card of the deck is laid "
                     "once; put the right card there (see {picture})"),
    "enroll_doubt": ("第{place}位应为{expected}，摄像头现有模型读作{card}（置信度{confidence:.2f}）：请在对照表上核对",
                     "place {place} is {expected}'s; the camera's present models read {card} (confidence "
                     "{confidence:.2f}): check it on the contact sheet"),
}


def enroll_text(code: str, lang: str = DEFAULT_LANG, **values) -> str:
    """What ``guandan enroll`` says (``ENROLL``) in ``lang``, jokers as 大王 / 小王."""
    for key in ("card", "expected", "first", "second"):
        if values.get(key) in ("HR", "SB"):
            values[key] = term("rank.R" if values[key] == "HR" else "rank.B", lang)
    zh, en = ENROLL[code]
    return (zh if lang == "zh" else en).format(**values)


@dataclass(frozen=True)
class Said:
    """Something the camera's programs say, as a ``code`` and the ``values`` its words need,
    worded only when shown (``text`` in a subclass, from its own table): one value serves
    a Chinese referee and an English streamer alike."""

    code: str
    values: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, code: str, **values: object) -> Self:
        return cls(code, tuple(values.items()))


@dataclass(frozen=True)
class EnrollProblem(Said):
    """Why enrollment cannot use a picture (``ENROLL``), worded when shown: the value inside
    ``guandan enroll``'s refusal (``enroll_picture``), so each language's half of the line
    says it in that language (``rulebook.tournament_live.worded``)."""

    def text(self, lang: str = DEFAULT_LANG) -> str:
        return enroll_text(self.code, lang, **dict(self.values))


def camera_note_text(note, lang: str) -> str:
    """A recorded camera note (``engine.events.CameraNote``) worded as the operator heard it;
    a code this version does not know (a newer table's) is shown as it is."""
    if note.code not in ALERTS:
        return f"{note.code} {note.values}"
    try:
        return alert_text(note.code, lang, **note.values)
    except (KeyError, ValueError, IndexError):
        return f"{note.code} {note.values}"


def say(lang: str, zh: str, en: str) -> str:
    """One of a message written out in both languages, for a console line that has no key
    of its own."""
    return zh if lang == "zh" else en


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"language must be one of {', '.join(LANGS)}, got {lang!r}")
    return lang


def level_name(level: str) -> str:
    """A level as people say it: 10, not the platform's T."""
    return "10" if level == "T" else level


def term(key: str, lang: str = DEFAULT_LANG, **values) -> str:
    zh, en = TERMS[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text


#: what an alert says beyond its text where it carries the values for it (a record written
#: before the alert carried them is worded without)
ALERT_DETAILS: dict[str, tuple[str, str]] = {
    "zone_covered": ("。此区停在“被遮住”{seconds:g}秒，压着已记录的{cards}",
                     ". The zone has been held as covered for {seconds:g} s, over the recorded {cards}"),
}


def alert_text(code: str, lang: str = DEFAULT_LANG, **values) -> str:
    """An operator alert (``ALERTS``) in ``lang``: a seat as players say it (南 in Chinese,
    the letter in English, as the console shows seats), an act in the rule books' term, a
    joker as 大王 / 小王, a coded error (why the record refused an event) in that language's words."""
    zh, en = ALERTS[code]
    values = {k: worded(v, lang) for k, v in values.items()}
    if "seat" in values and lang == "zh":
        values["seat"] = term(values["seat"], "zh")
    if values.get("card") in ("HR", "SB"):
        values["card"] = term("rank.R" if values["card"] == "HR" else "rank.B", lang)
    if "act" in values:
        values["act"] = term(values["act"], lang)
    text = (zh if lang == "zh" else en).format(**values)
    detail = ALERT_DETAILS.get(code)
    if detail is not None and {name for _, name, _, _ in Formatter().parse(detail[0]) if name} <= values.keys():
        text += detail[lang != "zh"].format(**values)
    return text


def violation(code: str, lang: str = DEFAULT_LANG) -> str:
    zh, en = VIOLATIONS.get(code, (code, code))
    return zh if lang == "zh" else en
