"""The whole table pipeline on rendered games: plays read, alerts, result, latency, speed.

Renders games with ``vision.synth.render_game`` (held-out deck styles, random felt, camera tilt,
light and noise; some with injected illegal plays), scans each video with the same
``TableRuntime`` as ``guandan scan``, and compares the scanned record with the truth:

- plays read exactly: truth plays matched in order (longest common subsequence) by seat and
  exactly the same cards, duplicates included;
- alerts: every violation the truth's replay finds must be found on the same play, and none
  other (false alerts);
- the hand's result (finishing order) must be the same;
- the referee's work: the fewest acts at the console (corrections, missed plays put in,
  events voided)
  that make the record's plays and passes the truth's (``table.compare.referee_fixes``),
  and whether the record so fixed replays to the right result with no false alert;
- latency: scanned event time minus the moment the cards lay still (video time, so the
  waiting for a zone to settle is in it), plus the time the runtime took over that frame;
- speed: video seconds scanned per wall second.

Targets: ≥ 99 % of plays exact, every illegal play alerted, no false alerts, the right
result, latency ≤ 0.5 s, 1080p scan ≥ 2× real time. The videos are 1080p by default: the
camera ``docs/vision.md`` asks for (a 720p camera over the whole table resolves 6–7 px/cm at
the zones, under the 8 that ``guandan calibrate`` warns at; ``--size 1280x720`` measures it).
Run: ``.venv/bin/python benchmarks/table.py [--games 3] [--size 1920x1080] [--illegal 0.05]``;
``--videos DIR`` keeps the rendered games there and scans them again on the next run instead
of rendering them anew (a 1080p whole hand takes about 6 minutes to render here);
``--every N`` reads only every N-th frame, as a node too slow for its camera would (its
pace as ``table.pace`` judges it), to see what that costs; ``--world stage`` renders the games
in the second world instead (``vision.stage``, a 3D table written apart from the first:
``docs/stage.md``), to measure the loop in a world it was not tuned in.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.machine import describe  # noqa: E402
from engine.events import BY_CAMERA, CameraNote, Correction, PlayCards, RecordError, with_corrections  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.record import Record, parse_lines, replay  # noqa: E402
from rulebook import profiles  # noqa: E402
from rulebook.i18n import enroll_text  # noqa: E402
from scorer.live_table import build_table, table_detector  # noqa: E402
from table.compare import key, matched_plays, plays_of, referee_fixes, with_fixes  # noqa: E402
from table.runtime import TableRuntime  # noqa: E402
from vision.enroll import deck  # noqa: E402
from vision.enroll.finder import SCENES  # noqa: E402
from vision.enroll.layout import LAYOUT  # noqa: E402
from vision.enroll.pictures import EnrollError, read_layout  # noqa: E402
from vision.live.camera import VideoFile  # noqa: E402
from vision.live.detector import CardDetector, committed_finder  # noqa: E402
from vision.stage.layout_picture import layout_picture  # noqa: E402
from vision.stage.world import render as stage_render  # noqa: E402
from vision.synth.art_decks import ArtDeck, by_name  # noqa: E402
from vision.synth.art_faces import ArtError  # noqa: E402
from vision.synth.deck import prints  # noqa: E402
from vision.synth.layout_photo import layout_photo  # noqa: E402
from vision.synth.render_game import render  # noqa: E402
from web.snapshot import doubt_below  # noqa: E402


def alerts_by_play(match, events) -> Counter:
    """Violations keyed by the play they were found on (seat, cards, as corrected) and their code."""
    by_seq = {e.seq: e for e in with_corrections(events)}
    out: Counter = Counter()
    for v in match.violations:
        event = by_seq.get(v.seq)
        out[(v.code, key(event) if isinstance(event, PlayCards) else (v.seat, ()))] += 1
    return out


def acts_made(acts: list[dict]) -> str:
    """`` (correction ×n, missed ×m, void ×k)``."""
    kinds = Counter("void" if act.get("void") else act["type"] for act in acts)
    return " (" + ", ".join(f"{kind} ×{n}" for kind, n in sorted(kinds.items())) + ")" if kinds else ""


def codes(counts: Counter) -> str:
    """`` (code ×n, ...)``: which rules the false alerts named, most first."""
    return " (" + ", ".join(f"{code} ×{n}" for code, n in counts.most_common()) + ")" if counts else ""


def scan(video_path: Path, detector: CardDetector, profile,
         every: int = 1) -> tuple[TableRuntime, list[float], list[float]]:
    """Scan a video; returns the runtime, each frame's processing time and each event's.
    ``every``: take only every so many frames, as a loop that slow would take a live camera's."""
    video = VideoFile(str(video_path))
    runtime = build_table(detector, profile, table=video_path.parent.name).runtime  # as guandan scan builds it
    frame_ms, event_ms = [], []
    while (frame := video.read()) is not None:
        if frame.number % every:
            continue
        start = time.perf_counter()
        made = runtime.process(frame)
        took = (time.perf_counter() - start) * 1000
        frame_ms.append(took)
        event_ms += [took] * len(made)
    video.close()
    return runtime, frame_ms, event_ms


def after_fixes(truth: list, seen: list) -> tuple[list[dict], list, Match | None, str]:
    """The fewest referee acts that make the camera's record ``seen`` the truth's, the record
    with them, and the match it replays to — or None and why, where acts at the console
    cannot make it whole (a deal the camera recorded while the hand was still being played:
    no act voids a deal)."""
    fixes = referee_fixes(truth, seen)
    fixed_events = with_fixes(seen, fixes)
    try:
        return fixes, fixed_events, replay(Record(fixed_events, list(range(1, len(fixed_events) + 1))),
                                           profiles.load), ""
    except RecordError as exc:
        return fixes, fixed_events, None, str(exc)


def referee_items(match, exact: set[int]) -> tuple[int, int]:
    """What the referee's console asks about (``web.snapshot``): plays read below the
    record's doubt threshold (``doubt_below``: an enrolled deck's own, else ``LOW_CONFIDENCE``),
    the camera's own corrections and its notes; and how many of the low-confidence plays were
    read exactly all the same (needless)."""
    items = needless = 0
    low = doubt_below(match)
    for entry in match.history:
        event = entry.event
        if isinstance(event, PlayCards) and event.confidence is not None and event.confidence < low:
            items += 1
            needless += event.seq in exact
        elif isinstance(event, CameraNote) or (isinstance(event, Correction) and event.by == BY_CAMERA):
            items += 1
    return items, needless


#: thresholds tried for a play read below them to go to the referee (``web.snapshot.doubt_below``)
THRESHOLDS = (0.8, 0.6, 0.5, 0.4, 0.3, 0.2)


def flags_by_threshold(match, exact: set[int]) -> dict[float, tuple[int, int]]:
    """For each of ``THRESHOLDS``: how many plays read below it (the referee's low-confidence
    items), and how many plays read wrong at or above it (mistakes no one is asked about) —
    what a lower threshold would save and cost."""
    plays = [e.event for e in match.history if isinstance(e.event, PlayCards) and e.event.confidence is not None]
    return {t: (sum(p.confidence < t for p in plays), sum(p.confidence >= t and p.seq not in exact for p in plays))
            for t in THRESHOLDS}


def show_misreads(truth: list[PlayCards], seen: list[PlayCards], pairs: list[tuple[int, int]]) -> None:
    """Each play not read exactly, beside what the camera read from that seat nearest in time
    (or nothing), then each play the camera read that no play of the hand explains (extra):
    where the pipeline goes wrong, for the one working on it."""
    matched = {j for _, j in pairs}
    for i in sorted(set(range(len(truth))) - {i for i, _ in pairs}):
        play = truth[i]
        near = [j for j, p in enumerate(seen) if j not in matched and p.seat == play.seat and abs(p.t - play.t) < 8]
        read = min(near, key=lambda j: abs(seen[j].t - play.t)) if near else None
        what = "nothing" if read is None else f"{' '.join(seen[read].cards)} ({seen[read].confidence or 1:.2f})"
        print(f"  t={play.t:7.1f} {play.seat}: {' '.join(play.cards):<30} read {what}", flush=True)
        if read is not None:
            matched.add(read)
    for extra in (p for j, p in enumerate(seen) if j not in matched):
        print(f"  t={extra.t:7.1f} {extra.seat}: {'(no play)':<30} read {' '.join(extra.cards)} "
              f"({extra.confidence or 1:.2f})", flush=True)


def enrolled(seed: int, size: tuple[int, int], folder: Path, art: ArtDeck | None = None,
             scenes: int = SCENES, world: str = "render") -> CardDetector:
    """The live loop's detector with the reader and finder taught the deck of game ``seed``
    (or the real design ``art``) by enrollment (``guandan enroll``'s steps, quietly;
    ``scenes`` 0: the reader alone) from a picture of its layout drawn in the game's own
    ``world``: a table enrolls from its own camera, so a stage game's deck from the stage's
    camera over that game's table. A deck enrolled in ``folder`` before is used again."""
    if not (folder / "deck.json").exists():
        detector = CardDetector(committed_finder(), boxes=False)
        names = list(LAYOUT)
        picture = layout_picture(seed, names, size, deck=art.name if art else None) if world == "stage" else \
            layout_photo(seed, names, size, art=art)
        layout = read_layout(f"{world}-layout-{seed}", [picture], detector)
        started = time.perf_counter()
        deck.enroll(folder, [layout], detector, scenes=scenes, log=lambda _line: None, progress=False)
        print(f"# enrolled {folder.name} in {(time.perf_counter() - started) / 60:.1f} min", flush=True)
    return deck.Deck.open(folder).detector(boxes=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--size", default="1920x1080", choices=["3840x2160", "1920x1080", "1280x720"])
    parser.add_argument("--illegal", type=float, default=0.05, help="illegal-play chance in every other game")
    parser.add_argument("--max-events", type=int, help="cut each game after this many events (quicker)")
    parser.add_argument("--videos", type=Path, help="keep the rendered games in this folder and reuse them")
    parser.add_argument("--every", type=int, default=1,
                        help="read only every N-th frame, as a node N times too slow for its camera would "
                             "(the rest dropped): what a slow node costs in latency and plays")
    parser.add_argument("--enroll", action="store_true",
                        help="enroll each game's deck first (guandan enroll, from a picture of its layout "
                             "drawn in the game's world: the stage's by its own camera) and read the game "
                             "with the deck's reader and finder")
    parser.add_argument("--show", action="store_true", help="print each play not read exactly and what was read")
    parser.add_argument("--world", choices=["render", "stage"], default="render",
                        help="the world the games are rendered in: render (vision.synth, the first) or stage "
                             "(vision.stage, the second: a 3D table written apart from it)")
    parser.add_argument("--weights", type=Path, help="a zone finder to measure zero-shot (default: the committed one)")
    parser.add_argument("--reader", type=Path, help="a reader to measure zero-shot (default: the committed one)")
    parser.add_argument("--scenes", type=int, default=SCENES,
                        help=f"with --enroll: scenes drawn to teach the finder the deck (default {SCENES}; 0: "
                             "the reader alone is taught); decks enrolled are kept beside --videos")
    parser.add_argument("--art", metavar="DECK[,DECK…]",
                        help="lay real deck designs (datasets/art-decks.toml names; game n takes the n-th, "
                             "round and round) instead of generated held-out styles")
    args = parser.parse_args()
    try:
        arts = [by_name(name) for name in args.art.split(",")] if args.art else []
    except ArtError as error:
        parser.error(str(error))
    if faceless := [a.name for a in arts if not (prints(a, "SB") and prints(a, "HR"))]:
        parser.error(f"{', '.join(faceless)}: no jokers printed, and a game deals them")
    if args.every < 1:
        parser.error("--every must be 1 or more")
    size = tuple(int(v) for v in args.size.split("x"))
    print(f"machine: {describe()}")
    zero_shot = detector = table_detector(args.weights, args.reader)  # as the live loop
    print(f"zero-shot: finder {detector.path}, reader {detector.reader.path}")
    profile = profiles.load("jiangsu")
    totals = Counter()
    latencies, frame_times = [], []
    video_s = wall_s = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.games):
            seed = args.first_seed + n
            mistakes = args.illegal if n % 2 else 0.0
            cut = args.max_events or "whole"
            art = arts[n % len(arts)] if arts else None
            deck_name = f"-{art.name}" if art else ""
            world = "stage-" if args.world == "stage" else ""
            out = (args.videos or Path(tmp)) / f"{world}game-{seed}{deck_name}-{args.size}-{cut}-{mistakes:g}"
            if (out / "meta.json").exists():
                meta = json.loads((out / "meta.json").read_text(encoding="utf-8"))
            else:
                meta = stage_render(seed, out, size=size, max_events=args.max_events, mistakes=mistakes,
                                    deck=art.name if art else None) if args.world == "stage" else \
                    render(seed, out, size=size, max_events=args.max_events, mistakes=mistakes, art=art)
            truth_record = parse_lines((out / "truth.jsonl").read_text(encoding="utf-8").splitlines())
            truth = replay(truth_record, profiles.load)
            if args.enroll:
                deck_folder = (args.videos or Path(tmp)) / f"{world}deck-{seed}{deck_name}-{args.size}-{args.scenes}"
                try:
                    detector = enrolled(seed, size, deck_folder, art, args.scenes, args.world)
                except EnrollError as error:  # as at a table: the operator is told, the game read zero-shot
                    marked = deck_folder.with_name(deck_folder.name + "-refused.png")
                    if error.picture is not None:
                        cv2.imwrite(str(marked), error.picture)
                    print(f"# game {seed}: {enroll_text(error.code, 'en', picture=marked, **error.values)}; "
                          f"read zero-shot", flush=True)
                    detector = zero_shot
            started = time.perf_counter()
            runtime, frame_ms, event_ms = scan(out / "game.mp4", detector, profile, args.every)
            wall_s += time.perf_counter() - started
            video_s += meta["frames"] / meta["fps"]
            frame_times += frame_ms
            t_plays, s_plays = plays_of(truth_record.events), plays_of(runtime.events)  # as corrected
            pairs = matched_plays(t_plays, s_plays)
            by_seq = {e.seq: ms for e, ms in zip(runtime.events[1:], event_ms, strict=True)}  # 0: the header
            for i, j in pairs:
                latencies.append((s_plays[j].t - t_plays[i].t) + by_seq.get(s_plays[j].seq, 0.0) / 1000)
            want, got = alerts_by_play(truth, truth_record.events), alerts_by_play(runtime.match, runtime.events)
            unwanted = got - want
            hit, false = sum((want & got).values()), sum(unwanted.values())
            false_codes = Counter()
            for (code, _play), n in unwanted.items():
                false_codes[code] += n
            t_hand, s_hand = truth.hand, runtime.match.hand
            finished = t_hand is not None and t_hand.outcome is not None  # --max-events may cut the hand
            right = finished and s_hand is not None and s_hand.outcome is not None \
                and t_hand.outcome.order == s_hand.outcome.order
            totals.update(plays=len(t_plays), exact=len(pairs), extra=len(s_plays) - len(pairs),
                          alerts=sum(want.values()), alerted=hit, false_alerts=false, results_right=int(right),
                          finished=int(finished))
            fixes, fixed_events, fixed, unfixable = after_fixes(truth_record.events, runtime.events)
            fixed_false = sum((alerts_by_play(fixed, fixed_events) - want).values()) if fixed else 0
            fixed_right = finished and fixed is not None and fixed.hand is not None \
                and fixed.hand.outcome is not None and t_hand.outcome.order == fixed.hand.outcome.order
            totals.update(acts=len(fixes), fixed_false=fixed_false, fixed_right=int(fixed_right),
                          unfixable=int(fixed is None))
            exact_seqs = {s_plays[j].seq for _, j in pairs}
            if args.show:
                show_misreads(t_plays, s_plays, pairs)
            items, needless = referee_items(runtime.match, exact_seqs)
            totals.update(items=items, needless=needless)
            for t, (flagged, unflagged) in flags_by_threshold(runtime.match, exact_seqs).items():
                totals.update({f"flagged {t}": flagged, f"unflagged {t}": unflagged})
            result = ("right" if right else "WRONG") if finished else "not reached (cut short)"
            fixed_result = ("right" if fixed_right else "WRONG") if finished else "not reached (cut short)"
            if unfixable:
                fixed_result = f"not to be made exact at the console ({unfixable})"
            print(f"game {seed} ({meta['style']}, {'illegal plays' if mistakes else 'legal'}): "
                  f"{len(pairs)}/{len(t_plays)} plays exact, {len(s_plays) - len(pairs)} extra, "
                  f"alerts {hit}/{sum(want.values())}, false alerts {false}{codes(false_codes)}, result {result}; "
                  f"referee acts to make it exact {len(fixes)}{acts_made(fixes)}, then false alerts "
                  f"{fixed_false}, result {fixed_result}; referee items {items} ({needless} on plays read "
                  f"exactly)", flush=True)
    frame_times.sort()
    print(f"\n{args.games} games at {args.size} in the {args.world} world: {totals['exact']}/{totals['plays']} "
          f"plays read exactly ({totals['exact'] / max(1, totals['plays']):.2%}; target ≥ 99%), "
          f"{totals['extra']} extra plays")
    print(f"illegal plays alerted: {totals['alerted']}/{totals['alerts']}; false alerts: {totals['false_alerts']}; "
          f"results right: {totals['results_right']}/{totals['finished']} finished hands")
    print(f"referee acts at the console to make every record exact: {totals['acts']} "
          f"({totals['acts'] / max(1, args.games):.1f} a game); so fixed, false alerts {totals['fixed_false']}, "
          f"results right {totals['fixed_right']}/{totals['finished']}; records the console cannot make exact "
          f"{totals['unfixable']}")
    print(f"referee items (low-confidence plays, camera corrections and notes): {totals['items']} "
          f"({100 * totals['items'] / max(1, totals['plays']):.1f} per 100 plays; target after enrollment ≤ 2), "
          f"{totals['needless']} of them on plays read exactly")
    print("plays flagged by threshold (read below it) / plays read wrong at or above it: " + ", ".join(
        f"{t}: {totals[f'flagged {t}']} / {totals[f'unflagged {t}']}" for t in THRESHOLDS))
    if latencies:
        latencies.sort()
        print(f"latency from lying still to the event: median {statistics.median(latencies):.2f} s, "
              f"max {latencies[-1]:.2f} s (target ≤ 0.5 s)")
    print(f"runtime per frame: median {statistics.median(frame_times):.1f} ms, "
          f"p99 {frame_times[int(len(frame_times) * 0.99)]:.1f} ms; scan {video_s / wall_s:.2f}× real time")


if __name__ == "__main__":
    main()
