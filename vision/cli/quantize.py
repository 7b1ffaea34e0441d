"""``guandan quantize-reader``, ``quantize-boxes``, ``quantize-suits`` and ``export``: trained
models made ready for the live loop (8-bit OpenVINO models, the finder in ONNX and OpenVINO)."""

from __future__ import annotations

import argparse
from argparse import Namespace
from pathlib import Path

from vision.cli.extras import needs_training
from vision.cli.inputs import VisionError, datasets, lang_option


def _quantize_inputs(args: Namespace, model: str, missing: str) -> tuple[Path, list[Path], Path]:
    """What quantize-reader and quantize-boxes are given, checked before any patch is cut: the
    model (``missing``: the refusal's code if it is not there), the calibration sets and the
    output path."""
    sets = datasets(args.calibration)
    path = Path(model)
    if not path.exists():
        raise VisionError(missing, path=path)
    if args.patches < 64 or args.images < 1:
        raise VisionError("quantize_counts")
    return path, sets, Path(args.out)


def cmd_quantize_reader(args: Namespace) -> None:
    needs_training("quantize-reader", "nncf")
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.live.reader import ReaderError
    from vision.training.reader_quantize import quantize_reader

    reader, sets, out = _quantize_inputs(args, args.reader, "no_reader_model")
    try:
        figures = quantize_reader(reader, sets, out, count=args.patches, images=args.images, seed=args.seed)
    except ReaderError as exc:
        raise VisionError("model_unusable", why=exc) from None
    if figures["val_patches"]:
        print(f"validation indices of the calibration sets (training styles, exact boxes): "
              f"{figures['full_precision_right']:.2%} read right in full precision, "
              f"{figures['eight_bit_right']:.2%} in 8 bits, the two agreeing on {figures['agree']:.2%} "
              f"of {figures['val_patches']}")
    print(f"8-bit reader written: {out} (and {out.with_suffix('.bin')}, {out.with_suffix('.json')}); measure it on "
          f"held-out decks with 'guandan eval-detector DATA.yaml --reader {out}'")


def cmd_quantize_boxes(args: Namespace) -> None:
    needs_training("quantize-boxes", "nncf")
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.live.reader import ReaderError
    from vision.training.box_quantize import quantize_boxes

    boxes, sets, out = _quantize_inputs(args, args.boxes, "no_boxes_model")
    try:
        figures = quantize_boxes(boxes, sets, out, count=args.patches, images=args.images, seed=args.seed)
    except ReaderError as exc:
        raise VisionError("model_unusable", why=exc) from None
    if figures["val_patches"]:
        print(f"validation indices of the calibration sets (training styles, exact boxes): the 8-bit refiner's edges "
              f"lie {figures['mean_edge_apart']:.4f} patch sides from the full-precision one's on average "
              f"(99 % within {figures['p99_edge_apart']:.4f}; a patch pixel is {1 / 40:.3f}) over "
              f"{figures['val_patches']} patches")
    print(f"8-bit box refiner written: {out} (and {out.with_suffix('.bin')}, {out.with_suffix('.json')}); measure it "
          f"on held-out decks with 'guandan eval-detector DATA.yaml --boxes {out}' (a second look: --boxes FIRST "
          f"--boxes {out})")


def cmd_quantize_suits(args: Namespace) -> None:
    needs_training("quantize-suits", "nncf")
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.live.reader import ReaderError
    from vision.training.suit_quantize import quantize_suits

    suits = Path(args.suits)
    if not suits.exists():
        raise VisionError("no_suits_model", path=suits)
    if args.patches < 64 or min(args.scenes, args.val_scenes, args.workers) < 1:
        raise VisionError("quantize_suits_counts")
    out = Path(args.out)
    try:
        figures = quantize_suits(suits, out, scenes=args.scenes, val_scenes=args.val_scenes, count=args.patches,
                                 seed=args.seed, workers=args.workers)
    except ReaderError as exc:
        raise VisionError("model_unusable", why=exc) from None
    if figures["val_patches"]:
        print(f"rows of training styles (exact boxes): suits read right {figures['full_precision_right']:.2%} in "
              f"full precision, {figures['eight_bit_right']:.2%} in 8 bits, the two agreeing on "
              f"{figures['agree']:.2%} of {figures['val_patches']}; sure enough to be heard "
              f"{figures['full_precision_heard']:.2%} and {figures['eight_bit_heard']:.2%}")
    print(f"8-bit suit reader written: {out} (and {out.with_suffix('.bin')}, {out.with_suffix('.json')}); it is "
          f"the live loop's while it matches {suits.name} beside it")


def cmd_export(args: Namespace) -> None:
    eight_bits = ("nncf",) if "openvino-int8" in args.formats else ()
    needs_training("export", "torch", "ultralytics", "onnxslim", *eight_bits)
    # lazy: model and training code, loaded only when a command needs it (keeps guandan --help fast)
    from vision.training.train import TrainError, export

    try:
        for path in export(args.weights, args.out, imgsz=args.imgsz, formats=tuple(args.formats),
                           calibration=args.calibration):
            print(path)
    except TrainError as exc:
        raise VisionError("export_failed", why=exc) from None


def add_quantize_reader_parser(sub: argparse._SubParsersAction) -> None:
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
    lang_option(p)
    p.set_defaults(func=cmd_quantize_reader)


def add_quantize_boxes_parser(sub: argparse._SubParsersAction) -> None:
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
    lang_option(p)
    p.set_defaults(func=cmd_quantize_boxes)


def add_quantize_suits_parser(sub: argparse._SubParsersAction) -> None:
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
    lang_option(p)
    p.set_defaults(func=cmd_quantize_suits)


def add_export_parser(sub: argparse._SubParsersAction) -> None:
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
    lang_option(p)
    p.set_defaults(func=cmd_export)
