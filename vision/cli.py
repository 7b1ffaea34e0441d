"""``guandan train``, ``export``, ``detect`` and ``eval-detector``: the detector's commands."""

from __future__ import annotations

import json
import sys
from argparse import Namespace
from pathlib import Path
from typing import TYPE_CHECKING

from scorer.i18n import DEFAULT_LANG, LANGS

if TYPE_CHECKING:
    from vision.evaluate import Legibility
    from vision.failures import Sharpness


class VisionError(ValueError):
    pass


def default_weights(imgsz: int = 320) -> Path:
    from vision.detector import DetectorError, committed_finder

    try:
        return committed_finder(imgsz)
    except DetectorError as exc:
        raise VisionError(str(exc)) from None


def cmd_train(args: Namespace) -> None:
    from vision.train import TrainError, train

    device = _training_device(args.device)
    if args.workers < 0:
        raise VisionError("--workers must be 0 (load images in the training process) or more")
    try:
        best = train(args.data, args.out, model=args.model, epochs=args.epochs, imgsz=args.imgsz, batch=args.batch,
                     resume=args.resume, fraction=args.fraction, hours=args.hours, lr0=args.lr0, device=device,
                     workers=args.workers)
    except TrainError as exc:
        raise VisionError(str(exc)) from None
    print(f"best weights: {best}")


def _datasets(names: list[str]) -> list[Path]:
    """Dataset YAMLs given on the command line, each checked to exist and to be one, before
    minutes of work."""
    from vision.evaluate import read_dataset

    sets = [Path(d) for d in names]
    for data in sets:
        if not data.exists():
            raise VisionError(f"{data}: no such dataset YAML (build one with 'guandan dataset build')")
        read_dataset(data)
    return sets


def _sets_and_start(args: Namespace, what: str) -> tuple[list[Path], Path | None]:
    """A patch model's training datasets (``--data``) and the weights it goes on from
    (``--start``), each checked to exist before minutes of cutting patches."""
    sets = _datasets(args.data)
    start = Path(args.start) if args.start else None
    if start is not None and not start.exists():
        raise VisionError(f"{start}: no such {what} weights (.pt written beside an earlier {what})")
    return sets, start


def _teacher(args: Namespace, widths: tuple[int, ...] | None) -> Path | None:
    """``train-reader --teacher``'s reader weights, checked before minutes of cutting patches."""
    import torch

    from vision.reader_train import widths_of

    if not args.teacher:
        return None
    teacher = Path(args.teacher)
    if not teacher.exists():
        raise VisionError(f"{teacher}: no such reader weights (.pt written beside an earlier reader)")
    if Path(args.out).with_suffix(".pt").resolve() == teacher.resolve():
        raise VisionError(f"--out {args.out}: its weights would overwrite the teacher's ({teacher}); write the "
                          "taught reader elsewhere and compare the two first")
    given = widths_of(torch.load(teacher, map_location="cpu", weights_only=True))
    if widths is not None and any(w > t for w, t in zip(widths, given, strict=True)):
        raise VisionError(f"--widths {' '.join(map(str, widths))}: a taught reader is at most as wide as its "
                          f"teacher ({' '.join(map(str, given))})")
    return teacher


def cmd_train_reader(args: Namespace) -> None:
    import torch

    from vision.evaluate import Legibility
    from vision.reader import PAD
    from vision.reader_train import check_widths, cut_patches, cut_sets, train_reader, widths_of

    pad = PAD if args.pad is None else args.pad
    if not 0.0 <= pad <= 3.0:
        raise VisionError(f"--pad {pad}: give a framing between 0 and 3 (times the box's longer side)")
    sets, start = _sets_and_start(args, "reader")
    widths = tuple(args.widths) if args.widths else None
    if widths is not None:  # checked before minutes of cutting patches
        shown = " ".join(map(str, widths))
        try:
            check_widths(widths)
        except ValueError:
            raise VisionError(f"--widths {shown}: every stage needs at least one channel") from None
    if widths is not None and start is not None:
        was = widths_of(torch.load(start, map_location="cpu", weights_only=True))
        try:
            check_widths(widths, was)
        except ValueError:
            raise VisionError(f"--widths {shown}: a reader can only be widened, and {start} is "
                              f"{' '.join(map(str, was))} wide") from None
    if args.strided and start is not None:
        raise VisionError("--strided: a reader's first stage is chosen when it is made; --start goes on with the "
                          "one it has")
    teacher = _teacher(args, widths)
    device = _training_device(args.device)
    if args.batch < 1 or args.workers < 1 or (args.minutes is not None and args.minutes <= 0):
        raise VisionError("--batch and --workers must be at least 1, and --minutes more than 0")
    torch.set_num_threads(args.threads)
    readable = Legibility(min_sharp=args.min_sharp, min_visible=args.min_visible)
    log = lambda line: print(line, flush=True)  # noqa: E731
    train = cut_sets(sets, "train", copies=args.copies, seed=args.seed, legibility=readable, pad=pad,
                     workers=args.workers, log=log)
    val = cut_sets(sets, "val", copies=1, seed=args.seed + 100, legibility=readable, pad=pad,
                   workers=args.workers, log=log)
    if not len(train.classes) or not len(val.classes):
        raise VisionError("no legible labelled index to learn from (training or validation images)")
    figures = train_reader(train, val, Path(args.out), epochs=args.epochs, seed=args.seed, start=start, lr=args.lr,
                           log=log, pad=pad, widths=widths, strided=args.strided, teacher=teacher,
                           reads=args.reads, device=device, batch=args.batch, minutes=args.minutes)
    if args.heldout:
        from vision.reader import IndexReader

        held = cut_patches(Path(args.heldout), "val", jitter=False, pad=pad)
        reader = IndexReader(args.out)
        probs = reader.probabilities(held.images)
        figures["heldout_exact_box_accuracy"] = float((probs.argmax(1) == held.classes).mean())
        print(f"held-out styles, exact boxes: {figures['heldout_exact_box_accuracy']:.4%} of "
              f"{len(held.classes)} indices read right")
    Path(args.out).with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(f"reader written: {args.out}")


def _training_device(name: str) -> str:
    """``--device`` checked: the CPU, or an accelerator torch can see (``cuda``, ``cuda:1``)."""
    import torch

    if name == "cpu":
        return name
    if not name.startswith("cuda"):
        raise VisionError(f"--device {name}: give cpu or cuda (an NVIDIA accelerator, cuda:N for the N-th)")
    if not torch.cuda.is_available():
        raise VisionError(f"--device {name}: torch sees no CUDA accelerator on this machine; train with --device cpu")
    index = name.partition(":")[2]
    if index and (not index.isdigit() or int(index) >= torch.cuda.device_count()):
        raise VisionError(f"--device {name}: this machine has {torch.cuda.device_count()} CUDA device(s), "
                          f"counted from 0")
    return name


def _quantize_inputs(args: Namespace, model: str, what: str) -> tuple[Path, list[Path], Path]:
    """What quantize-reader and quantize-boxes are given, checked before any patch is cut: the
    model (``what``: its name in the error), the calibration sets and the output path."""
    sets = _datasets(args.calibration)
    path = Path(model)
    if not path.exists():
        raise VisionError(f"{path}: no such {what} model")
    if args.patches < 64 or args.images < 1:
        raise VisionError("--patches must be at least 64 and --images at least 1")
    return path, sets, Path(args.out)


def cmd_quantize_reader(args: Namespace) -> None:
    from vision.reader import ReaderError
    from vision.reader_quantize import quantize_reader

    reader, sets, out = _quantize_inputs(args, args.reader, "reader")
    try:
        figures = quantize_reader(reader, sets, out, count=args.patches, images=args.images, seed=args.seed)
    except ReaderError as exc:
        raise VisionError(str(exc)) from None
    if figures["val_patches"]:
        print(f"validation indices of the calibration sets (training styles, exact boxes): "
              f"{figures['full_precision_right']:.2%} read right in full precision, "
              f"{figures['eight_bit_right']:.2%} in 8 bits, the two agreeing on {figures['agree']:.2%} "
              f"of {figures['val_patches']}")
    print(f"8-bit reader written: {out} (and {out.with_suffix('.bin')}, {out.with_suffix('.json')}); measure it on "
          f"held-out decks with 'guandan eval-detector DATA.yaml --reader {out}'")


def cmd_quantize_boxes(args: Namespace) -> None:
    from vision.box_quantize import quantize_boxes
    from vision.reader import ReaderError

    boxes, sets, out = _quantize_inputs(args, args.boxes, "box refiner")
    try:
        figures = quantize_boxes(boxes, sets, out, count=args.patches, images=args.images, seed=args.seed)
    except ReaderError as exc:
        raise VisionError(str(exc)) from None
    if figures["val_patches"]:
        print(f"validation indices of the calibration sets (training styles, exact boxes): the 8-bit refiner's edges "
              f"lie {figures['mean_edge_apart']:.4f} patch sides from the full-precision one's on average "
              f"(99 % within {figures['p99_edge_apart']:.4f}; a patch pixel is {1 / 40:.3f}) over "
              f"{figures['val_patches']} patches")
    print(f"8-bit box refiner written: {out} (and {out.with_suffix('.bin')}, {out.with_suffix('.json')}); measure it "
          f"on held-out decks with 'guandan eval-detector DATA.yaml --boxes {out}' (a second look: --boxes FIRST "
          f"--boxes {out})")


def cmd_train_boxes(args: Namespace) -> None:
    import torch

    from vision.box_refiner import SECOND_LOOK_PAD, BoxRefiner
    from vision.box_train import cut_box_patches, join, train_boxes
    from vision.detector import CardDetector, DetectorError
    from vision.evaluate import Legibility
    from vision.reader import PAD, ReaderError

    sets, start = _sets_and_start(args, "box refiner")
    if args.epochs < 1 or args.shakes < 0:
        raise VisionError("--epochs must be at least 1 and --shakes at least 0")
    if args.pad is not None and not 0 <= args.pad <= 1:
        raise VisionError("--pad is a share of the box's longer side, from 0 to 1")
    pad = args.pad if args.pad is not None else SECOND_LOOK_PAD if args.after else PAD
    try:
        finder = CardDetector(args.finder or default_weights(320), imgsz=320)
        after = BoxRefiner(Path(args.after)) if args.after else None
    except (DetectorError, ReaderError) as exc:
        raise VisionError(str(exc)) from None
    torch.set_num_threads(args.threads)
    readable = Legibility(min_sharp=args.min_sharp, min_visible=args.min_visible)
    train = join([cut_box_patches(d, "train", finder=finder, shakes=args.shakes, seed=args.seed + i,
                                  legibility=readable, pad=pad, after=after) for i, d in enumerate(sets)])
    val = cut_box_patches(sets[0], "val", finder=finder, shakes=args.shakes, seed=args.seed + 100,
                          legibility=readable, pad=pad, after=after)
    if not len(train) or not len(val):
        raise VisionError("no legible labelled index to learn from (training or validation images)")
    figures = train_boxes(train, val, Path(args.out), epochs=args.epochs, lr=args.lr, seed=args.seed, start=start,
                          pad=pad, log=lambda line: print(line, flush=True))
    if after is not None:
        figures["after"] = after.path.name
    Path(args.out).with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(f"box refiner written: {args.out}")


def cmd_train_suits(args: Namespace) -> None:
    import numpy as np
    import torch

    from vision.reader import IndexReader
    from vision.suit_reader import VIEW, SuitReader, View
    from vision.suit_train import load, measure, render_patches, save, train

    if min(args.scenes, args.val_scenes, args.heldout_scenes, args.epochs) < 1:
        raise VisionError("--scenes, --val-scenes, --heldout-scenes and --epochs must each be at least 1")
    view = View(tuple(args.reach) if args.reach else VIEW.reach, *(args.size or (VIEW.width, VIEW.height)))
    try:
        view.check()
    except ValueError as exc:
        raise VisionError(f"--reach/--size: {exc}") from None
    start = Path(args.start) if args.start else None
    if start is not None and not start.exists():
        raise VisionError(f"{start}: no such suit reader weights (.pt written beside an earlier one)")
    cache = Path(args.cache) if args.cache else None
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)

    def patches(name: str, scenes: int, **kw):
        shape = "_".join(f"{v:g}" for v in (*view.reach, view.width, view.height))
        path = cache / f"{name}-seed{args.seed}-{scenes}-{shape}.npz" if cache else None
        if path is not None and path.exists():
            return load(path)
        data = render_patches(scenes, workers=args.workers, view=view, **kw)
        if path is not None:
            save(data, path)
        return data

    train_set = patches("train", args.scenes, seed=args.seed)
    val = patches("val", args.val_scenes, seed=args.seed + 1000, jitter=False)
    heldout = patches("heldout", args.heldout_scenes, seed=args.seed + 2000, split="heldout", variety="standard",
                      n_styles=120, jitter=False)
    torch.set_num_threads(args.threads)
    figures = train(train_set, val, Path(args.out), epochs=args.epochs, lr=args.lr, seed=args.seed, start=start,
                    log=lambda line: print(line, flush=True), view=view)
    suits = SuitReader(args.out)
    probs = np.concatenate([suits.probabilities(heldout.images[i:i + 512]) for i in range(0, len(heldout.images), 512)])
    figures["heldout"] = measure(heldout, IndexReader(args.reader), probs)
    print("held-out deck styles, exact boxes: cards read right")
    for name, row in figures["heldout"].items():
        print(f"  {name:24} {row['indices']:6} indices: index reader {row['index reader']:.2%}, with the suit "
              f"reader {row['with suit reader']:.2%} (its suit alone {row['suit alone']:.2%})")
    Path(args.out).with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(f"suit reader written: {args.out}")


def cmd_quantize_suits(args: Namespace) -> None:
    from vision.reader import ReaderError
    from vision.suit_quantize import quantize_suits

    suits = Path(args.suits)
    if not suits.exists():
        raise VisionError(f"{suits}: no such suit reader model")
    if args.patches < 64 or min(args.scenes, args.val_scenes, args.workers) < 1:
        raise VisionError("--patches must be at least 64, --scenes, --val-scenes and --workers at least 1")
    out = Path(args.out)
    try:
        figures = quantize_suits(suits, out, scenes=args.scenes, val_scenes=args.val_scenes, count=args.patches,
                                 seed=args.seed, workers=args.workers)
    except ReaderError as exc:
        raise VisionError(str(exc)) from None
    if figures["val_patches"]:
        print(f"rows of training styles (exact boxes): suits read right {figures['full_precision_right']:.2%} in "
              f"full precision, {figures['eight_bit_right']:.2%} in 8 bits, the two agreeing on "
              f"{figures['agree']:.2%} of {figures['val_patches']}; sure enough to be heard "
              f"{figures['full_precision_heard']:.2%} and {figures['eight_bit_heard']:.2%}")
    print(f"8-bit suit reader written: {out} (and {out.with_suffix('.bin')}, {out.with_suffix('.json')}); it is "
          f"the live loop's while it matches {suits.name} beside it")


def cmd_export(args: Namespace) -> None:
    from vision.train import TrainError, export

    try:
        for path in export(args.weights, args.out, imgsz=args.imgsz, formats=tuple(args.formats),
                           calibration=args.calibration):
            print(path)
    except TrainError as exc:
        raise VisionError(str(exc)) from None


def _detector(args: Namespace):
    from vision.detector import CardDetector, DetectorError

    try:
        boxes = False if args.finder_boxes else args.boxes
        return CardDetector(args.weights or default_weights(args.imgsz), imgsz=args.imgsz, conf=args.conf,
                            reader=args.reader, boxes=boxes, views=args.views or default_views(args.imgsz),
                            sideways=not args.as_laid)
    except DetectorError as exc:
        raise VisionError(str(exc)) from None


def default_views(imgsz: int) -> int:
    """How many ways the finder looks at an image of this input size unless told: four at
    each quarter turn for a zone (held-out zones: 783 → 803 of 881 legible indices read
    right), one for a whole photo at 640 (held-out 640 images: legible mAP50 0.898 with
    one view, 0.895 with four, 13 more of 1,246 read right but 27 more false readings)."""
    return 4 if imgsz <= 320 else 1


def read_image(path: str):
    """The image at ``path`` (BGR), or ``None`` after saying on stderr why it cannot be read."""
    import cv2
    import numpy as np

    try:
        data = np.fromfile(path, dtype=np.uint8)
    except OSError as exc:
        print(f"guandan: {path}: {exc.strerror or 'cannot read'}", file=sys.stderr)
        return None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        print(f"guandan: {path}: not an image OpenCV can read", file=sys.stderr)
    return image


def cmd_detect(args: Namespace) -> None:
    from vision.annotate import draw_detections
    from vision.photo import detect_photo

    detector = _detector(args)
    failed = 0
    if args.annotate:
        _folder_for(args.annotate, "--annotate")
    for path in args.images:
        image = read_image(path)
        if image is None:
            failed += 1
            continue
        found = detect_photo(detector, image)
        if args.json:
            print(json.dumps({"image": path, "detections": [d.to_json() for d in found]}, ensure_ascii=False))
        else:
            print(f"{path}: {len(found)} card indices")
            for d in found:
                x1, y1, x2, y2 = d.box
                print(f"  {d.card:3} {d.conf:5.2f}  ({x1:.0f}, {y1:.0f}) – ({x2:.0f}, {y2:.0f})")
        if args.annotate:
            out = Path(args.annotate) / Path(path).name
            if not _written(str(out), draw_detections(image, found)):
                print(f"guandan: {out}: the annotated image could not be written", file=sys.stderr)
                failed += 1
        sys.stdout.flush()
    if failed:
        raise VisionError(f"{failed} of {len(args.images)} images could not be read or written")


def _written(path: str, image) -> bool:
    """Whether OpenCV wrote ``image`` to ``path`` (it says no by returning False, or by raising
    for a name whose extension it has no writer for)."""
    import cv2

    try:
        return bool(cv2.imwrite(path, image))
    except cv2.error:
        return False


def _folder_for(folder: str, option: str) -> None:
    """Make the folder ``option`` writes into, or say in one line why it cannot be made."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise VisionError(f"{folder}: cannot make the folder {option} writes into ({exc.strerror or exc})") from None


def _figures(results: list, conf: float) -> dict:
    from vision.evaluate import card_level, map_scores

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
    from vision.evaluate import LEGIBLE, by_index_size, by_sharpness, by_suit_size, by_turn, run_detector, split_images

    data = _datasets([args.data])[0]
    images = split_images(data, args.split)  # found before the models load
    if not images:
        raise VisionError(f"{data}: no {args.split} images to evaluate on (--split train, val or test)")
    if args.failures:
        if Path(args.failures).exists() and not Path(args.failures).is_dir():
            raise VisionError(f"{args.failures}: not a folder (--failures writes its close-ups into a folder)")
        _folder_for(args.failures, "--failures")
    detector = _detector(args)
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
    from vision.evaluate import label_sharpness
    from vision.failures import Sharpness

    return Sharpness(float(meta["sharp_px_per_cm"]), label_sharpness(meta, n)[legibility.mask(meta, n)])


def _write_failures(args: Namespace, results, counted, images: list[Path]) -> dict:
    """``eval-detector --failures``: the close-ups of the indices the figures count as failed
    (``counted``: the legible ones where the dataset has sidecars), and how many of each kind."""
    from vision.evaluate import LEGIBLE
    from vision.failures import KINDS, write_failures

    sharpness = [_sharpness(r.meta, len(r.truth), LEGIBLE) if r.meta else None for r in results]
    try:
        listed = write_failures(counted, images, args.conf, Path(args.failures), sharpness, progress=not args.json)
    except OSError as exc:
        raise VisionError(f"{args.failures}: {exc.strerror or exc}") from None
    return {"dir": str(args.failures), "by_kind": {kind: sum(f.kind == kind for f in listed) for kind in KINDS}}


def cmd_markers(args: Namespace) -> None:
    from vision.markers import write_sheet

    try:
        print(write_sheet(args.out))
    except ValueError as exc:
        raise VisionError(str(exc)) from None
    except OSError as exc:
        raise VisionError(f"{args.out}: {exc.strerror}") from None


def first_frame(source: str):
    """One frame from an image file, a video file, a camera index or a stream URL."""
    from vision.camera import open_capture

    image = read_image(source) if not source.isdigit() and "://" not in source else None
    if image is not None:
        return image
    capture = open_capture(source)
    ok, frame = capture.read()
    capture.release()
    if not ok:
        raise VisionError(f"{source}: no frame could be read (not an image, a video, a camera or a stream)")
    return frame


def cmd_calibrate(args: Namespace) -> None:
    from scorer.i18n import alert_text, term
    from vision.calibrate_view import draw_calibration
    from vision.calibration import GOOD_PX_PER_CM, MIN_PX_PER_CM, Calibration, CalibrationError

    zh = args.lang == "zh"
    frame = first_frame(args.source)

    def draw(calibration: Calibration | None) -> None:
        if not _written(args.out, draw_calibration(frame, calibration)):
            raise VisionError(f"{args.out}: 标定图无法写入（文件夹是否存在、可写？扩展名用 .png 或 .jpg）" if zh
                              else f"{args.out}: the calibration picture could not be written (does the folder "
                                   "exist, is it writable, is the name .png or .jpg?)")

    try:
        calibration = Calibration.from_image(frame)
    except CalibrationError as exc:
        draw(None)
        where = f"（找到的内容画在 {args.out} 中）" if zh else f" (what was found is drawn in {args.out})"
        raise VisionError(alert_text(exc.code, args.lang, **exc.values) + where) from None
    draw(calibration)
    found = ", ".join(map(str, calibration.markers))
    missing = ", ".join(map(str, sorted({0, 1, 2, 3} - set(calibration.markers))))
    error = calibration.error_px
    if zh:
        print(f"找到标记 {found}" + (f"；缺 {missing}" if missing else "") + f"；重投影误差 {error:.2f} 像素；"
              f"标定图：{args.out}")
    else:
        print(f"markers {found} found" + (f"; missing {missing}" if missing else "")
              + f"; reprojection error {error:.2f} px; picture: {args.out}")
    if error > 2.0:
        print("注意：标记之间相差超过2像素：是否平放、按100%打印？" if zh
              else "warning: the markers disagree by more than 2 px: are they flat and printed at 100%?")
    resolution = calibration.zone_resolution()
    if zh:
        print("各出牌区的摄像分辨率（像素/厘米）：" + "，".join(f"{term(seat, 'zh')} {px:.1f}"
                                                  for seat, px in resolution.items()))
    else:
        print("camera resolution at the play zones: "
              + ", ".join(f"{seat} {px:.1f}" for seat, px in resolution.items()) + " px/cm")
    seat = min(resolution, key=resolution.get)
    px = resolution[seat]
    if px >= GOOD_PX_PER_CM:
        return
    if zh:
        print(f"注意：{term(seat, 'zh')}家出牌区只有{px:.1f}像素/厘米；{GOOD_PX_PER_CM:g}像素/厘米以上才能可靠识牌"
              + (f"，低于{MIN_PX_PER_CM:g}大多会认错" if px < MIN_PX_PER_CM else "")
              + "：请把摄像头移近、放大画面或改用1080p")
    else:
        under = f" and mostly misread under {MIN_PX_PER_CM:g}" if px < MIN_PX_PER_CM else ""
        print(f"warning: seat {seat}'s zone is seen at {px:.1f} px/cm; cards are read reliably from "
              f"{GOOD_PX_PER_CM:g} px/cm{under}: bring the camera closer, zoom in, or use 1080p")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if w < 320 or h < 240:
            raise ValueError
    except ValueError:
        raise VisionError(f"--size wants WIDTHxHEIGHT such as 1280x720, got {text!r}") from None
    return w, h


def cmd_render_game(args: Namespace) -> None:
    from vision.progress import Progress
    from vision.render_game import render

    size = _size(args.size)
    out = Path(args.out)
    _folder_for(args.out, "--out")
    bars: list[Progress] = []

    def progress(done: int, total: int) -> None:
        if not bars:
            bars.append(Progress(total, "render", unit="frame"))
        bars[0].advance_to(done)

    meta = render(args.seed, out, size=size, hands=args.hands, max_events=args.max_events, profile=args.profile,
                  mistakes=args.illegal, progress=progress)
    for bar in bars:
        bar.close()
    print(f"{out / 'game.mp4'}: {meta['frames']} frames at {meta['fps']} fps, {size[0]}×{size[1]}; "
          f"truth: {out / 'truth.jsonl'} ({meta['events']} events)")


def add_parsers(sub) -> None:
    p = sub.add_parser("render-game", help="render an overhead video of a hand played by the bots, with its truth",
                       description="Render a realistic overhead video of a hand (or match) played by simple bots, "
                                   "with the ground-truth record beside it (truth.jsonl).")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="folder for game.mp4, truth.jsonl and meta.json")
    p.add_argument("--size", default="1280x720", help="video size, e.g. 1280x720 or 1920x1080")
    p.add_argument("--hands", type=int, default=1, help="hands to play (default 1)")
    p.add_argument("--max-events", type=int, help="stop after this many record events (a short clip)")
    p.add_argument("--profile", default="jiangsu", help="rule profile (default jiangsu)")
    p.add_argument("--illegal", type=float, default=0.0, metavar="P",
                   help="chance a player lays a single that does not beat the table (an illegal play to alert)")
    p.set_defaults(func=cmd_render_game)

    p = sub.add_parser("markers", help="print the table markers (A4 PDF, true size at 100%%)",
                       description="Write the four ArUco table markers as an A4 PDF, true size when printed at 100%%.")
    p.add_argument("--out", default="markers.pdf", help="PDF file (default markers.pdf)")
    p.set_defaults(func=cmd_markers)

    p = sub.add_parser("calibrate", help="find the table markers and show the seat zones",
                       description="Read one frame from SOURCE (image, video, camera index or URL), find the "
                                   "table markers and write a picture with the markers, table edge and seat zones.")
    p.add_argument("source")
    p.add_argument("--out", default="calibration.png", help="picture to write (default calibration.png)")
    p.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG, help="language (default zh)")
    p.set_defaults(func=cmd_calibrate)

    p = sub.add_parser("train", help="train the index finder (offline, CPU or an accelerator; checkpoints every epoch)",
                       description="Train the one-class YOLO that finds corner indices, from a model YAML or "
                                   "earlier weights, on a built dataset (its card classes are merged into one). "
                                   "The reader that says which card each index is: 'guandan train-reader'.")
    p.add_argument("--data", nargs="+", default=[], metavar="DATA.yaml",
                   help="dataset YAML(s) from 'guandan dataset build'; with several, training uses all their "
                        "training images and validates on the first's")
    p.add_argument("--out", default="runs/cards", help="run folder (weights/last.pt, weights/best.pt)")
    p.add_argument("--model", default="yolo11n.yaml", help="model YAML (default yolo11n.yaml) or a local .pt")
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--imgsz", type=int, default=320)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--fraction", type=float, default=1.0, help="train on this share of the training images")
    p.add_argument("--hours", type=float, help="stop after this long, the learning-rate schedule fitted to it")
    p.add_argument("--lr0", type=float, default=0.002, help="AdamW learning rate (default 0.002)")
    p.add_argument("--resume", action="store_true", help="go on from OUT/weights/last.pt")
    p.add_argument("--device", default="cpu",
                   help="where to train: cpu (default) or cuda (an NVIDIA accelerator, cuda:N for the N-th)")
    p.add_argument("--workers", type=int, default=0,
                   help="processes loading the images (default 0: the training process; with an accelerator, "
                        "about one a core)")
    p.set_defaults(func=cmd_train)

    p = sub.add_parser("train-reader", help="train the index reader (which card each found index is)",
                       description="Cut patches around every labelled corner index of a built dataset (turned, "
                                   "shifted, plus patches of no index) and train the small network that reads "
                                   "them; writes ONNX and a JSON of figures beside it.")
    p.add_argument("--data", required=True, nargs="+", help="dataset YAML(s) from 'guandan dataset build'")
    p.add_argument("--out", default="models/reader.onnx", help="ONNX file to write (default models/reader.onnx)")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--copies", type=int, default=2, help="patches cut per labelled index (default 2)")
    p.add_argument("--pad", type=float,
                   help="how much wider than the index's box a patch is cut (default 0.2, vision.reader.PAD; 0.8 "
                        "shows the first pip beside or below the index too); stored in the reader")
    p.add_argument("--min-sharp", type=float, default=4.0,
                   help="leave out indices in images with fewer sharp px/cm of table (default 4; 0 keeps all)")
    p.add_argument("--min-visible", type=float, default=0.8,
                   help="leave out indices less visible than this share (default 0.8)")
    p.add_argument("--heldout", help="dataset YAML of held-out deck styles, measured at the end")
    p.add_argument("--start", help="go on from these reader weights (the .pt beside an earlier reader)")
    p.add_argument("--widths", type=int, nargs=4, metavar="N",
                   help="channels of the four stages (default 16 32 64 128); with --start, a wider network that "
                        "first reads exactly as the start does, then trains on; with --teacher, at most its widths")
    p.add_argument("--strided", action="store_true",
                   help="a cheaper first stage that halves the patch at once (4x4 convolution, stride 2) in place of "
                        "two full-size convolutions and a pool; for a new reader (from scratch or --teacher)")
    p.add_argument("--teacher",
                   help="reader weights (.pt) to teach a cheaper reader: it starts from them (narrower stages keep "
                        "the channels that weigh most) and learns their readings as well as the labels; with "
                        "--start, a taught reader goes on from its own weights (a stopped run resumed), still taught")
    p.add_argument("--reads", type=int, choices=[1, 2], default=2,
                   help="how many ways the reader reads each patch (stored in it): 2 (default), as cut and half "
                        "turned, averaged; 1, as cut — for a reader taught (--teacher) to read at once what its "
                        "teacher reads both ways, in half the time")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (default 0.003)")
    p.add_argument("--threads", type=int, default=1, help="CPU threads for training (default 1)")
    p.add_argument("--device", default="cpu",
                   help="where to train: cpu (default) or cuda (an NVIDIA accelerator; the reader is written for "
                        "the CPU either way)")
    p.add_argument("--batch", type=int, default=256, help="patches a training step (default 256)")
    p.add_argument("--minutes", type=float,
                   help="a time budget: as many epochs as fit (at most --epochs), timed on a few batches first, "
                        "the learning-rate schedule fitted to them")
    p.add_argument("--workers", type=int, default=1,
                   help="processes cutting the patches (default 1; a machine with many cores: one a core)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_train_reader)

    p = sub.add_parser("quantize-reader", help="the index reader in 8 bits (faster, for OpenVINO)",
                       description="Quantize the index reader to 8 bits with NNCF, calibrated on patches cut from "
                                   "training datasets as train-reader cuts them (never a held-out set); its first "
                                   "convolution and its head stay in full precision. Writes an OpenVINO model "
                                   "(.xml and .bin) that --reader and the live loop load like the ONNX one.")
    p.add_argument("--calibration", required=True, nargs="+", metavar="DATA.yaml",
                   help="training dataset YAML(s) from 'guandan dataset build'")
    p.add_argument("--reader", default="models/reader.onnx", help="the reader to quantize (default models/reader.onnx)")
    p.add_argument("--out", default="models/reader_int8.xml",
                   help="OpenVINO model to write (default models/reader_int8.xml, weights beside it as .bin)")
    p.add_argument("--patches", type=int, default=6400, help="calibration patches (default 6400)")
    p.add_argument("--images", type=int, default=2500, help="training images cut per dataset at most (default 2500)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_quantize_reader)

    p = sub.add_parser("quantize-boxes", help="the box refiner in 8 bits (faster, for OpenVINO)",
                       description="Quantize the box refiner to 8 bits with NNCF, calibrated on patches cut from "
                                   "training datasets as train-reader cuts them (the refiner reads the reader's "
                                   "patch; never a held-out set); its first convolution and its head stay in full "
                                   "precision. Writes an OpenVINO model (.xml and .bin) and a JSON of how it was "
                                   "made; detect and eval-detector read models/boxes_int8.xml instead of "
                                   "models/boxes.onnx while it was made from that file.")
    p.add_argument("--calibration", required=True, nargs="+", metavar="DATA.yaml",
                   help="training dataset YAML(s) from 'guandan dataset build'")
    p.add_argument("--boxes", default="models/boxes.onnx",
                   help="the box refiner to quantize (default models/boxes.onnx)")
    p.add_argument("--out", default="models/boxes_int8.xml",
                   help="OpenVINO model to write (default models/boxes_int8.xml, weights beside it as .bin)")
    p.add_argument("--patches", type=int, default=6400, help="calibration patches (default 6400)")
    p.add_argument("--images", type=int, default=2500, help="training images cut per dataset at most (default 2500)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_quantize_boxes)

    p = sub.add_parser("train-boxes", help="train the box refiner (tight boxes around found indices)",
                       description="Run the finder over built datasets, cut a patch around each legible labelled "
                                   "index from the finder's box and from shaken copies of the label's box, and "
                                   "train the small network that draws the index's box again from that patch; "
                                   "writes ONNX and a JSON of figures beside it.")
    p.add_argument("--data", required=True, nargs="+",
                   help="dataset YAML(s) from 'guandan dataset build'; validation on the first's val images")
    p.add_argument("--out", default="models/boxes.onnx", help="ONNX file to write (default models/boxes.onnx)")
    p.add_argument("--finder", help="finder whose boxes are refined (default the committed one)")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--shakes", type=int, default=1, help="shaken label boxes cut per index (default 1)")
    p.add_argument("--after", metavar="REFINER",
                   help="train a second look: every box is first drawn again by this refiner (as the committed one "
                        "was: models/boxes_int8.xml) and the patch cut around what it drew (write it as "
                        "models/boxes_second.onnx)")
    p.add_argument("--pad", type=float,
                   help="the patch's margin around the box, a share of its longer side (default 0.2; "
                        "0.1 with --after, whose boxes are already close)")
    p.add_argument("--min-sharp", type=float, default=4.0,
                   help="leave out indices in images with fewer sharp px/cm of table (default 4; 0 keeps all)")
    p.add_argument("--min-visible", type=float, default=0.8,
                   help="leave out indices less visible than this share (default 0.8)")
    p.add_argument("--start", help="go on from these weights (the .pt beside an earlier refiner)")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (default 0.003)")
    p.add_argument("--threads", type=int, default=1, help="CPU threads for training (default 1)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_train_boxes)

    p = sub.add_parser("train-suits", help="train the suit reader (a card's suit from its index and pips)",
                       description="Render rows of upright cards in training deck styles, cut the area right of "
                                   "and below each corner index (where a 4-10 shows its pips) and train the small "
                                   "network that says which suit it shows; then measure, on held-out deck styles, "
                                   "the index reader alone against both readers together. Writes ONNX and a JSON "
                                   "of figures beside it.")
    p.add_argument("--out", default="models/suits.onnx", help="ONNX file to write (default models/suits.onnx)")
    p.add_argument("--scenes", type=int, default=20000, help="rendered training scenes (default 20000)")
    p.add_argument("--val-scenes", type=int, default=800, help="scenes of training styles to pick the best epoch")
    p.add_argument("--heldout-scenes", type=int, default=1500, help="scenes of held-out styles measured at the end")
    p.add_argument("--cache", help="folder keeping the rendered patches, to train again without rendering")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (default 0.003)")
    p.add_argument("--start", help="go on from these weights (the .pt beside an earlier suit reader)")
    p.add_argument("--reader", default="models/reader.onnx", help="the index reader measured with it")
    p.add_argument("--reach", type=float, nargs=4, metavar=("LEFT", "TOP", "RIGHT", "BOTTOM"),
                   help="the area read, in index-box sides from the box's top-left corner (default -0.15 -0.15 "
                        "1.35 1.85); stored in the model")
    p.add_argument("--size", type=int, nargs=2, metavar=("WIDTH", "HEIGHT"),
                   help="the patch in pixels, at least 8 each way (default 36 48)")
    p.add_argument("--workers", type=int, default=2, help="processes rendering scenes (default 2)")
    p.add_argument("--threads", type=int, default=1, help="CPU threads for training (default 1)")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(func=cmd_train_suits)

    p = sub.add_parser("quantize-suits", help="the suit reader in 8 bits (faster, for OpenVINO)",
                       description="Quantize the suit reader to 8 bits with NNCF, calibrated on rows of cards in "
                                   "training deck styles rendered for it as train-suits renders them (never "
                                   "held-out styles); its first convolution and its head stay in full precision. "
                                   "Writes an OpenVINO model (.xml and .bin) and a JSON of how it was made; the "
                                   "detector reads models/suits_int8.xml instead of models/suits.onnx while it was "
                                   "made from that file.")
    p.add_argument("--suits", default="models/suits.onnx",
                   help="the suit reader to quantize (default models/suits.onnx)")
    p.add_argument("--out", default="models/suits_int8.xml",
                   help="OpenVINO model to write (default models/suits_int8.xml, weights beside it as .bin)")
    p.add_argument("--scenes", type=int, default=1000, help="rendered rows to calibrate on (default 1000)")
    p.add_argument("--val-scenes", type=int, default=200,
                   help="rendered rows (other seeds) the two readers are compared on (default 200)")
    p.add_argument("--patches", type=int, default=6400, help="calibration patches (default 6400)")
    p.add_argument("--workers", type=int, default=2, help="processes rendering rows (default 2)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_quantize_suits)

    p = sub.add_parser("export", help="export weights to ONNX and OpenVINO for the live loop")
    p.add_argument("weights", help="trained .pt")
    p.add_argument("--out", default="models", help="folder (default models/)")
    p.add_argument("--imgsz", type=int, default=320,
                   help="the input size (default 320: the zone finder, whose OpenVINO folders also hold a free-shape "
                        "twin, whole/, that looks at a whole seat zone at once; 640: whole photos' finder)")
    p.add_argument("--formats", nargs="+", default=["onnx", "openvino"], choices=["onnx", "openvino", "openvino-int8"],
                   help="backends to write (default onnx openvino); openvino-int8 is quantized, the live loop's "
                        "first choice when present")
    p.add_argument("--calibration", metavar="DATA.yaml",
                   help="for openvino-int8: a built dataset whose training images (training deck styles) calibrate the "
                        "quantization (300 of them)")
    p.set_defaults(func=cmd_export)

    eval_text = ("mAP, card-level accuracy and confusions on a built dataset: for every labelled index, for the "
                 "legible ones (fully visible, photographed at >= 8 sharp px/cm; the others are ignored, not "
                 "counted as misses), then read right band by band: photograph sharpness, index size, the "
                 "suit sign's height in sharp pixels (the legible ones and all fully visible), the index's turn")
    detect_text = ("find card indices in photos of any size: a photo bigger than the finder's input is searched "
                   "tile by tile at every scale from the whole photo in one input down to its own pixels, and "
                   "every index found is read at full resolution")
    for name, func, helptext, text in (("detect", cmd_detect, "find card indices in photos", detect_text),
                                       ("eval-detector", cmd_eval, "mAP, card-level accuracy and confusions",
                                        eval_text)):
        p = sub.add_parser(name, help=helptext, description=text)
        if name == "detect":
            p.add_argument("images", nargs="+", metavar="IMAGE")
            p.add_argument("--annotate", metavar="DIR", help="write each image with its boxes drawn here")
            p.add_argument("--imgsz", type=int, default=640,
                           help="the finder's input size, and its tiles' on a bigger photo (default 640)")
        else:
            p.add_argument("data", help="dataset YAML")
            p.add_argument("--split", default="val", choices=["train", "val", "test"])
            p.add_argument("--imgsz", type=int, default=320,
                           help="the finder's input size (default 320); bigger images are searched as "
                                "'guandan detect' searches photos")
        p.add_argument("--weights", help="finder (.pt, .onnx or an OpenVINO folder; default: the committed one)")
        p.add_argument("--reader", help="reader (.onnx, or an 8-bit .xml from quantize-reader; default: the one "
                                        "beside the finder, else the committed one, the 8-bit one first)")
        p.add_argument("--boxes", action="append", metavar="REFINER",
                       help="box refiner (.onnx, or an 8-bit .xml from quantize-boxes); given again, a further "
                            "refiner drawing the box once more from the one before's; default: the committed "
                            "refiner and its second look (models/boxes_second.*), the 8-bit ones first")
        p.add_argument("--finder-boxes", action="store_true",
                       help="give the finder's own boxes, not redrawn by the box refiner")
        p.add_argument("--views", type=int, choices=[1, 2, 4],
                       help="how many ways the finder looks at each image: 4 at each quarter turn, 2 as it is "
                            "and half turned, 1 as it is; each view takes one finder's time. Default: 4 at "
                            "--imgsz 320 (zones: about 2 more indices in 100 read right), 1 at larger sizes "
                            "(whole photos, where more views found more but scored no better; models/README.md)")
        p.add_argument("--as-laid", action="store_true",
                       help="read each index only as it lies and upside down, not also a quarter turn round "
                            "(half the reader's time; for images whose cards all lie upright or upside down)")
        p.add_argument("--conf", type=float, default=0.25, help="confidence threshold (default 0.25)")
        if name == "eval-detector":
            p.add_argument("--failures", metavar="DIR",
                           help="write a close-up of every index read wrong, missed, made up or read twice "
                                "(the legible ones where the dataset has sidecars: as the figures count them) "
                                "and failures.csv listing them into this folder")
        p.add_argument("--json", action="store_true", help="JSON output")
        p.set_defaults(func=func)
