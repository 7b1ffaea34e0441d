"""The words of a zone trace (``guandan scan/run --trace``): the states a seat's play zone is
in and what the table decided about it, in 中文 and English, for whoever looks into why a
play was or was not recorded."""

from __future__ import annotations

from rulebook.i18n import DEFAULT_LANG, TERMS

#: a zone's state in one frame
STATES: dict[str, tuple[str, str]] = {
    "moving": ("在动（手或牌在移动）：不识别", "moving (a hand or cards moving): not read"),
    "cards": ("静止，认出牌", "still, cards read"),
    "empty": ("静止，空", "still, empty"),
    "covered": ("静止，被遮住：认不出牌，也不是空桌面", "still, covered: no card read, yet not the empty table"),
}

#: what the table made of a zone's change
DECISIONS: dict[str, tuple[str, str]] = {
    "recorded": ("记录为出牌（第{seq}条）：{cards}", "recorded as a play (event {seq}): {cards}"),
    "grew": ("同一家的牌又多了：并入它刚记录的第{seq}条出牌，改为 {cards}",
             "the same seat's row grew: taken into its play just recorded (event {seq}), now {cards}"),
    "handed_over": ("记录为进贡/还贡（第{seq}条）：{cards}", "recorded as tribute or return (event {seq}): {cards}"),
    "nothing_new": ("牌已稳定，但不比已记录的多：不是新出牌（桌上已记：{committed}）",
                    "settled, but no more cards than already recorded there: no new play (recorded: {committed})"),
    "nothing_new_here": ("牌已稳定：每张牌都在已记录的牌的位置上，或它的角标处画面没变（早就在那里，只是现在才认出）："
                         "不是新出牌（桌上已记：{committed}）",
                         "settled: each card lies where a recorded card lay, or where the picture around its index "
                         "did not change (it lay there already, only now read): no new play (recorded: {committed})"),
    "waiting_press": ("牌已稳定：等该家按计时器按钮再记录", "settled: recorded when the seat presses its clock button"),
    "cleared": ("出牌区已清空：这一轮的牌已收走", "zone cleared: the trick's cards taken away"),
}

#: the headings of a trace's page
HEADINGS: dict[str, tuple[str, str]] = {
    "title": ("出牌区记录：{source}", "zone trace: {source}"),
    "time": ("时间（秒）", "time (s)"), "frame": ("帧", "frame"), "state": ("状态", "state"),
    "cards": ("认出的牌", "cards read"), "why": ("依据", "why"), "picture": ("画面", "picture"),
    "changed": ("变化格数 {changed}（底噪 {floor:.1f}）", "{changed} cells changed (noise floor {floor:.1f})"),
    "stuck": ("最后状态：{state}，自 {since:.1f} 秒起", "last state: {state}, since {since:.1f} s"),
    "camera": ("{t:.1f} 秒，摄像头（从标记测得）：散焦 {defocus_px} 像素，抖动拖影 {streak_px} 像素（{streak_deg}°），"
               "模糊宽度 {spread_px} 像素；{mode}（清楚读出的角标：原图 {sure_plain}，锐化 {sure_sharpened}）",
               "{t:.1f} s, the camera (measured on the markers): defocus {defocus_px} px, shake streak {streak_px} px "
               "({streak_deg}°), blur width {spread_px} px; {mode} (indices read surely: plain {sure_plain}, "
               "sharpened {sure_sharpened})"),
}

#: how a camera's zones are read against its blur (``vision.live.blur.Sharpening``)
SHARPENING: dict[str, tuple[str, str]] = {
    "off": ("原图识别（不锐化）", "read as seen (not sharpened)"),
    "trial": ("试读中：原图和锐化图都读，取读得清楚的", "on trial: read plain and sharpened, the clearer kept"),
    "on": ("锐化后识别", "read sharpened"),
}


def _pick(table: dict[str, tuple[str, str]], code: str, lang: str, **values) -> str:
    zh, en = table[code]
    return (zh if lang == DEFAULT_LANG else en).format(**values)


def state_text(code: str, lang: str = DEFAULT_LANG) -> str:
    return _pick(STATES, code, lang)


def decision_text(code: str, lang: str = DEFAULT_LANG, **values) -> str:
    return _pick(DECISIONS, code, lang, **values)


def heading(code: str, lang: str = DEFAULT_LANG, **values) -> str:
    return _pick(HEADINGS, code, lang, **values)


def camera_text(line: dict, lang: str = DEFAULT_LANG) -> str:
    """A trace's camera line (``ZoneTrace.camera``) in words."""
    values = {"defocus_px": 0, "streak_px": 0, "streak_deg": 0, "spread_px": 0, **line}
    return heading("camera", lang, **{**values, "mode": _pick(SHARPENING, line["mode"], lang)})


def seat_name(seat: str, lang: str = DEFAULT_LANG) -> str:
    return _pick(TERMS, seat, lang)
