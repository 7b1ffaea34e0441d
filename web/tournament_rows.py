"""The tournament page's long tables — the standings, the round's draw, each pair's history —
made row by row in Python rather than in Jinja.

At a hall's size (4,096 pairs, 2,048 tables) these are ten thousand rows and megabytes,
made again for every change the live page is pushed (``web.tournament.Watch.pushed``); in
Jinja each cell is a lookup, a macro call and an escape, too slow a render for the thread
that pushes the standings too (issue 44). Here a row is one f-string of escaped values, a
number is not escaped, and a pair's cell (shown three times a pair) is made once a render:
the same markup, made in a fraction of the time (``docs/benchmarks.md``, "A tournament
round on the hall"). The template keeps the page's frame.
"""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup, escape

from engine.tournament import Pair
from rulebook.i18n import level_name

Words = dict[str, Markup]  # the page's words, escaped once a render (``escaped``)


def escaped(terms: dict[str, str]) -> Words:
    """The page's words escaped, once a render rather than once a cell."""
    return {key: escape(word) for key, word in terms.items()}


def level(value: str | None) -> str:
    """A level as people say it (``level_name``), nothing where there is none."""
    return level_name(value or "")


def pair_cells(data: dict, terms: Words) -> dict[str, str]:
    """Each pair's id and name, with a mark where it withdrew: made once a render, and used
    three times a pair (the standings, the draw, the history)."""
    names, withdrawn = data["names"], data["withdrawn"]
    mark = f' <span class="tag t-withdrawn">{terms["t.withdrew"]}</span>'
    return {pair: f'<span class="t-pair" data-pair="{escape(pair)}">{escape(pair)} {escape(name)}</span>'
                  f'{mark if withdrawn.get(pair) else ""}' for pair, name in names.items()}


def text(value: object) -> str:
    """A value as Jinja shows it, escaped (a number needs no escaping: most cells are numbers)."""
    return str(value) if type(value) in (int, float) else escape(value)


def standings_rows(data: dict, cells: dict[str, str]) -> Markup:
    """The standings' rows, the profile's columns in tie-break order (the name is in the pair's cell)."""
    columns = [c for c in data["standings"]["columns"] if c != "name"]

    def cell(row: dict, c: str) -> str:
        if c == "pair":
            return f'<td class="c-pair">{cells[row["pair"]]}</td>'
        return f'<td class="c-{c}">{text(row.get(c, ""))}</td>'
    return Markup("".join(f'<tr>{"".join(cell(row, c) for c in columns)}</tr>\n'
                          for row in data["standings"]["rows"]))


def result_text(line: dict, terms: Words) -> str:
    """A table's result as the draw shows it: the levels (or the forfeit), then the points."""
    r = line["result"]
    if not r:
        return ""
    ns, ew = line["ns"], line["ew"]
    head = (f'{terms["forfeit"]} · ' if r["reason"] == "forfeit" else
            f'{escape(level(r["levels"].get(ns)))} : {escape(level(r["levels"].get(ew)))} · ')
    return f'{head}{terms["col.points"]} {text(r["scores"][ns]["points"])} : ' \
           f'{text(r["scores"][ew]["points"])}'


def draw_row(line: dict, round_no: int, terms: Words, cells: dict[str, str], referee: bool,
             link: Callable[[str], str]) -> str:
    """One line of the round's draw: the table (linked to its page where the hall has it),
    the pairs, the state, the result, and a referee's confirm button (disabled until the
    page's script has bound it: a press before then would do nothing and say nothing)."""
    state = line["state"]
    head = f'<tr class="state-{escape(state)}" data-table="{text(line["table"])}">\n'
    if "bye" in line:
        return (f'{head}<td>{terms["col.bye"]}</td><td>{cells[line["bye"]]}</td>'
                f'<td></td><td><span class="t-state">{terms["state.bye"]}</span></td><td></td>'
                f'{"<td></td>" if referee else ""}\n</tr>\n')
    table = text(line["table"])
    number = f'<a href="{escape(link(line["live"]))}">{table}</a>' if line["live"] else table
    button = ""
    if referee:
        confirm = (f'<button class="t-confirm" disabled data-table="{table}" data-round="{text(round_no)}" '
                   f'data-entry="{text(line["result"]["entry"])}">{terms["t.confirm"]}</button>'
                   if state == "provisional" else "")
        button = f"<td>{confirm}</td>"
    return (f'{head}<td>{number}</td>\n<td>{cells[line["ns"]]}</td><td>{cells[line["ew"]]}</td>\n'
            f'<td><span class="t-state">{terms["state." + state]}</span></td>\n'
            f'<td class="t-result">{result_text(line, terms)}</td>\n{button}\n</tr>\n')


def draw_rows(data: dict, terms: Words, cells: dict[str, str], referee: bool, link: Callable[[str], str]) -> Markup:
    """The round's draw, a row a table."""
    round_no = data["draw"]["round"]
    return Markup("".join(draw_row(line, round_no, terms, cells, referee, link) for line in data["draw"]["tables"]))


def history_cell(h: dict, terms: Words) -> str:
    """One round of a pair's history: the opponent and table (or the bye), what it scored, the state."""
    if h["opponent"]:
        where = f' · {terms["col.table"]} {text(h["table"])}' if h["table"] else ""
        met = f'{terms["t.opponent"]} {escape(h["opponent"])}{where}'
    else:
        met = terms["col.bye"]
    score = ""
    if h["score"]:
        levels = h["levels"]
        shown = (terms["forfeit"] if h["reason"] == "forfeit" else
                 f"{escape(level(levels[0]))} : {escape(level(levels[1]))}" if levels and levels[0] else "")
        score = f'<br>{shown} · {terms["col.points"]} {text(h["score"]["points"])}'
    return (f'<td class="state-{escape(h["state"])}">{met}\n{score}\n'
            f'<span class="t-state">{terms["state." + h["state"]]}</span></td>')


def history_rows(pairs: list[Pair], histories: dict[str, list[dict]], terms: Words, cells: dict[str, str]) -> Markup:
    """Each pair's rounds, a row a pair."""
    return Markup("".join(f'<tr><td class="c-pair">{cells[p.id]}</td>\n'
                          f'{"".join(history_cell(h, terms) for h in histories[p.id])}\n</tr>\n' for p in pairs))
