"""``guandan demo``: a table filmed from above, read live by the whole camera pipeline.

The bundled recording (``scorer/data/demo-table.mp4``, a hand rendered by ``guandan
render-game``; ``docs/vision.md`` says how it was made) stands in for the camera: it plays
as it was filmed through the table runtime — markers and calibration, seat zones, the card
detector, the zone tracker, the rules engine — with the table clock emulated on a real
pseudo-terminal pair. The players' button presses are scripted from the recording's truth
(a moment after a play lies still, or at the pass), and go through the emulated box, the
serial line and the clock driver like real ones. Every event goes to a fresh SQLite store
(``var/demo.db`` in a checkout; installed, ``demo.db`` in the user's data folder,
``vision.live.places``) that the dashboard on localhost follows, and is printed as it
happens. When the recording ends, what the camera read is compared with the truth; the
dashboard stays up until Ctrl-C.

``--from-record`` plays the bundled match record back instead (no camera, no detector).
"""

from __future__ import annotations

import secrets
from argparse import Namespace
from pathlib import Path

from engine.events import Pass, PlayCards
from engine.record import Record, parse_lines
from rulebook import profiles
from rulebook.i18n import term
from rulebook.narration import entry_lines
from scorer.live_table import build_table, serve_in_background, table_detector
from scorer.playback import play_back
from scorer.stop_signals import stop_signals
from store.event_store import Store
from table.compare import matched_plays, plays_of
from vision.cli import VisionError
from vision.enroll.deck import DeckError
from vision.live.camera import LiveCamera
from vision.live.places import working_folder

#: where the demo's store goes: ``var/`` in a checkout, else the user's data folder (``vision.live.places``)
VAR = working_folder()
DATA = Path(__file__).resolve().parent / "data"
DEMO_VIDEO = DATA / "demo-table.mp4"
DEMO_TRUTH = DATA / "demo-table-truth.jsonl"
#: a player presses the clock this long after the cards lie still (the camera needs ~0.4 s)
PRESS_AFTER_S = 0.8
WAIT_S = 3.0


#: the demo's referee account (its password is made afresh each run and printed)
REFEREE = "demo"


def fresh_store() -> tuple[Store, str]:
    """A new demo store, with a referee account whose password it returns: the demo's user
    can try the console (correct a play, put in one the camera missed) on a live table."""
    VAR.mkdir(parents=True, exist_ok=True)
    db = VAR / "demo.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    store = Store(db)
    password = secrets.token_urlsafe(9)
    store.add_user(REFEREE, password)
    return store, password


def presses(truth: Record) -> list[tuple[float, str, bool]]:
    """When each seat presses its clock button (video seconds) and whether it laid cards:
    after each play, at each pass."""
    out = []
    for event in truth.events:
        if isinstance(event, PlayCards):
            out.append((event.t + PRESS_AFTER_S, event.seat, True))
        elif isinstance(event, Pass):
            out.append((event.t, event.seat, False))
    return sorted(out)


def _ready(due: tuple[float, str, bool], runtime, t: float) -> bool:
    """Is this press due at video time ``t``? A player presses once their cards lie still; when
    the machine plays the recording faster than it can read it, the camera may not have seen
    them settle yet, and the scripted player waits for that (up to ``WAIT_S``)."""
    at, seat, laid = due
    if t < at:
        return False
    return not laid or bool(runtime.seats.zones[seat].tracker.new_cards()) or t >= at + WAIT_S


def _serve(store: Store, port: int, stop_words: str, password: str, lang: str) -> None:
    serve_in_background(store, port, connection_limit=200, ident="guandan-demo")
    base = f"http://127.0.0.1:{port}"
    print(f"# live: {base}/  ·  table {base}/table/demo  ·  OBS overlay {base}/overlay/demo  ({stop_words})",
          flush=True)
    print(f"# {'裁判台' if lang == 'zh' else 'referee console'} {base}/referee  "
          f"({'用户' if lang == 'zh' else 'user'} {REFEREE}, {'密码' if lang == 'zh' else 'password'} {password})",
          flush=True)
    print(f"# {'记录库' if lang == 'zh' else 'store'} {store.path}", flush=True)


def run_camera_demo(args: Namespace) -> None:
    truth = parse_lines(DEMO_TRUTH.read_text(encoding="utf-8").splitlines())
    store, password = fresh_store()
    lang = args.lang
    what = ("一段俯拍牌桌录像，实时经过整条摄像流水线（标定、识牌、跟踪、规则引擎、计时器）" if lang == "zh"
            else "a table filmed from above, read live by the whole camera pipeline")
    print(f"# {DEMO_VIDEO.name}: {what}", flush=True)
    try:
        detector = table_detector(deck=args.deck)
    except DeckError as exc:
        raise VisionError(exc.code, **exc.values) from None
    live = build_table(detector, profiles.load(truth.header.profile), table="demo",
                       store=store, clock="emulator", alert=lambda alert: print(f"! {alert.text(lang)}", flush=True))
    runtime = live.runtime
    told = len(runtime.match.history)

    def tell_new_entries() -> None:  # every event printed as it happens (the clock's too)
        nonlocal told
        with runtime.lock:
            for entry in runtime.match.history[told:]:
                for line in entry_lines(runtime.match, entry, lang):
                    print(line, flush=True)
            told = len(runtime.match.history)

    runtime.warm_up()
    with stop_signals() as stop:  # Ctrl-C stops the demo between frames, never half-way through one
        live.start()
        camera = None
        try:
            _serve(store, args.port, f"{args.speed:g}× real time; Ctrl-C stops", password, lang)
            camera = LiveCamera(str(DEMO_VIDEO), paced=True, speed=args.speed).start()
            due = presses(truth)
            while not camera.ended and not stop.is_set():
                frame = camera.latest(timeout=0.5)
                if frame is None:
                    tell_new_entries()
                    continue
                runtime.process(frame)
                while due and _ready(due[0], runtime, frame.t):
                    live.box.press(due.pop(0)[1])
                tell_new_entries()
            if stop.wait(1.0):  # the last press's round trip through the serial line
                return
            live.close()  # the players have left the table: no more turns to time
            tell_new_entries()
            _report(truth, runtime, lang)
            print("# " + ("录像已结束；仪表板继续运行，Ctrl-C 退出" if lang == "zh"
                          else "the recording has ended; the dashboard stays up until Ctrl-C"), flush=True)
            stop.wait()
        finally:
            if camera is not None:
                camera.stop()
            live.close()


def _report(truth: Record, runtime, lang: str) -> None:
    """What the camera read against the truth: plays read exactly, and what was flagged."""
    want, got = plays_of(truth.events), plays_of(runtime.events)
    exact = len(matched_plays(want, got))
    flagged = len(runtime.match.violations)
    if lang == "zh":
        print(f"\n# 摄像识别：{len(want)} 手出牌中 {exact} 手完全正确；另有 {len(got) - exact} 手有误；"
              f"裁判提示 {flagged} 条", flush=True)
    else:
        print(f"\n# the camera read {exact} of {len(want)} plays exactly, {len(got) - exact} with mistakes; "
              f"{flagged} referee alerts", flush=True)
    hand = runtime.match.hand
    if hand is not None and hand.outcome is not None:
        order = " ".join(term(s, lang) for s in hand.outcome.order)
        print(f"# {term('finishing', lang)}: {order}", flush=True)


def serve_record_demo(args: Namespace, record_path: Path) -> None:
    """The bundled match record played back into the store while the dashboard shows it."""
    store, password = fresh_store()
    record = parse_lines(record_path.read_text(encoding="utf-8").splitlines())
    store.add_table("demo", record.header.to_json())
    _serve(store, args.port, f"{args.speed:g}× real time; Ctrl-C stops", password, args.lang)
    with stop_signals() as stop:
        play_back(store, "demo", record, args.speed, stop)
        stop.wait()
