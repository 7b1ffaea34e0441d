"""What a tournament's people read: draws, results and standings as text, CSV and HTML.

Terminal text is in one language (Chinese by default, ``--lang en``); printed HTML is
bilingual — the rule books' Chinese terms (积分记录表, 轮空, 名次, 积分, 小分, 级差分)
with the English below — because a sheet pinned up in a hall is read by everyone. The
JSON shapes (``draw --json``, ``standings --json``) and CSV columns use the engine's
English keys, which are stable for other programs.
"""

from __future__ import annotations

import csv
import html
import unicodedata
from pathlib import Path

from engine.tournament import Outcome, Table, Tournament
from rulebook.i18n import level_name

WORDS: dict[str, tuple[str, str]] = {
    "swiss": ("积分编排制", "Swiss"), "roundrobin": ("分组循环赛", "round robin"),
    "knockout": ("淘汰赛", "knockout"),
    "created": ("已创建比赛《{name}》：{format}，{pairs}对，{rounds}轮，规则 {profile}，抽签种子 {seed}",
                "Created “{name}”: {format}, {pairs} pairs, {rounds} rounds, profile {profile}, lot seed {seed}"),
    "round": ("第{n}轮", "Round {n}"), "group": ("第{n}组", "Group {n}"),
    "draw_title": ("第{n}轮对阵", "Round {n} draw"),
    "sheet": ("积分记录表", "Score sheet"), "standings_title": ("成绩名次表", "Standings"),
    "table": ("桌号", "Table"), "ns": ("南北", "North-South"), "ew": ("东西", "East-West"),
    "bye": ("轮空", "Bye"), "pair": ("组合", "Pair"), "name": ("队名", "Name"), "group_col": ("组别", "Group"),
    "ns_level": ("南北级数", "NS level"), "ew_level": ("东西级数", "EW level"),
    "signature": ("双方签名", "Signatures"),
    "rank": ("名次", "Rank"), "played": ("场次", "Played"), "points": ("积分", "Points"),
    "wins": ("胜轮次", "Wins"), "upgrades": ("升级数", "Upgrades"), "level_points": ("级差分", "Level pts"),
    "small_points": ("小分", "Small pts"), "lot": ("抽签", "Lot"), "reached": ("所到轮次", "Reached"),
    "result": ("第{round}轮第{table}桌：{text}", "Round {round}, table {table}: {text}"),
    "corrected": ("（更正，原成绩保留）", " (correction; the earlier entry is kept)"),
    "beat": ("{a}（{la}）胜{b}（{lb}）", "{a} ({la}) beat {b} ({lb})"),
    "drew": ("{a}（{la}）与{b}（{lb}）平局", "{a} ({la}) drew with {b} ({lb})"),
    "forfeited": ("{b}弃权，{a}胜", "{b} forfeited, {a} wins"),
    "scores": ("积分 {p}，小分 {s}，级差分 {l}", "points {p}, small {s}, level {l}"),
    "bye_points": ("轮空计{points}分", "a bye scores {points}"),
    "after_round": ("第{n}轮后", "after round {n}"),
}


def word(key: str, lang: str, **values: object) -> str:
    zh, en = WORDS[key]
    text = zh if lang == "zh" else en
    return text.format(**values) if values else text


def both(key: str, **values: object) -> str:
    """Chinese, then English, for bilingual print."""
    return f"{word(key, 'zh', **values)} / {word(key, 'en', **values)}"


# --- standings as data ---------------------------------------------------------------------

def columns(t: Tournament) -> list[str]:
    """The standings' columns: rank, pair, its name, games played, then the profile's
    tie-break chain in order (points first wherever the chain puts it)."""
    head = ["rank", "pair", "name"]
    if t.format == "roundrobin":
        head.insert(0, "group")
    if t.format == "knockout":
        head.append("reached")
    chain = list(t.profile.tiebreak.chain)
    if "points" not in chain:
        chain.insert(0, "points")
    return head + ["played"] + chain


def standing_rows(t: Tournament) -> list[dict]:
    """The ranked standings as plain dicts with ``columns(t)`` as keys (JSON and CSV)."""
    names = {p.id: p.name for p in t.pairs}
    out = []
    for s in t.standings():
        values = {**vars(s), "name": names[s.pair]}
        out.append({c: values[c] for c in columns(t)})
    return out


def write_csv(t: Tournament, path: Path) -> None:
    """UTF-8 with a byte-order mark: Excel on a Chinese Windows reads it without mojibake."""
    with path.open("w", newline="", encoding="utf-8-sig") as f:
        writer = csv.DictWriter(f, fieldnames=columns(t))
        writer.writeheader()
        writer.writerows(standing_rows(t))


# --- terminal text -----------------------------------------------------------------------

def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _grid(rows: list[list[str]]) -> list[str]:
    """Columns padded by display width (a Chinese character takes two cells)."""
    widths = [max(_width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c + " " * (w - _width(c)) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _label(t: Tournament, pair_id: str) -> str:
    return f"{pair_id} {t.pair(pair_id).name}"


def draw_lines(t: Tournament, round_no: int, tables: list[Table], lang: str) -> list[str]:
    rows = [[word("table", lang), word("ns", lang), word("ew", lang)]]
    for tb in tables:
        if tb.is_bye:
            rows.append([word("bye", lang), _label(t, tb.ns), ""])
        else:
            rows.append([str(tb.table), _label(t, tb.ns), _label(t, tb.ew)])
    if any(tb.group for tb in tables):
        rows[0].insert(0, word("group_col", lang))
        for row, tb in zip(rows[1:], tables, strict=True):
            row.insert(0, str(tb.group))
    return [word("draw_title", lang, n=round_no), *_grid(rows)]


def _level(text: str) -> str:
    return text if text == "A+" else level_name(text)


def result_line(t: Tournament, round_no: int, table: Table, outcome: Outcome, corrected: bool, lang: str) -> str:
    a, b = (outcome.winner, table.ew if outcome.winner == table.ns else table.ns) if outcome.winner \
        else (table.ns, table.ew)
    if outcome.reason == "forfeit":
        text = word("forfeited", lang, a=_label(t, a), b=_label(t, b))
    else:
        key = "beat" if outcome.winner else "drew"
        text = word(key, lang, a=_label(t, a), la=_level(outcome.levels[a]),
                    b=_label(t, b), lb=_level(outcome.levels[b]))
    sa, sb = outcome.scores[a], outcome.scores[b]
    scores = word("scores", lang, p=f"{sa.points}:{sb.points}", s=f"{sa.small_points}:{sb.small_points}",
                  l=f"{sa.level_points}:{sb.level_points}")
    line = word("result", lang, round=round_no, table=table.table, text=f"{text}，{scores}" if lang == "zh"
                else f"{text}; {scores}")
    return line + (word("corrected", lang) if corrected else "")


def standings_lines(t: Tournament, lang: str) -> list[str]:
    cols = columns(t)
    rows = standing_rows(t)
    out = [f"{t.name} · {word('standings_title', lang)}"]
    groups = sorted({r.get("group") for r in rows}, key=lambda g: g or 0)
    for g in groups:
        if g is not None:
            out += ["", word("group", lang, n=g)]
        shown = [c for c in cols if c != "group"]
        grid = [[word(c, lang) for c in shown]]
        grid += [[str(r[c]) for c in shown] for r in rows if r.get("group") == g]
        out += _grid(grid)
    return out


# --- print-ready HTML --------------------------------------------------------------------

_CSS = """
@page { size: A4; margin: 14mm 12mm; }
body { font-family: "Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC",
       "WenQuanYi Micro Hei", sans-serif; color: #000; margin: 0 auto; max-width: 186mm; }
h1 { font-size: 20pt; margin: 0; text-align: center; }
h1 small { display: block; font-size: 11pt; font-weight: normal; color: #333; }
p.meta { text-align: center; margin: 2mm 0 5mm; font-size: 10pt; }
table { width: 100%; border-collapse: collapse; font-size: 10.5pt; page-break-inside: auto; }
th, td { border: 0.3mm solid #000; padding: 1.6mm 2mm; text-align: center; }
th small { display: block; font-weight: normal; font-size: 7.5pt; }
td.pair { text-align: left; }
tr { page-break-inside: avoid; }
thead { display: table-header-group; }
h2 { font-size: 13pt; margin: 6mm 0 2mm; }
td.blank { height: 9mm; }
@media print {
  body { max-width: none; }
  a { color: inherit; text-decoration: none; }
}
"""


def _page(title_key: str, t: Tournament, meta: str, body: str) -> str:
    zh, en = WORDS[title_key]
    return (f'<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{html.escape(t.name)} · {zh} / {en}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
            f"<h1>{html.escape(t.name)} · {zh}<small>{en}</small></h1>\n"
            f'<p class="meta">{meta}</p>\n{body}</body>\n</html>\n')


def _th(key: str) -> str:
    zh, en = WORDS[key]
    return f"<th>{zh}<small>{en}</small></th>"


def _pair_cell(t: Tournament, pair_id: str) -> str:
    p = t.pair(pair_id)
    players = f"<br><small>{html.escape(' / '.join(p.players))}</small>" if p.players else ""
    return f'<td class="pair">{html.escape(p.id)} {html.escape(p.name)}{players}</td>'


def _meta(t: Tournament, extra: str = "") -> str:
    title = t.profile.profile
    fmt = both(t.format)
    return " · ".join(filter(None, [html.escape(fmt), html.escape(f"{title.title_zh} / {title.title_en}"), extra]))


def sheet_html(t: Tournament, round_no: int) -> str:
    """积分记录表: one round's draw with boxes to fill in at the tables — both final levels,
    the match points and the profile's other scored column (小分 or 级差分), signatures."""
    scored = ["points"] + [c for c in t.profile.tiebreak.chain if c in ("small_points", "level_points")][:1]
    blanks = 2 + len(scored) + 1
    award = t.profile.match.bye
    bye_text = both("bye_points", points=award.points)
    rows = []
    for tb in t.draws[round_no]:
        if tb.is_bye:
            rows.append(f"<tr><td>{both('bye')}</td>{_pair_cell(t, tb.ns)}"
                        f'<td colspan="{blanks + 1}">{html.escape(bye_text)}</td></tr>')
        else:
            rows.append(f"<tr><td>{tb.table}</td>{_pair_cell(t, tb.ns)}{_pair_cell(t, tb.ew)}"
                        + '<td class="blank"></td>' * blanks + "</tr>")
    head = "".join(_th(k) for k in ("table", "ns", "ew", "ns_level", "ew_level", *scored, "signature"))
    body = f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>\n"
    return _page("sheet", t, _meta(t, both("round", n=round_no)), body)


def standings_html(t: Tournament) -> str:
    cols = [c for c in columns(t) if c != "group"]
    rows = standing_rows(t)
    body = []
    for g in sorted({r.get("group") for r in rows}, key=lambda g: g or 0):
        if g is not None:
            body.append(f"<h2>{both('group', n=g)}</h2>")
        lines = []
        for r in (r for r in rows if r.get("group") == g):
            cells = "".join(_pair_cell(t, r["pair"]) if c == "pair" else f"<td>{html.escape(str(r[c]))}</td>"
                            for c in cols if c != "name")
            lines.append(f"<tr>{cells}</tr>")
        head = "".join(_th(c) for c in cols if c != "name")
        body.append(f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(lines) + "\n</tbody>\n</table>\n")
    done = both("after_round", n=t.drawn) if t.drawn else ""
    return _page("standings_title", t, _meta(t, done), "\n".join(body))
