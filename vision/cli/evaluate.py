"""``guandan eval-detector``: mAP, card-level accuracy and confusions on a built dataset, the
by-band tables of the legible indices, and ``--failures``' close-ups."""

from __future__ import annotations

import argparse
import json
from argparse import Namespace
from pathlib import Path
from typing import TYPE_CHECKING

from vision.cli.detect import add_detector_options, load_detector
from vision.cli.inputs import VisionError, datasets, folder_for, lang_option

if TYPE_CHECKING:
    from vision.training.evaluate import Legibility
    from vision.training.failures import Sharpness


def _figures(results: list, conf: float) -> dict:
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.training.evaluate import card_level, map_scores

    scores = map_scores(results)
    level = card_level(results, conf=conf)
    return {"map50": scores["map50"], "map50_95": scores["map50_95"], "card_accuracy": level.accuracy,
            "labelled": level.labelled, "correct": level.correct, "wrong": level.wrong, "missed": level.missed,
            "duplicates": level.duplicates, "false_positives": level.false_positives,
            "confusions": dict(level.confusions.most_common()),
            "worst_pairs": [[a, b, n] for (a, b), n in level.pairs.most_common(10)], "ap50": scores["ap50"]}


def _print_figures(title: str, f: dict) -> None:
    print(f"{title}: mAP50 {f['map50']:.4f}   mAP50-95 {f['map50_95']:.4f}")
    print(f"  card-level: {f['correct']}/{f['labelled']} right ({f['card_accuracy']:.2%}), {f['wrong']} wrong, "
          f"{f['missed']} missed, {f['duplicates']} duplicates, {f['false_positives']} false positives")
    print("  confusions: " + (", ".join(f"{k} {v}" for k, v in f["confusions"].items()) or "none"))
    weakest = sorted(f["ap50"].items(), key=lambda kv: kv[1])[:8]
    print("  weakest classes (AP50): " + ", ".join(f"{c} {ap:.3f}" for c, ap in weakest))


def _band(lo: float, hi: float | None) -> str:
    """A by-band table's band as printed: ``8-10``, or ``>=15`` for the open last one."""
    return f"{lo:g}-{hi:g}" if hi is not None else f">={lo:g}"


def _print_bands(rows: list[dict], measure: str) -> None:
    """One by-band table of ``eval-detector``: each band (``measure``), read right of labelled, wrong, missed;
    a band no index falls in says so rather than 0 % (the held-out zones' legible indices have no sign under three
    pixels)."""
    for row in rows:
        if not row["labelled"]:
            print(f"  {_band(*row[measure]):>7}: no indices")
            continue
        print(f"  {_band(*row[measure]):>7}: {row['correct']:5d}/{row['labelled']:<5d} {row['accuracy']:.2%}  "
              f"({row['wrong']} wrong, {row['missed']} missed)")


def cmd_eval(args: Namespace) -> None:
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.training.evaluate import (
        LEGIBLE,
        by_index_size,
        by_sharpness,
        by_suit_size,
        by_turn,
        run_detector,
        split_images,
    )

    data = datasets([args.data])[0]
    images = split_images(data, args.split)  # found before the models load
    if not images:
        raise VisionError("no_split_images", data=data, split=args.split)
    if args.failures:
        if Path(args.failures).exists() and not Path(args.failures).is_dir():
            raise VisionError("failures_not_folder", path=args.failures)
        folder_for(args.failures, "--failures")
    detector = load_detector(args)
    results = run_detector(detector, images, progress=not args.json)
    report = {"data": str(data), "weights": str(detector.path), "reader": str(detector.reader.path),
              **_figures(results, args.conf)}
    has_meta = any(r.meta is not None for r in results)
    counted = [r.only(LEGIBLE) for r in results] if has_meta else results  # what the targets are about
    if has_meta:
        report["legible"] = {"min_sharp_px_per_cm": LEGIBLE.min_sharp, "min_visible": LEGIBLE.min_visible,
                             **_figures(counted, args.conf)}
        report["by_sharpness"] = by_sharpness(results, args.conf)
        report["by_index_size"] = by_index_size(results, args.conf)
        report["by_suit_size"] = by_suit_size(results, args.conf)
        report["legible_by_suit_size"] = by_suit_size(results, args.conf, LEGIBLE)
        report["by_turn"] = by_turn(results, args.conf)
    if args.failures:
        report["failures"] = _write_failures(args, results, counted, images)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return
    print(f"{data}  ({args.split})  finder {detector.path}  reader {detector.reader.path}")
    _print_figures("all labelled indices", report)
    if has_meta:
        _print_figures(f"legible (fully visible, photographed at >= {LEGIBLE.min_sharp:g} sharp px/cm)",
                       report["legible"])
        if any(row["labelled"] for row in report["legible_by_suit_size"]):
            print("legible indices read right, by the suit sign's height in sharp pixels:")
            _print_bands(report["legible_by_suit_size"], "sharp_px")
        print("fully visible indices read right, by sharp px/cm of table:")
        _print_bands(report["by_sharpness"], "sharp_px_per_cm")
        print("fully visible indices read right, by the index's longer side in sharp pixels (pixels that carry "
              "detail):")
        _print_bands(report["by_index_size"], "sharp_px")
        if any(row["labelled"] for row in report["by_suit_size"]):
            print("fully visible indices read right, by the suit sign's height in sharp pixels:")
            _print_bands(report["by_suit_size"], "sharp_px")
        else:
            print("(sidecars without suit_cm: rebuild the dataset for the table by suit sign size)")
        if any(row["labelled"] for row in report["by_turn"]):
            print("legible indices read right, by how far the index lies off square (degrees off the nearest "
                  "quarter turn):")
            _print_bands(report["by_turn"], "degrees")
        else:
            print("(sidecars without turn_deg: rebuild the dataset for the table by the indices' turn)")
    else:
        print("(no sidecars in this dataset: rebuild it with 'guandan dataset build' for the legible figures)")
    if args.failures:
        counts = report["failures"]["by_kind"]
        print(f"failures of the {'legible' if has_meta else 'labelled'} indices: "
              + ", ".join(f"{n} {kind}" for kind, n in counts.items())
              + f" — close-ups and failures.csv in {args.failures}")


def _sharpness(meta: dict, n: int, legibility: Legibility) -> Sharpness:
    """An image's sharpness for the failure sheet: the photograph's, and each label's of its
    ``legibility`` cut (its own where a leaning camera's picture gives it one: ``view_scale``)."""
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.training.evaluate import label_sharpness
    from vision.training.failures import Sharpness

    return Sharpness(float(meta["sharp_px_per_cm"]), label_sharpness(meta, n)[legibility.mask(meta, n)])


def _write_failures(args: Namespace, results, counted, images: list[Path]) -> dict:
    """``eval-detector --failures``: the close-ups of the indices the figures count as failed
    (``counted``: the legible ones where the dataset has sidecars), and how many of each kind."""
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.training.evaluate import LEGIBLE
    from vision.training.failures import KINDS, write_failures

    sharpness = [_sharpness(r.meta, len(r.truth), LEGIBLE) if r.meta else None for r in results]
    try:
        listed = write_failures(counted, images, args.conf, Path(args.failures), sharpness, progress=not args.json)
    except OSError as exc:
        raise VisionError("file_unwritable", path=args.failures, why=exc.strerror or exc) from None
    return {"dir": str(args.failures), "by_kind": {kind: sum(f.kind == kind for f in listed) for kind in KINDS}}


def add_eval_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval-detector", help="mAP, card-level accuracy and confusions",
                       description="mAP, card-level accuracy and confusions on a built dataset: for every labelled "
                                   "index, for the legible ones (fully visible, photographed at >= 8 sharp px/cm; the "
                                   "others are ignored, not counted as misses), then read right band by band: "
                                   "photograph sharpness, index size, the suit sign's height in sharp pixels (the "
                                   "legible ones and all fully visible), the index's turn")
    p.add_argument("data", help="dataset YAML")
    p.add_argument("--split", default="val", choices=["train", "val", "test"])
    p.add_argument("--imgsz", type=int, default=320,
                   help="the finder's input size (default 320); bigger images are searched as "
                        "'guandan detect' searches photos")
    add_detector_options(p)
    p.add_argument("--failures", metavar="DIR",
                   help="write a close-up of every index read wrong, missed, made up or read twice "
                        "(the legible ones where the dataset has sidecars: as the figures count them) "
                        "and failures.csv listing them into this folder")
    p.add_argument("--json", action="store_true", help="JSON output")
    lang_option(p)
    p.set_defaults(func=cmd_eval)
