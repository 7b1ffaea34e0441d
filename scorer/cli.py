"""The ``guandan`` command. Each sub-command is small; the work lives in the packages.

User mistakes (a missing file, a broken record, an unknown profile) end with a one-line
message and exit status 2, never a traceback: a ``Refusal``, worded by the rule books in
both languages, ``--lang``'s first (Chinese first where a command has no ``--lang``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import signal
import sys
import threading
from pathlib import Path

from engine.bots import self_play
from engine.events import RecordError
from engine.profile import ProfileError
from engine.record import dumps, parse_lines, replay
from rulebook import profiles
from rulebook.commentary import chapter_lines
from rulebook.i18n import LANGS
from rulebook.narration import account
from rulebook.tournament_live import Refusal, refusal
from scorer import tournament_cli
from scorer.camera_check_cli import add_parser as add_camera_check_parser
from scorer.clock_cli import run_clock
from scorer.demo import run_camera_demo, serve_record_demo
from scorer.hall_cli import add_parsers as add_hall_parsers
from scorer.rules_service import serve
from scorer.serve_cli import add_parsers as add_serve_parsers
from scorer.serve_cli import tcp_port
from scorer.table_cli import add_parsers as add_table_parsers
from vision.cli import add_parsers as add_vision_parsers
from vision.cli.detect import DECK_HELP
from vision.cli.extras import training_missing
from vision.errors import DatasetError
from vision.synth.cli import add_parser as add_dataset_parser

DEMO_RECORD = Path(__file__).parent / "data" / "demo-match.jsonl"


class UserError(Refusal):
    """Something the user of ``guandan``'s own commands can fix (options that do not go
    together, a file that cannot be written): named by a code, worded in both languages."""


def _read_record(path: str):
    """The match a record file replays to; why not, in the rule books' words (``--lang``)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise Refusal("no_file", path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise Refusal("record_unreadable", path=path, why=exc) from None
    try:
        record = parse_lines(text.splitlines())
        return replay(record, profiles.load)
    except RecordError as exc:
        raise Refusal("record_file_broken", path=path, why=exc) from None


def cmd_replay(args: argparse.Namespace) -> None:
    match = _read_record(args.file)
    if args.json:
        out = {"result": match.result.to_json() if match.result else None,
               "levels": match.levels, "hands": len(match.hands),
               "violations": [v.to_json() for v in match.violations]}
        print(json.dumps(out, ensure_ascii=False))
        return
    for line in account(match, args.lang):
        print(line)


def cmd_highlights(args: argparse.Namespace) -> None:
    """The chapter list of a video of the match (docs/broadcast.md): a line per chapter,
    ``MM:SS title``, from 00:00, as Bilibili and YouTube read a video's description."""
    text = "".join(line + "\n" for line in chapter_lines(_read_record(args.record), args.lang, args.start))
    if args.out is None:
        sys.stdout.write(text)
        return
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError("file_unwritable", path=args.out, why=exc.strerror or exc) from None
    print(f"{args.out}: {text.count(chr(10))} chapters", file=sys.stderr)


def cmd_demo(args: argparse.Namespace) -> None:
    if not args.from_record:
        if not args.serve:
            raise UserError("no_serve_alone")
        args.speed = args.speed or 1.0
        run_camera_demo(args)
        return
    print(f"# {DEMO_RECORD.name}: a bundled match record replayed through the rules engine\n")
    match = _read_record(str(DEMO_RECORD))
    for line in account(match, args.lang):
        print(line)
    if args.serve:
        args.speed = args.speed or 4.0
        serve_record_demo(args, DEMO_RECORD)


def cmd_rules(args: argparse.Namespace) -> None:
    serve(sys.stdin, sys.stdout)


def cmd_selfplay(args: argparse.Namespace) -> None:
    profile = profiles.load(args.profile)
    events = self_play(profile, random.Random(args.seed), max_hands=args.hands,
                       forget_report=args.forget_report, table=args.table)
    text = dumps(events)
    if args.out == "-":
        sys.stdout.write(text)
        return
    out = Path(args.out)
    tmp = out.with_suffix(out.suffix + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(out)  # whole or not at all
    except OSError as exc:
        raise UserError("file_unwritable", path=out, why=exc.strerror or exc) from None
    print(f"{out}: {len(events)} events", file=sys.stderr)


def cmd_clock(args: argparse.Namespace) -> None:
    run_clock(args)  # its ClockUsageError is a Refusal, worded as every other


def cmd_profiles(args: argparse.Namespace) -> None:
    if args.name is None:
        for name in profiles.names():
            p = profiles.load(name)
            print(f"{name:14} {p.profile.title_zh} / {p.profile.title_en}")
        return
    print(json.dumps(dataclasses.asdict(profiles.load(args.name)), ensure_ascii=False, indent=2))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="guandan",
        description="Guandan (掼蛋) table scorer: rules engine, game records and tools.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("replay", help="print a game record hand by hand (进贡, plays, 名次, 升级)",
                       description="Replay a game record (JSON Lines, docs/record-format.md) through "
                                   "the rules engine and print a readable account.")
    p.add_argument("file", help="the record (.jsonl)")
    p.add_argument("--lang", choices=LANGS, default="zh", help="language of the account (default zh)")
    p.add_argument("--json", action="store_true", help="print the result and violations as JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("highlights", help="a video's chapter list from a record: MM:SS title a line (精彩瞬间)",
                       description="Write the chapters of a video of the match, as Bilibili and YouTube take them "
                                   "in a video's description: a line per chapter, MM:SS title (H:MM:SS past an "
                                   "hour), the first at 00:00 — each hand, each highlight (bombs, 天王炸, 同花顺, "
                                   "接风, 双下, 抗贡, 过A), time called and the result, from the record's times; "
                                   "moments less than 10 s apart share a chapter (docs/broadcast.md).")
    p.add_argument("record", help="the record (.jsonl)")
    p.add_argument("--lang", choices=LANGS, default="zh", help="language of the titles (default zh)")
    p.add_argument("--out", metavar="FILE", help="write the chapters here (default: standard output)")
    p.add_argument("--start", type=float, default=0.0, metavar="SECONDS",
                   help="the record's time at the video's 00:00 (default 0: the video starts with the record)")
    p.set_defaults(func=cmd_highlights)

    p = sub.add_parser("demo", help="the demo table: a bundled recording read live by the camera pipeline",
                       description="Play the bundled table recording as if it were the camera, in real time, "
                                   "through the whole pipeline (calibration, card detector, tracker, rules engine) "
                                   "with the table clock emulated on a pseudo-terminal and the players' presses "
                                   "scripted; events go to a fresh store (var/demo.db in a checkout, else demo.db in "
                                   "the user's data folder, ~/.local/share/guandan-scorer) shown by the dashboard on "
                                   "localhost until Ctrl-C. --from-record replays the bundled match record instead "
                                   "(no camera): its account, then played back live.")
    p.add_argument("--lang", choices=LANGS, default="zh", help="language (default zh)")
    p.add_argument("--from-record", action="store_true", help="the bundled match record instead of the recording")
    p.add_argument("--deck", metavar="DIR", help=DECK_HELP)
    p.add_argument("--no-serve", dest="serve", action="store_false",
                   help="with --from-record: only print the account")
    p.add_argument("--port", type=tcp_port, default=8000, help="dashboard port (default 8000)")
    p.add_argument("--speed", type=_more_than_zero(float),
                   help="times real time (default 1 for the recording, 4 for the record)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("rules", help="JSON-lines rules service on stdin/stdout",
                       description="Answer one JSON request per line: ops classify, beats, legal, "
                                   "tribute (see docs/rules-service.md). Bad requests get "
                                   '{"ok": false, "error": ...} and the service goes on.')
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("selfplay", help="write the record of a match played by simple bots",
                       description="Four simple bots play a match; its record is written as JSON Lines.")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--profile", default=profiles.DEFAULT, help="rule profile name or .toml file")
    p.add_argument("--hands", type=_more_than_zero(int), default=12, help="time is called after this many hands")
    p.add_argument("--forget-report", type=_chance, default=0.0, metavar="P",
                   help="chance a bot forgets to report its card count (报牌), to show violations")
    p.add_argument("--table", default="demo", help="table name in the header")
    p.add_argument("--out", default="-", help="output file (default: standard output)")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser("clock", help="the table clock alone: a Guandan chess clock (读秒)",
                       description="Run the table clock without cameras: seats act E → N → W → S, a button "
                                   "press ends the turn and starts the next seat's countdown (the profile's "
                                   "time table), overruns are printed. --port emulator emulates the box in "
                                   "this terminal: keys e s w n press seat buttons, r the referee button "
                                   "(pause/resume), q quits.")
    p.add_argument("--port", help="serial port of the clock box, a pyserial URL, or 'emulator'")
    p.add_argument("--usb", metavar="VID:PID[:SERIAL]", help="find the box by USB ids (hex), e.g. 1a86:7523")
    p.add_argument("--profile", default=profiles.DEFAULT, help="rule profile: time table and escalation")
    p.add_argument("--minutes", type=int, help="match time (default: the profile's)")
    p.add_argument("--first", choices=list("ESWN"), default="E", help="seat that leads first (default E)")
    p.add_argument("--lang", choices=LANGS, default="zh", help="language (default zh)")
    p.set_defaults(func=cmd_clock)

    add_serve_parsers(sub)
    add_vision_parsers(sub)
    add_table_parsers(sub)
    add_camera_check_parser(sub)
    add_dataset_parser(sub)
    add_hall_parsers(sub)

    p = sub.add_parser("profiles", help="list the rule profiles, or show one",
                       description="List the bundled rule profiles, or print one as JSON.")
    p.add_argument("name", nargs="?", help="a profile name or .toml file")
    p.set_defaults(func=cmd_profiles)

    tournament_cli.add_parser(sub)
    return parser


def _more_than_zero(kind: type):
    """An argparse type: a number of ``kind`` above zero (a speed, a number of hands), so a
    mistyped one is refused with the option's name instead of running backwards or not at all
    (in both languages, Chinese first: it is read before ``--lang``)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(refusal("not_a_number", "zh", text=text)) from None
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(refusal("more_than_zero", "zh", text=text))
        return value

    parse.__name__ = kind.__name__
    return parse


def _chance(text: str) -> float:
    """An argparse type: a chance, from 0 to 1 (refused in both languages: it is read before
    ``--lang``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(refusal("not_a_number", "zh", text=text)) from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(refusal("chance_range", "zh", text=text))
    return value


def _stop_on_terminate(signum: int, frame: object) -> None:
    """SIGTERM (a service manager stopping us, ``kill``) ends the program as an exit does:
    ``finally`` blocks and exit handlers run, so a table's emulated clock and its serial
    pair go with it instead of outliving the process."""
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    lang = getattr(args, "lang", "zh")  # a command without --lang: Chinese first
    on_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _stop_on_terminate) if on_main_thread else None
    try:
        args.func(args)
    except ProfileError as exc:  # an unknown --profile, a record's, a bad TOML file: the organiser's words
        print(f"guandan: {refusal(exc.code, lang, **exc.values)}", file=sys.stderr)
        return 2
    except Refusal as exc:  # the server's, the hall's, a record's, the camera's, the clock's, guandan's own
        print(f"guandan: {exc.text(lang)}", file=sys.stderr)
        return 2
    except DatasetError as exc:  # guandan dataset build's (vision.errors): English only, as yet
        print(f"guandan: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # torch, ultralytics … on a base install (vision.cli.extras)
        missing = training_missing(exc, args.command)
        if missing is None:
            raise
        print(f"guandan: {missing.text(lang)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a file or folder the user named that cannot be read or written
        if exc.filename is None:
            raise
        print(f"guandan: {refusal('file_failed', lang, path=exc.filename, why=exc.strerror or exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # commands that stop cleanly on Ctrl-C catch it themselves
        print(f"guandan: {refusal('stopped', lang)}", file=sys.stderr)
        return 130
    finally:
        if on_main_thread:  # a caller's own handler (main() called in-process) comes back
            signal.signal(signal.SIGTERM, previous)
    return 0


if __name__ == "__main__":
    sys.exit(main())
