"""``guandan tournament …``: create a tournament, draw its rounds, enter and confirm results,
withdraw a pair, print standings and score sheets. The rules live in ``engine.tournament``,
the checks shared with the web in ``store.tournament_desk``, the file in
``store.tournament_store``, the wording in ``rulebook.tournament_report`` and
``rulebook.tournament_live`` (a desk's refusal is one line in both languages).

Every action takes ``--db FILE|URL`` (default ``guandan.db``; a ``postgresql://`` URL for
a server), ``--json`` and ``--lang``.
A refusal (unknown pair, table not in the draw, round drawn twice, results missing, a
bad pairs file, no such file, an unknown profile, a database that holds another tournament)
is one line on stderr and exit status 2, in both languages (``--lang`` first:
``rulebook.tournament_live``). Those are caught
here rather than in ``scorer.cli.main``: under ``python -m scorer.cli`` that module
runs as ``__main__``, so an exception class imported from ``scorer.cli`` would not be
the one its ``main`` catches.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import secrets
import sys
from collections.abc import Callable
from pathlib import Path

from engine.profile import ProfileError
from engine.tournament import FORMATS, SEEDINGS, Pair, Tournament, TournamentError, arrange, planned_rounds
from rulebook import profiles
from rulebook.i18n import LANGS
from rulebook.tournament_live import page_word, refusal
from rulebook.tournament_report import (
    draw_lines,
    result_line,
    sheet_html,
    standing_rows,
    standings_html,
    standings_lines,
    word,
    write_csv,
)
from store import tournament_desk as desk
from store.db import DATABASE_ERRORS, display
from store.tournament_store import StoreError, TournamentStore

DEFAULT_DB = "guandan.db"
_PLAYER_SEPARATORS = re.compile(r"[/、;；]")


class PairsFileError(Exception):
    """A pairs CSV that cannot make a tournament: ``code`` and ``values`` of its words
    (``rulebook.tournament_live.REFUSALS``)."""

    def __init__(self, code: str, **values: object) -> None:
        super().__init__(code, values)
        self.code = code
        self.values = values


def read_pairs(path: str) -> list[Pair]:
    """Pairs from a CSV whose header names ``id`` and ``name``; players come from a
    ``players`` column (names split on / 、 ;) or ``player1``, ``player2`` … columns.
    The order of the lines is the seeding order where the format uses one."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise PairsFileError("no_file", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PairsFileError("pairs_unreadable", path=path, why=exc) from None
    reader = csv.DictReader(text.splitlines())
    header = [h.strip() for h in reader.fieldnames or []]
    if "id" not in header or "name" not in header:
        raise PairsFileError("pairs_header", path=path)
    reader.fieldnames = header
    pairs: list[Pair] = []
    seen: set[str] = set()
    for row in reader:
        line = reader.line_num
        pair_id = (row.get("id") or "").strip()
        if not pair_id:
            raise PairsFileError("pair_without_id", path=path, line=line)
        if pair_id in seen:
            raise PairsFileError("pair_twice", path=path, line=line, pair=pair_id)
        seen.add(pair_id)
        players = [name.strip() for col in header if col.startswith("player")
                   for name in _PLAYER_SEPARATORS.split(row.get(col) or "") if name.strip()]
        pairs.append(Pair(pair_id, (row.get("name") or "").strip() or pair_id, tuple(players)))
    return pairs


def _print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False))


def _tournament(store: TournamentStore) -> Tournament:
    return store.load(profiles.load)


# --- actions -------------------------------------------------------------------------------

def cmd_new(args: argparse.Namespace) -> None:
    pairs = read_pairs(args.pairs)
    profile = profiles.load(args.profile)
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    seeding = args.seeding or ("order" if args.format == "knockout" else "lot")
    arranged = arrange(pairs, args.format, args.groups, seeding, seed)
    t = Tournament(args.name, args.format, planned_rounds(args.format, arranged, args.rounds), profile, seed, arranged)
    with TournamentStore.open(args.db, create=True) as store:
        store.save_tournament(t, args.profile)
    if args.json:
        groups = sorted({p.group for p in arranged if p.group is not None})
        out = {"name": t.name, "format": t.format, "rounds": t.rounds, "profile": profile.name,
               "seed": seed, "pairs": [p.id for p in arranged]}
        if groups:
            out["groups"] = [[p.id for p in arranged if p.group == g] for g in groups]
        _print_json(out)
        return
    print(word("created", args.lang, name=t.name, format=word(t.format, args.lang), pairs=len(pairs),
               rounds=t.rounds, profile=profile.name, seed=seed))


def cmd_draw(args: argparse.Namespace) -> None:
    with TournamentStore.open(args.db) as store:
        round_no, tables, forfeits = desk.draw_next(store, args.round, args.by)
        t = desk.load(store)
    if args.json:
        _print_json([tb.to_json() for tb in tables])
        return
    for line in draw_lines(t, round_no, tables, args.lang):
        print(line)
    for f in forfeits:
        loser = next(p for p in (f.table.ns, f.table.ew) if p != f.outcome.winner)
        print(page_word("forfeit_entered", args.lang, round=round_no, table=f.table.table, pair=loser))


def cmd_result(args: argparse.Namespace) -> None:
    chosen = [flag for flag, value in (("--levels", args.levels), ("--forfeit", args.forfeit),
                                        ("--record", args.record)) if value is not None]
    if len(chosen) != 1:
        raise TournamentError("result_kinds")
    if args.winner is not None and args.levels is None:
        raise TournamentError("winner_with_levels")
    if args.levels is not None and len(args.pairs) != 2:
        raise TournamentError("levels_need_pairs")
    if len(args.pairs) not in (0, 2):
        raise TournamentError("both_pairs")
    text = _read_record(args.record) if args.record is not None else None
    with TournamentStore.open(args.db) as store:
        if args.levels is not None:
            entered = desk.enter_levels(store, args.round, args.table, *args.pairs, *args.levels, args.winner,
                                        args.by)
        elif args.forfeit is not None:
            entered = desk.enter_forfeit(store, args.round, args.table, args.forfeit, args.pairs, args.by)
        else:
            entered = desk.enter_record(store, args.round, args.table, text, args.record, args.by)
        t = desk.load(store)
    if args.json:
        _print_json(entered.to_json() | {"entered_by": args.by})
        return
    line = result_line(t, entered.round, entered.table, entered.outcome, entered.correction, args.lang)
    if entered.provisional:
        line += page_word("provisional_note", args.lang)
    if entered.repeated:
        line += page_word("repeated_note", args.lang)
    print(line)


def cmd_confirm(args: argparse.Namespace) -> None:
    with TournamentStore.open(args.db) as store:
        entry = desk.confirm(store, args.round, args.table, args.by)
    if args.json:
        _print_json({"round": entry.round, "table": entry.table, "entry": entry.id, "state": entry.state,
                     "confirmed_by": entry.confirmed_by})
        return
    print(page_word("confirmed", args.lang, round=entry.round, table=entry.table))


def cmd_withdraw(args: argparse.Namespace) -> None:
    with TournamentStore.open(args.db) as store:
        round_no, forfeits = desk.withdraw(store, args.pair, args.by)
    if args.json:
        _print_json({"pair": args.pair, "round": round_no, "forfeits": [f.to_json() for f in forfeits]})
        return
    print(page_word("withdrawal", args.lang, pair=args.pair, round=round_no))
    for f in forfeits:
        print(page_word("forfeit_entered", args.lang, round=f.round, table=f.table.table, pair=args.pair))


def _read_record(path: str) -> str:
    """A table's game record as text (checked by the desk when it is entered)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TournamentError("no_file", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TournamentError("record_unreadable", path=path, why=exc) from None


def cmd_standings(args: argparse.Namespace) -> None:
    with TournamentStore.open(args.db) as store:
        t = _tournament(store)
    if args.csv:
        write_csv(t, Path(args.csv))
    if args.html:
        Path(args.html).write_text(standings_html(t), encoding="utf-8")
    if args.json:
        _print_json(standing_rows(t))
        return
    for line in standings_lines(t, args.lang):
        print(line)


def cmd_sheet(args: argparse.Namespace) -> None:
    with TournamentStore.open(args.db) as store:
        t = _tournament(store)
    round_no = t.drawn_round(args.round)
    Path(args.html).write_text(sheet_html(t, round_no), encoding="utf-8")
    if args.json:
        _print_json([tb.to_json() for tb in t.draws[round_no]])
        return
    for line in draw_lines(t, round_no, t.draws[round_no], args.lang):
        print(line)


# --- the parser ----------------------------------------------------------------------------

def _refusals_exit_2(handler: Callable[[argparse.Namespace], None]) -> Callable[[argparse.Namespace], None]:
    """Run an action; a refusal becomes one line on stderr and exit status 2."""
    def run(args: argparse.Namespace) -> None:
        try:
            handler(args)
            return
        except BrokenPipeError:
            raise  # output piped into `head`: scorer.cli's main ends quietly
        except StoreError as exc:  # the desk's refusals (desk.Refused) among them
            message = exc.text(args.lang)
        except (TournamentError, PairsFileError, ProfileError) as exc:
            message = refusal(exc.code, args.lang, **exc.values)
        except DATABASE_ERRORS as exc:
            message = f"{display(args.db)}: {' '.join(str(exc).split())}"
        except OSError as exc:  # an output file that cannot be written
            message = f"{exc.filename}: {exc.strerror}"
        print(f"guandan: {message}", file=sys.stderr)
        raise SystemExit(2)
    return run


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``guandan tournament`` and its actions."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=DEFAULT_DB, metavar="FILE|URL",
                        help=f"the tournament: a SQLite file (default {DEFAULT_DB}) or a PostgreSQL database, "
                             "postgresql://USER[:PASSWORD]@HOST:PORT/DB (docs/storage.md)")
    common.add_argument("--json", action="store_true", help="print JSON instead of a table")
    common.add_argument("--lang", choices=LANGS, default="zh", help="language of the tables (default zh)")

    top = subparsers.add_parser(
        "tournament", help="run a tournament: pairs, draws, results, standings (名次)",
        description="Run a Guandan tournament from one SQLite file or PostgreSQL database: Swiss-style "
                    "draws (积分编排), group round robins (分组循环) or knockouts (淘汰赛), results typed as "
                    "final levels or taken from a table's record, standings by the rule profile's tie-break "
                    "chain.")
    actions = top.add_subparsers(dest="action", required=True, metavar="ACTION")

    p = actions.add_parser("new", parents=[common], help="create a tournament from a pairs CSV",
                           description="Create a tournament file. The pairs CSV has a header with id,name "
                                       "(optional players column: names split by / 、 ;); its order is the "
                                       "seeding order.")
    p.add_argument("name", help="the tournament's name")
    p.add_argument("--pairs", required=True, metavar="PAIRS.csv", help="the pairs (id,name[,players])")
    p.add_argument("--format", required=True, choices=FORMATS, help="swiss, roundrobin or knockout")
    p.add_argument("--rounds", type=int, metavar="N",
                   help="rounds to play (Swiss: required; round robin and knockout: as the schedule needs)")
    p.add_argument("--profile", default=profiles.DEFAULT, help="rule profile name or .toml file")
    p.add_argument("--groups", type=int, default=1, metavar="N", help="round robin: number of groups (default 1)")
    p.add_argument("--seeding", choices=SEEDINGS,
                   help="lot: draw groups / bracket by lot; order: the CSV order is the seeding (snake "
                        "groups, 1 v N bracket). Default: lot for a round robin, order for a knockout")
    p.add_argument("--seed", type=int, help="seed of every draw by lot (default: drawn now and stored)")
    p.set_defaults(func=_refusals_exit_2(cmd_new))

    p = actions.add_parser("draw", parents=[common], help="draw the next round",
                           description="Draw the next round, once every result of the previous one is in and "
                                       "final (a result read from a record is confirmed first). A withdrawn "
                                       "pair's tables in it are entered as its forfeits.")
    p.add_argument("--round", type=int, metavar="N", help="the round to draw (must be the next one)")
    p.add_argument("--by", default="cli", metavar="NAME", help="who draws (for a withdrawn pair's forfeits)")
    p.set_defaults(func=_refusals_exit_2(cmd_draw))

    p = actions.add_parser(
        "result", parents=[common], help="enter or correct a table's result",
        description="Enter a table's result: the two pairs' final levels (A+ or pass: passed A), a forfeit "
                    "(弃权), or a table's game record. Typed levels and forfeits are final; a result read from a "
                    "record is provisional (待确认) until confirmed (`guandan tournament confirm`), the record kept "
                    "as its evidence. Entering levels or a forfeit again corrects it; the earlier entry is kept.")
    p.add_argument("table", type=int, help="table number in the round's draw")
    p.add_argument("pairs", nargs="*", metavar="PAIR", help="the table's two pairs, A then B")
    p.add_argument("--levels", nargs=2, metavar=("LA", "LB"), help="final levels of A and B, e.g. J 5, A+ K")
    p.add_argument("--forfeit", metavar="SIDE_OR_PAIR", help="the pair (or side NS/EW) that forfeits")
    p.add_argument("--record", metavar="FILE", help="the table's game record (.jsonl); its result counts")
    p.add_argument("--winner", metavar="PAIR", help="equal levels: the pair that won the extra hand (加打一副牌)")
    p.add_argument("--round", type=int, metavar="N", help="the round (default: the latest drawn)")
    p.add_argument("--by", default="cli", metavar="NAME", help="who enters the result (default cli)")
    p.set_defaults(func=_refusals_exit_2(cmd_result))

    p = actions.add_parser("confirm", parents=[common], help="confirm a table's provisional result",
                           description="Make a table's provisional result (read from its record) final.")
    p.add_argument("table", type=int, help="table number in the round's draw")
    p.add_argument("--round", type=int, metavar="N", help="the round (default: the latest drawn)")
    p.add_argument("--by", default="cli", metavar="NAME", help="the referee who confirms (default cli)")
    p.set_defaults(func=_refusals_exit_2(cmd_confirm))

    p = actions.add_parser("withdraw", parents=[common], help="a pair withdraws (退赛) mid-event",
                           description="A pair leaves the event: its table in the latest round drawn, if it has "
                                       "no result, and every table it is drawn at later count as its forfeit (弃权).")
    p.add_argument("pair", help="the pair's id")
    p.add_argument("--by", default="cli", metavar="NAME", help="who enters the withdrawal (default cli)")
    p.set_defaults(func=_refusals_exit_2(cmd_withdraw))

    p = actions.add_parser("standings", parents=[common], help="the standings (名次)",
                           description="Print the standings, ranked by the profile's tie-break chain.")
    p.add_argument("--csv", metavar="FILE", help="also write them as CSV (UTF-8 with BOM)")
    p.add_argument("--html", metavar="FILE", help="also write a print-ready A4 page")
    p.set_defaults(func=_refusals_exit_2(cmd_standings))

    p = actions.add_parser("sheet", parents=[common], help="a round's score sheet (积分记录表) as HTML",
                           description="Write a round's draw as a print-ready A4 score sheet (积分记录表).")
    p.add_argument("--round", type=int, required=True, metavar="N", help="the round")
    p.add_argument("--html", required=True, metavar="FILE", help="the HTML file to write")
    p.set_defaults(func=_refusals_exit_2(cmd_sheet))
