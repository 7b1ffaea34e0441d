"""What ``guandan camera-check`` says, in 中文 and English: the rows each seat lays, whether
the camera read them, and what to change where it did not."""

from __future__ import annotations

from rulebook.i18n import DEFAULT_LANG, TERMS

SUITS = {"S": ("黑桃", "♠"), "H": ("红桃", "♥"), "C": ("梅花", "♣"), "D": ("方块", "♦")}
RANKS_EN = {"T": "10"}

LINES: dict[str, tuple[str, str]] = {
    "lay": ("请每家在自己的出牌区，按自己看到的从左到右，摆成一排（每张牌左上角的字露出来）：",
            "Each seat lays, in its own play zone, one row left to right as its player sees it (each card's "
            "top-left index left showing):"),
    "row": ("  {seat}家：{cards}", "  {seat}: {cards}"),
    "watching": ("# 正在看摄像头（最多{seconds:g}秒）……", "# watching the camera (at most {seconds:g} s)…"),
    "right": ("{seat}家 ✓ 读对：{cards}（置信度{confidence:.2f}）", "{seat} ✓ read right: {cards} (confidence "
                                                                "{confidence:.2f})"),
    "right_but": ("{seat}家 ⚠ 这次读对了：{cards}（置信度{confidence:.2f}），但画面有问题：",
                  "{seat} ⚠ read right this time: {cards} (confidence {confidence:.2f}), but the picture is not "
                  "good enough:"),
    "wrong": ("{seat}家 ✗ 读成 {read}，应为 {cards}", "{seat} ✗ read as {read}, laid {cards}"),
    "unread": ("{seat}家 ✗ 没读到一排牌（应为 {cards}）", "{seat} ✗ no row read (laid {cards})"),
    "picture": ("    画面：{path}", "    picture: {path}"),
    "passed": ("摄像头检查通过：四家的牌都读对了", "camera check passed: every seat's row was read right"),
    "failed": ("摄像头检查未通过：{n}家没通过；按上面的提示调整后再检查一次",
               "camera check failed: {n} seats did not pass; change what is said above and check again"),
}

ADVICE: dict[str, tuple[str, str]] = {
    "coarse": ("    这一区只有{px_per_cm:.1f}像素/厘米（要{good:g}以上）：把摄像头移近、放大画面或换分辨率更高的摄像头",
               "    this zone is seen at {px_per_cm:.1f} px/cm ({good:g} or more needed): bring the camera closer, "
               "zoom in or use a camera of higher resolution"),
    "dark": ("    画面太暗（牌面亮度{brightness:.0f}/255）：开灯、把灯移近，或调高摄像头曝光",
             "    the picture is too dark (the cards' brightness {brightness:.0f}/255): light the table, bring "
             "the lamp closer or raise the camera's exposure"),
    "glare": ("    牌面反光（{glare:.0%}的像素亮到顶）：把灯移到侧上方，或换哑光的牌",
              "    glare off the cards ({glare:.0%} of the pixels clipped white): move the lamp to the side or "
              "use matt cards"),
    "blurred": ("    画面模糊（清晰度{sharpness:.0f}）：对焦到桌面，固定好摄像头",
                "    the picture is blurred (sharpness {sharpness:.0f}): focus on the table and fix the camera "
                "firmly"),
    "noisy": ("    画面噪点多（底噪{noise_floor:.0f}）：加亮灯光，或降低摄像头的增益",
              "    the picture is noisy (noise floor {noise_floor:.0f}): more light, or lower the camera's gain"),
    "not_laid": ("    这一区没看到摆好的一排牌：牌放在本家出牌区中间，摆好后手离开",
                 "    no row was seen lying still in this zone: lay it in the middle of the seat's zone and take "
                 "the hand away"),
    "lay_again": ("    光线和分辨率都够：看看是不是摆错了牌或顺序，牌要正对本家，再试一次",
                  "    light and resolution look fine: check the cards and their order, each upright for its "
                  "player, and try again"),
    "not_seen": ("    这一区没拍清楚：桌面标记是否都在画面里？先用 guandan calibrate 检查",
                 "    this zone was never seen still: are all four table markers in the picture? check with "
                 "guandan calibrate first"),
}


def card_words(card: str, lang: str = DEFAULT_LANG) -> str:
    """A card as a player says it: 黑桃10 / ♠10, 小王 / small joker."""
    if card in ("SB", "HR"):
        return TERMS["rank.B" if card == "SB" else "rank.R"][lang != "zh"]
    suit, rank = card[0], RANKS_EN.get(card[1], card[1])
    return SUITS[suit][0] + rank if lang == "zh" else SUITS[suit][1] + rank


def line(code: str, lang: str = DEFAULT_LANG, **values) -> str:
    zh, en = LINES[code]
    if "seat" in values:
        values["seat"] = TERMS[values["seat"]][lang != "zh"]
    return (zh if lang == "zh" else en).format(**values)


def advice(code: str, lang: str = DEFAULT_LANG, **values) -> str:
    zh, en = ADVICE[code]
    return (zh if lang == "zh" else en).format(**values)
