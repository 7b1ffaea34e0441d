"""``guandan scan`` and ``guandan run``: the camera pipeline from a video file, or live.

``scan`` reads a video as fast as the machine allows and writes the game record line by
line (flushed, so a crash keeps everything committed so far). ``run`` is a live table: a
camera (device, file or stream URL), the table runtime, the event store the web pages
follow, and optionally the table clock whose button presses commit plays.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from argparse import Namespace
from pathlib import Path

from engine.cards import InvalidCard, parse_level
from engine.record import violation_line
from hall import topics
from hall.acts import TableActs
from hall.broker import check_reachable, parse_broker
from hall.node import Node
from hall.outbox import Outbox
from hall.relay import Relay
from hall.table_seating import TableSeating
from rulebook import profiles
from rulebook.alerts import Alert
from rulebook.i18n import LANGS, alert_text, say
from rulebook.tournament_live import refusal
from scorer.live_table import build_table, table_detector
from scorer.serve_cli import DB_HELP, open_store, tcp_port
from scorer.stop_signals import stop_signals
from vision.cli import VisionError
from vision.cli.detect import DECK_HELP
from vision.enroll.deck import DeckError
from vision.live.camera import LiveCamera, VideoFile
from vision.live.detector import CardDetector, DetectorError
from vision.live.trace import ZoneTrace
from vision.progress import progress_bar


def _detector(args: Namespace) -> CardDetector:
    if args.deck and args.reader:
        raise VisionError("deck_with_reader")
    try:
        return table_detector(args.weights, args.reader, deck=args.deck)
    except DeckError as exc:
        raise VisionError(exc.code, **exc.values) from None
    except DetectorError as exc:
        raise VisionError("model_unusable", why=exc) from None


class ScanWriter:
    """Writes a scan's record line by line (flushed: a killed scan keeps what it read), each
    event followed by the violations the engine found on it.

    A correction (the camera reading the hand's plays again, ``table.recount``) can
    withdraw a violation already written, say a duplicate card that was an earlier play's
    misreading. Lines already written stay as they are until the scan ends; then, if any
    violation line no longer holds, ``rewrite`` writes the record again whole (to a new file
    that replaces it), with the violations as they stand."""

    def __init__(self, f) -> None:
        self.f = f
        self.runtime = None  # set once the runtime exists; the header comes before it
        self.written: set[str] = set()  # the violations written (their JSON)

    def append(self, event) -> bool:
        lines = [event.to_json()]
        if self.runtime is not None:
            for v in self.runtime.match.violations:
                key = _key(v)
                if key not in self.written:
                    self.written.add(key)
                    lines.append(violation_line(v, event.t))
        self.f.write(_jsonl(lines))
        self.f.flush()
        return True

    def others(self) -> list:
        return []  # a scan's record has no other writer

    def evidence(self, seq: int, draw) -> None:
        pass  # a scan keeps no frames

    def stale(self) -> bool:
        """Some violation written has since been withdrawn by a correction."""
        return bool(self.written - {_key(v) for v in self.runtime.match.violations})

    def rewrite(self, path: Path, events: list) -> None:
        """The whole record again: each event followed by the violations now found on it."""
        found: dict[int, list] = {}
        for v in self.runtime.match.violations:
            found.setdefault(v.seq, []).append(v)
        lines = []
        for event in events:
            lines += [event.to_json()] + [violation_line(v, event.t) for v in found.pop(event.seq, [])]
        lines += [violation_line(v, events[-1].t) for vs in found.values() for v in vs]
        fresh = path.with_name(path.name + ".part")
        fresh.write_text(_jsonl(lines), encoding="utf-8")
        os.replace(fresh, path)


def _jsonl(lines: list[dict]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def _key(violation) -> str:
    return json.dumps(violation.to_json(), sort_keys=True, ensure_ascii=False)


def cmd_scan(args: Namespace) -> None:
    try:
        video = VideoFile(args.video)
    except OSError:  # the only thing VideoFile refuses: OpenCV opens no video there
        raise VisionError("video_unreadable", path=args.video) from None
    out = Path(args.out)
    alerts: list[Alert] = []
    with out.open("w", encoding="utf-8") as f:
        writer = ScanWriter(f)
        runtime = build_table(_detector(args), profiles.load(args.profile), table=Path(args.video).stem, link=writer,
                              alert=alerts.append, level=args.level).runtime
        writer.runtime = runtime
        trace = _trace(args, runtime, args.video)
        try:
            with progress_bar(video.frames or None, "scan", unit="frame") as bar:
                while (frame := video.read()) is not None:
                    runtime.process(frame)
                    bar.update()
        finally:
            if trace is not None:
                trace.close()
    video.close()
    if writer.stale():
        writer.rewrite(out, runtime.events)
    for alert in dict.fromkeys(alerts):
        print(f"! {alert.text(args.lang)}", file=sys.stderr)
    plays = sum(1 for e in runtime.events if e.type == "play")
    n, found = len(runtime.events), len(runtime.match.violations)
    print(say(args.lang, f"{out}：{n}条记录，{plays}手出牌，{found}条违规提示",
               f"{out}: {n} events, {plays} plays, {found} alerts"))


#: what a recording's name ends with: such a --camera that is not there is a mistyped file,
#: not a camera that may yet come up (a /dev/video device or a stream is waited for)
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".m4v", ".webm")


def cmd_run(args: Namespace) -> None:
    if "://" not in args.camera and args.camera.lower().endswith(VIDEO_SUFFIXES) and not Path(args.camera).exists():
        raise VisionError("no_video", path=args.camera)
    store = open_store(args.db)
    table = args.table
    tell = lambda alert: print(f"! {alert.text(args.lang)}", file=sys.stderr, flush=True)  # noqa: E731
    live = build_table(_detector(args), profiles.load(args.profile), table=table, store=store, clock=args.clock,
                       alert=tell, level=args.level, resume=True)
    runtime = live.runtime
    if live.resumed:
        print(say(args.lang, f"# 第{table}桌：接着已存的{len(runtime.events)}条记录继续",
                   f"# table {table}: going on from its {len(runtime.events)} stored events"), file=sys.stderr)
    hall, seating = _hall_relay(args, store, table) if args.hall else (None, None)
    runtime.warm_up()
    trace = _trace(args, runtime, args.camera)
    recording = Path(args.camera).is_file()  # a video file stands in for the camera, in real time
    with stop_signals() as stop:  # Ctrl-C stops the table between frames, never half-way through one
        camera = LiveCamera(args.camera, paced=recording,
                            on_status=lambda up, why: print(f"# {alert_text(why, args.lang)}", file=sys.stderr)).start()
        try:
            live.start(args.port)
            if seating is not None and live.clock is not None:
                live.clock.standby = seating  # the seating and a result to confirm, between actions
            url = f"http://127.0.0.1:{args.port}/table/{table}"
            print(say(args.lang, f"# 第{table}桌实时记分：{url}", f"# live table {table}: {url}"), flush=True)
            while not camera.ended and not stop.is_set():
                frame = camera.latest(timeout=0.5)
                if frame is not None:
                    runtime.process(frame)
            if not stop.is_set():
                print(say(args.lang, "# 录像已结束；仪表板继续运行，Ctrl+C 退出",
                           "# the recording has ended; the dashboard stays up until Ctrl+C"), file=sys.stderr,
                      flush=True)
                stop.wait()
        finally:
            camera.stop()
            live.close()
            if trace is not None:
                trace.close()
            if hall is not None:
                hall.close()


def _trace(args: Namespace, runtime, source: str) -> ZoneTrace | None:
    """With ``--trace DIR``: the zones' trace (``vision.live.trace``), said where it goes."""
    if not args.trace:
        return None
    try:
        trace = runtime.seats.trace = ZoneTrace(Path(args.trace), source=source)
    except OSError as exc:
        raise VisionError("trace_unwritable", path=args.trace, why=exc.strerror or exc) from None
    print(say(args.lang, f"# 出牌区记录写入 {args.trace}（trace.zh.html）",
               f"# zone trace written to {args.trace} (trace.en.html)"), file=sys.stderr)
    return trace


def _hall_relay(args: Namespace, store, table: str) -> tuple[Relay, TableSeating]:
    """The table as a node of a hall (``hall.relay``), taking the referee acts made
    at the hall server's console into its store (``hall.acts``) and, at a tournament's
    table, its seating (``hall.table_seating``); checked before the camera starts, so a
    mistyped broker address stops the command at once."""
    broker = parse_broker(args.hall)
    check_reachable(broker)
    topics.check_name("table", table)
    seating = TableSeating(store, table)
    node = Node(broker, Outbox(args.outbox or f"outbox-{table}.db"), [table], hall=args.hall_name,
                acts=TableActs(store, table).take, seating=seating.take)
    seating.send = node.confirm
    node.start()
    relay = Relay(store, table, node).start()
    print(say(args.lang, f"# 第{table}桌记录同步到赛场服务器 {broker}（赛场 {args.hall_name}）",
               f"# table {table}'s record goes to the hall at {broker} (hall {args.hall_name})"), file=sys.stderr)
    return relay, seating


def _level(text: str) -> str:
    """An argparse type: a level, refused in both languages (it is read before ``--lang``)."""
    try:
        return parse_level(text)
    except InvalidCard as exc:
        raise argparse.ArgumentTypeError(refusal(exc.code, "zh", **exc.values)) from None


READER_HELP = ("index reader (default: the committed one in 8 bits, models/reader_int8.xml; models/reader.onnx reads "
               "in full precision, a little slower: models/README.md)")
TRACE_HELP = ("write a trace of each seat's play zone into DIR: its states over time (moving, cards read, empty, "
              "covered), what was read, why each play was recorded or not, with the zone's picture at each change "
              "(trace.zh.html, trace.en.html, trace.jsonl): how to find out why a camera misses plays")
LEVEL_HELP = "the level the first hand is played at, 2-10, J, Q, K, A (default 2): for a match filmed from midway"


def add_parsers(sub) -> None:
    p = sub.add_parser("scan", help="read a game video and write its record",
                       description="Read a video file as fast as the machine allows through the camera pipeline "
                                   "and write the game record (JSON Lines).")
    p.add_argument("video", help="the game video, as filmed from above (any file OpenCV reads: .mp4, .avi …)")
    p.add_argument("--out", required=True, help="record file to write (.jsonl)")
    p.add_argument("--profile", default=profiles.DEFAULT, help="rule profile")
    p.add_argument("--level", type=_level, default="2", help=LEVEL_HELP)
    p.add_argument("--weights", help="detector (default: the committed model)")
    p.add_argument("--reader", help=READER_HELP)
    p.add_argument("--deck", metavar="DIR", help=DECK_HELP)
    p.add_argument("--lang", choices=LANGS, default="zh", help="language of the alerts (default zh)")
    p.add_argument("--trace", metavar="DIR", help=TRACE_HELP)
    p.set_defaults(func=cmd_scan)

    p = sub.add_parser("run", help="a live table: camera, rules, clock and dashboard",
                       description="Run a live table: a camera (device index, video file or stream URL), the "
                                   "table runtime, the event store and its dashboard, and optionally the clock.")
    p.add_argument("--camera", required=True, help="camera index, video file or rtsp:// / http:// URL")
    p.add_argument("--clock", help="the clock's serial port, or 'emulator'; without it plays commit when still")
    p.add_argument("--profile", default=profiles.DEFAULT, help="rule profile")
    p.add_argument("--level", type=_level, default="2", help=LEVEL_HELP)
    p.add_argument("--db", default="guandan.db", metavar="FILE|URL", help=DB_HELP)
    p.add_argument("--table", default="1", help="table id (default 1)")
    p.add_argument("--port", type=tcp_port, default=8000, help="dashboard port (default 8000)")
    p.add_argument("--weights", help="detector (default: the committed model)")
    p.add_argument("--reader", help=READER_HELP)
    p.add_argument("--deck", metavar="DIR", help=DECK_HELP)
    p.add_argument("--lang", choices=LANGS, default="zh", help="language of the console and alerts (default zh)")
    p.add_argument("--trace", metavar="DIR", help=TRACE_HELP)
    p.add_argument("--hall", metavar="BROKER", help="also send the table's record to a hall over MQTT "
                   "(mqtt://HOST:PORT of its broker; docs/hall.md); the table's own store and console stay")
    p.add_argument("--hall-name", default="main", help="the hall's name in the topics (default main)")
    p.add_argument("--outbox", help="with --hall: the node's outbox, events not yet sent (default outbox-TABLE.db)")
    p.set_defaults(func=cmd_run)
