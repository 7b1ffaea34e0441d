"""``guandan train``, ``train-reader``, ``train-boxes`` and ``train-suits``: the detector's
networks trained (the finder, the index reader, the box refiner, the suit reader), each
command's options checked before minutes of rendering or cutting patches.

torch, and the training and detector code, are imported inside the commands that use them:
every ``guandan`` command (``--help`` too) loads this module, and torch alone takes seconds."""

from __future__ import annotations

import argparse
import json
from argparse import Namespace
from pathlib import Path

import numpy as np

from vision.cli.extras import needs_training
from vision.cli.inputs import VisionError, datasets, default_weights, lang_option


def _training_device(name: str) -> str:
    """``--device`` checked: the CPU, or an accelerator torch can see (``cuda``, ``cuda:1``)."""
    import torch  # lazy: torch takes seconds to load

    if name == "cpu":
        return name
    if not name.startswith("cuda"):
        raise VisionError("device_name", name=name)
    if not torch.cuda.is_available():
        raise VisionError("no_cuda", name=name)
    index = name.partition(":")[2]
    if index and (not index.isdigit() or int(index) >= torch.cuda.device_count()):
        raise VisionError("cuda_count", name=name, count=torch.cuda.device_count())
    return name


def _sets_and_start(args: Namespace, missing: str) -> tuple[list[Path], Path | None]:
    """A patch model's training datasets (``--data``) and the weights it goes on from
    (``--start``; ``missing``: the refusal's code if they are not there), each checked to
    exist before minutes of cutting patches."""
    sets = datasets(args.data)
    start = Path(args.start) if args.start else None
    if start is not None and not start.exists():
        raise VisionError(missing, path=start)
    return sets, start


def _teacher(args: Namespace, widths: tuple[int, ...] | None) -> Path | None:
    """``train-reader --teacher``'s reader weights, checked before minutes of cutting patches."""
    import torch  # lazy: torch takes seconds to load

    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.training.reader_net import widths_of

    if not args.teacher:
        return None
    teacher = Path(args.teacher)
    if not teacher.exists():
        raise VisionError("no_reader_weights", path=teacher)
    if Path(args.out).with_suffix(".pt").resolve() == teacher.resolve():
        raise VisionError("teacher_overwritten", out=args.out, teacher=teacher)
    given = widths_of(torch.load(teacher, map_location="cpu", weights_only=True))
    if widths is not None and any(w > t for w, t in zip(widths, given, strict=True)):
        raise VisionError("widths_teacher", widths=" ".join(map(str, widths)), given=" ".join(map(str, given)))
    return teacher


def cmd_train(args: Namespace) -> None:
    needs_training("train", "torch", "ultralytics")
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.training.train import TrainError, train

    device = _training_device(args.device)
    if args.workers < 0:
        raise VisionError("workers_negative")
    try:
        best = train(args.data, args.out, model=args.model, epochs=args.epochs, imgsz=args.imgsz, batch=args.batch,
                     resume=args.resume, fraction=args.fraction, hours=args.hours, lr0=args.lr0, device=device,
                     workers=args.workers)
    except TrainError as exc:
        raise VisionError("training_failed", why=exc) from None
    print(f"best weights: {best}")


def cmd_train_reader(args: Namespace) -> None:
    needs_training("train-reader", "torch")
    import torch  # lazy: torch takes seconds to load

    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.live.reader import PAD, IndexReader
    from vision.training.evaluate import Legibility
    from vision.training.reader_net import check_widths, widths_of
    from vision.training.reader_train import cut_patches, cut_sets, join_patches, train_reader

    pad = PAD if args.pad is None else args.pad
    if not 0.0 <= pad <= 3.0:
        raise VisionError("pad_framing", pad=pad)
    if not 0.0 <= args.blur <= 1.0:
        raise VisionError("blur_share", blur=args.blur)
    if args.real and not _has_labelled_photos(Path(args.real)):  # before minutes of cutting patches
        raise VisionError("no_real_photos", folder=args.real)
    sets, start = _sets_and_start(args, "no_reader_weights")
    widths = tuple(args.widths) if args.widths else None
    if widths is not None:  # checked before minutes of cutting patches
        shown = " ".join(map(str, widths))
        try:
            check_widths(widths)
        except ValueError:
            raise VisionError("widths_empty", widths=shown) from None
    if widths is not None and start is not None:
        was = widths_of(torch.load(start, map_location="cpu", weights_only=True))
        try:
            check_widths(widths, was)
        except ValueError:
            raise VisionError("widths_narrower", widths=shown, start=start, was=" ".join(map(str, was))) from None
    if args.strided and start is not None:
        raise VisionError("strided_start")
    teacher = _teacher(args, widths)
    device = _training_device(args.device)
    if args.batch < 1 or args.workers < 1 or (args.minutes is not None and args.minutes <= 0):
        raise VisionError("reader_counts")
    torch.set_num_threads(args.threads)
    readable = Legibility(min_sharp=args.min_sharp, min_visible=args.min_visible)
    log = lambda line: print(line, flush=True)  # noqa: E731
    train = cut_sets(sets, "train", copies=args.copies, seed=args.seed, legibility=readable, pad=pad,
                     workers=args.workers, log=log)
    val = cut_sets(sets, "val", copies=1, seed=args.seed + 100, legibility=readable, pad=pad,
                   workers=args.workers, log=log)
    if args.real:
        train = join_patches([train, _real_photo_patches(Path(args.real), args, pad, log)])
    if not len(train.classes) or not len(val.classes):
        raise VisionError("nothing_to_learn")
    figures = train_reader(train, val, Path(args.out), epochs=args.epochs, seed=args.seed, start=start, lr=args.lr,
                           log=log, pad=pad, widths=widths, strided=args.strided, teacher=teacher,
                           reads=args.reads, device=device, batch=args.batch, minutes=args.minutes,
                           blur=args.blur)
    if args.heldout:
        held = cut_patches(Path(args.heldout), "val", jitter=False, pad=pad)
        reader = IndexReader(args.out)
        probs = reader.probabilities(held.images)
        figures["heldout_exact_box_accuracy"] = float((probs.argmax(1) == held.classes).mean())
        print(f"held-out styles, exact boxes: {figures['heldout_exact_box_accuracy']:.4%} of "
              f"{len(held.classes)} indices read right")
    Path(args.out).with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(f"reader written: {args.out}")


def _has_labelled_photos(folder: Path) -> bool:
    from vision.training.real_photos import labelled_photos

    return folder.is_dir() and bool(labelled_photos(folder))


def _real_photo_patches(folder: Path, args: Namespace, pad: float, log):
    """Patches of the real photos in ``folder`` (``vision.training.real_patches``), named by
    the committed 640 finder and reader."""
    from vision.live.detector import CardDetector, committed_finder
    from vision.training.real_patches import real_patches

    detector = CardDetector(committed_finder(640), imgsz=640, sideways=True)
    found = real_patches(folder, detector, copies=args.real_copies, seed=args.seed, pad=pad)
    log(f"real photos: {len(found.classes):,} patches from {folder}")
    return found


def cmd_train_boxes(args: Namespace) -> None:
    needs_training("train-boxes", "torch")
    import torch  # lazy: torch takes seconds to load

    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.live.box_refiner import SECOND_LOOK_PAD, BoxRefiner
    from vision.live.detector import CardDetector, DetectorError
    from vision.live.reader import PAD, ReaderError
    from vision.training.box_train import cut_box_patches, join, train_boxes
    from vision.training.evaluate import Legibility

    sets, start = _sets_and_start(args, "no_boxes_weights")
    if args.epochs < 1 or args.shakes < 0:
        raise VisionError("boxes_counts")
    if args.pad is not None and not 0 <= args.pad <= 1:
        raise VisionError("pad_share")
    pad = args.pad if args.pad is not None else SECOND_LOOK_PAD if args.after else PAD
    try:
        finder = CardDetector(args.finder or default_weights(320), imgsz=320)
        after = BoxRefiner(Path(args.after)) if args.after else None
    except (DetectorError, ReaderError) as exc:
        raise VisionError("model_unusable", why=exc) from None
    torch.set_num_threads(args.threads)
    readable = Legibility(min_sharp=args.min_sharp, min_visible=args.min_visible)
    train = join([cut_box_patches(d, "train", finder=finder, shakes=args.shakes, seed=args.seed + i,
                                  legibility=readable, pad=pad, after=after) for i, d in enumerate(sets)])
    val = cut_box_patches(sets[0], "val", finder=finder, shakes=args.shakes, seed=args.seed + 100,
                          legibility=readable, pad=pad, after=after)
    if not len(train) or not len(val):
        raise VisionError("nothing_to_learn")
    figures = train_boxes(train, val, Path(args.out), epochs=args.epochs, lr=args.lr, seed=args.seed, start=start,
                          pad=pad, log=lambda line: print(line, flush=True))
    if after is not None:
        figures["after"] = after.path.name
    Path(args.out).with_suffix(".json").write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(f"box refiner written: {args.out}")


def cmd_train_suits(args: Namespace) -> None:
    needs_training("train-suits", "torch")
    import torch  # lazy: torch takes seconds to load

    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.live.reader import IndexReader
    from vision.live.suit_reader import VIEW, SuitReader, View
    from vision.training.suit_train import load, measure, render_patches, save, train

    if min(args.scenes, args.val_scenes, args.heldout_scenes, args.epochs) < 1:
        raise VisionError("suits_counts")
    view = View(tuple(args.reach) if args.reach else VIEW.reach, *(args.size or (VIEW.width, VIEW.height)))
    try:
        view.check()
    except ValueError as exc:
        raise VisionError("reach_size", why=exc) from None
    start = Path(args.start) if args.start else None
    if start is not None and not start.exists():
        raise VisionError("no_suits_weights", path=start)
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


def add_train_parser(sub: argparse._SubParsersAction) -> None:
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
    lang_option(p)
    p.set_defaults(func=cmd_train)


def add_train_reader_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train-reader", help="train the index reader (which card each found index is)",
                       description="Cut patches around every labelled corner index of a built dataset (turned, "
                                   "shifted, plus patches of no index) and train the small network that reads "
                                   "them; writes ONNX and a JSON of figures beside it.")
    p.add_argument("--data", required=True, nargs="+", help="dataset YAML(s) from 'guandan dataset build'")
    p.add_argument("--out", default="models/reader.onnx", help="ONNX file to write (default models/reader.onnx)")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--copies", type=int, default=2, help="patches cut per labelled index (default 2)")
    p.add_argument("--pad", type=float,
                   help="how much wider than the index's box a patch is cut (default 0.2, vision.live.reader.PAD; 0.8 "
                        "shows the first pip beside or below the index too); stored in the reader")
    p.add_argument("--min-sharp", type=float, default=4.0,
                   help="leave out indices in images with fewer sharp px/cm of table (default 4; 0 keeps all)")
    p.add_argument("--min-visible", type=float, default=0.8,
                   help="leave out indices less visible than this share (default 0.8)")
    p.add_argument("--heldout", help="dataset YAML of held-out deck styles, measured at the end")
    p.add_argument("--real", metavar="DIR",
                   help="real photos with Pascal VOC boxes of whole cards named by rank (e.g. "
                        "../shared/realphotos/edje/train): each index the committed detector finds in a card is cut "
                        "and named by that rank and the reader's likeliest suit of it")
    p.add_argument("--real-copies", type=int, default=4, help="patches cut per real index (default 4)")
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
    p.add_argument("--blur", type=float, default=0.5,
                   help="share of training patches blurred as a table camera blurs them: defocus, a motion smear, "
                        "too few pixels (default 0.5; 0: none)")
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
    lang_option(p)
    p.set_defaults(func=cmd_train_reader)


def add_train_boxes_parser(sub: argparse._SubParsersAction) -> None:
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
    lang_option(p)
    p.set_defaults(func=cmd_train_boxes)


def add_train_suits_parser(sub: argparse._SubParsersAction) -> None:
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
    lang_option(p)
    p.set_defaults(func=cmd_train_suits)
