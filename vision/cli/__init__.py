"""The card detector's commands, registered by ``add_parsers(subparsers)`` for ``guandan``
(``scorer.cli``) and ``python -m vision``; each area's module holds its commands and their
parsers:

- ``render``: ``render-game``; ``stage``: ``render-stage`` (the second world);
- ``calibrate``: ``markers`` and ``calibrate``;
- ``train``: ``train``, ``train-reader``, ``train-boxes`` and ``train-suits``;
- ``quantize``: ``quantize-reader``, ``quantize-boxes``, ``quantize-suits`` and ``export``;
- ``detect``: ``detect``; ``evaluate``: ``eval-detector``; ``enroll``: ``enroll``;
- ``inputs``: the checks they share, and ``VisionError``, a user's mistake as one line on
  stderr (exit status 2).

``guandan dataset build`` is ``vision.synth.cli``'s.
"""

from __future__ import annotations

import argparse

from vision.cli import calibrate, detect, enroll, evaluate, quantize, render, stage, train
from vision.cli.inputs import VisionError, default_weights

__all__ = ["VisionError", "add_parsers", "default_weights"]


def add_parsers(sub: argparse._SubParsersAction) -> None:
    """Register every vision command, in the order ``--help`` lists them."""
    render.add_render_game_parser(sub)
    stage.add_render_stage_parser(sub)
    calibrate.add_markers_parser(sub)
    calibrate.add_calibrate_parser(sub)
    train.add_train_parser(sub)
    train.add_train_reader_parser(sub)
    quantize.add_quantize_reader_parser(sub)
    quantize.add_quantize_boxes_parser(sub)
    train.add_train_boxes_parser(sub)
    train.add_train_suits_parser(sub)
    quantize.add_quantize_suits_parser(sub)
    quantize.add_export_parser(sub)
    detect.add_detect_parser(sub)
    evaluate.add_eval_parser(sub)
    enroll.add_enroll_parser(sub)
