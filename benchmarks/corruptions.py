"""The live loop through a worse camera: plays read exactly under each corruption, at each severity.

The same hands, passed through camera and table corruptions (``vision/corruptions``: sensor
noise, H.264 at a network camera's bitrate, exposure ramps, mains flicker, white balance,
vignetting, defocus, motion blur, a bump, a drift, an arm's shadow, a hand resting over a
zone, frames dropped), each at severity 1, 2 and 3, are scanned with the live loop exactly as
``benchmarks/table.py`` scans a game (its ``scan``, the committed detector as the live loop
runs it) and scored as it scores one: the truth's plays matched in order by seat and exactly
the same cards, the camera's plays that match none (extra), and alerts the truth's replay
does not raise (false alerts). The clean videos are scanned first, and once more written
again unchanged (``rewritten``): every pixel corruption's video is a second generation of
MPEG-4 (``mp4v``), and that row says what the second generation costs by itself.

    python benchmarks/corruptions.py                                # 2 games of 12 events, every corruption
    python benchmarks/corruptions.py --videos var/games             # keep the rendered games and reuse them
    python benchmarks/corruptions.py --only noise,h264 --severities 1,2
    python benchmarks/corruptions.py path/to/game-dir ...           # games already rendered (any world)

A game folder holds ``game.mp4``, ``truth.jsonl`` and ``meta.json``, as
``guandan render-game`` writes them. Without folders named, ``--games`` games from
``--first-seed`` on are rendered at ``--size``, cut after ``--max-events`` events, into
``--videos`` (named as ``benchmarks/table.py`` names its legal games, so either reuses the
other's) or a temporary folder. Corrupted videos are written to a temporary folder and
deleted once scanned, unless ``--keep DIR``. Dropped frames are not written: the clean video
is scanned taking one frame in 3, 4 or 6 (``scan``'s ``every``), each at its own time.

A corruption's draws (the shadow's moments, the bump's, the hand's seats) come from
``--seed`` and the game's own seed, never the severity nor the games read beside it: each
severity puts the same events on the same game, stronger. At 1080p a 12-event game is
about 20 s of video; each corruption and severity costs a pass to write it and a scan
(about 2-3 times real time on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

if not __package__:  # run as a file: make the project importable
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from benchmarks.machine import describe  # noqa: E402
from benchmarks.table import alerts_by_play, matched_plays, plays_of, scan  # noqa: E402
from engine.record import parse_lines, replay  # noqa: E402
from rulebook import profiles  # noqa: E402
from vision.corruptions import CORRUPTIONS, SEVERITIES, corrupt_video  # noqa: E402
from vision.corruptions.frames import drop_every  # noqa: E402
from vision.live.detector import CardDetector, committed_finder  # noqa: E402
from vision.synth.render_game import render  # noqa: E402


def games_to_read(args, tmp: Path) -> list[Path]:
    """The game folders named, or those rendered for ``--games`` seeds (kept in ``--videos``)."""
    if args.games_dirs:
        for folder in args.games_dirs:
            missing = [n for n in ("game.mp4", "truth.jsonl", "meta.json") if not (folder / n).exists()]
            if missing:
                raise SystemExit(f"{folder}: not a game folder (no {', '.join(missing)})")
        return list(args.games_dirs)
    size = tuple(int(v) for v in args.size.split("x"))
    folders = []
    for n in range(args.games):
        seed = args.first_seed + n
        out = (args.videos or tmp) / f"game-{seed}-{args.size}-{args.max_events or 'whole'}-0"
        if not (out / "meta.json").exists():
            started = time.perf_counter()
            render(seed, out, size=size, max_events=args.max_events)
            print(f"# rendered {out.name} in {time.perf_counter() - started:.0f} s", flush=True)
        folders.append(out)
    return folders


def score(truth_events: list, truth_match, runtime) -> Counter:
    """What ``benchmarks/table.py`` counts of a scanned game: plays, plays read exactly, extra
    plays, false alerts (raised on the camera's record, not on the truth's)."""
    t_plays, s_plays = plays_of(truth_events), plays_of(runtime.events)
    pairs = matched_plays(t_plays, s_plays)
    want, got = alerts_by_play(truth_match, truth_events), alerts_by_play(runtime.match, runtime.events)
    return Counter(plays=len(t_plays), exact=len(pairs), extra=len(s_plays) - len(pairs),
                   false_alerts=sum((got - want).values()))


@dataclass
class Game:
    """A game folder, its truth replayed, and the seed its corruptions draw from."""

    folder: Path
    profile: object
    truth_events: list
    truth: object
    seed: int
    fps: float

    @classmethod
    def open(cls, folder: Path, seed: int, position: int) -> Game:
        """The game in ``folder``; its corruptions draw from ``seed`` plus the game's own
        seed (``meta.json``'s, else its ``position`` among the games named), so that a game
        is corrupted alike whichever games are read beside it."""
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        record = parse_lines((folder / "truth.jsonl").read_text(encoding="utf-8").splitlines())
        return cls(folder, profiles.load(meta.get("profile", "jiangsu")), record.events,
                   replay(record, profiles.load), seed + int(meta.get("seed", position)), float(meta.get("fps", 30)))

    def written(self, corruption, severity: int, folder: Path) -> tuple[Path, float]:
        """The game's video with ``corruption`` (None: unchanged) put on it, in ``folder``, and
        the seconds that took."""
        name = corruption.name if corruption else "rewritten"
        out = folder / f"{self.folder.name}-{name}-{severity if corruption else 0}.mp4"
        started = time.perf_counter()
        corrupt_video(self.folder / "game.mp4", out, corruption, severity, self.seed, progress=False)
        return out, time.perf_counter() - started

    def run(self, key: tuple[str, int | str], detector, totals: dict, video: Path | None = None, every: int = 1,
            wrote_s: float = 0.0) -> None:
        """Scan ``video`` (default: the game's own) as ``benchmarks/table.py`` does, add its
        counts to ``totals[key]`` and print them."""
        started = time.perf_counter()
        runtime, _frame_ms, _event_ms = scan(video or self.folder / "game.mp4", detector, self.profile, every)
        counts = score(self.truth_events, self.truth, runtime)
        totals.setdefault(key, Counter()).update(counts)
        print(f"{self.folder.name} {key[0]} {key[1]}: {counts['exact']}/{counts['plays']} plays exact, "
              f"{counts['extra']} extra, {counts['false_alerts']} false alerts (written in {wrote_s:.0f} s, "
              f"scanned in {time.perf_counter() - started:.0f} s)", flush=True)


def row(name: str, severity: str, what: str, counts: Counter) -> str:
    plays = counts["plays"]
    share = f"{counts['exact'] / plays:.1%}" if plays else "-"
    return (f"{name:<14} {severity:>3}  {what:<18} {counts['exact']:>4}/{plays:<4} {share:>6} "
            f"{counts['extra']:>6} {counts['false_alerts']:>7}")


HEADER = f"{'corruption':<14} {'sev':>3}  {'what':<18} {'exact':>9} {'':>6} {'extra':>6} {'false':>7}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[2:]))
    parser.add_argument("games_dirs", nargs="*", type=Path, metavar="GAME_DIR",
                        help="game folders already rendered (game.mp4, truth.jsonl, meta.json), of any world")
    parser.add_argument("--games", type=int, default=2, help="games to render when no folder is named (default 2)")
    parser.add_argument("--first-seed", type=int, default=100)
    parser.add_argument("--size", default="1920x1080", choices=["3840x2160", "1920x1080", "1280x720"])
    parser.add_argument("--max-events", type=int, default=12, help="cut each rendered game after this many events")
    parser.add_argument("--videos", type=Path, help="keep the rendered games in this folder and reuse them")
    parser.add_argument("--only", metavar="NAME[,NAME…]",
                        help=f"these corruptions only, of: {', '.join(CORRUPTIONS)}")
    parser.add_argument("--severities", default="1,2,3", help="severities to run, of 1, 2, 3 (default all)")
    parser.add_argument("--seed", type=int, default=0, help="the corruptions' seed (each game adds its own seed)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the clean and rewritten scans")
    parser.add_argument("--keep", type=Path, help="keep the corrupted videos in this folder")
    parser.add_argument("--reader", type=Path, help="a reader to measure (.onnx or 8-bit .xml; default: the committed "
                                                    "one)")
    args = parser.parse_args()
    names = list(CORRUPTIONS) if not args.only else [n.strip() for n in args.only.split(",") if n.strip()]
    if unknown := [n for n in names if n not in CORRUPTIONS]:
        parser.error(f"no corruption {', '.join(unknown)}; there are {', '.join(CORRUPTIONS)}")
    try:
        severities = [int(s) for s in args.severities.split(",") if s.strip()]
    except ValueError:
        severities = []
    if not severities or any(s not in SEVERITIES for s in severities):
        parser.error("--severities: a list of 1, 2 and 3, such as 1,2")
    print(f"machine: {describe()}")
    # as the live loop runs it (benchmarks/table.py)
    detector = CardDetector(committed_finder(), boxes=False, reader=args.reader)
    print(f"zero-shot: finder {detector.path}, reader {detector.reader.path}", flush=True)
    totals: dict[tuple[str, int | str], Counter] = {}
    started_all = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        folders = games_to_read(args, tmp)
        for number, folder in enumerate(folders):
            game = Game.open(folder, args.seed, number)
            if not args.no_baseline:
                game.run(("clean", "-"), detector, totals)
                video, took = game.written(None, 1, args.keep or tmp)
                game.run(("rewritten", "-"), detector, totals, video, wrote_s=took)
                if not args.keep:
                    video.unlink()
            for name in names:
                corruption = CORRUPTIONS[name]
                for severity in severities:
                    if corruption.kind == "frames":
                        game.run((name, severity), detector, totals, every=drop_every(game.fps, severity))
                        continue
                    video, took = game.written(corruption, severity, args.keep or tmp)
                    game.run((name, severity), detector, totals, video, wrote_s=took)
                    if not args.keep:
                        video.unlink()
    print(f"\n{len(folders)} games ({', '.join(f.name for f in folders)}), "
          f"{(time.perf_counter() - started_all) / 60:.0f} min; exact: plays read exactly / the truth's plays, "
          "extra: plays the camera recorded that match none, false: alerts the truth does not raise")
    print(HEADER)
    for (name, severity), counts in totals.items():
        what = "" if severity == "-" else CORRUPTIONS[name].levels[severity - 1]
        print(row(name, str(severity), what, counts))


if __name__ == "__main__":
    main()
