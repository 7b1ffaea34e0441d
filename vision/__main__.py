"""``python -m vision``: the camera side's commands alone, without the rest of the scorer.

A machine lent for training (an accelerator, many cores, torch and OpenCV installed, but
none of the web, serial or broker packages the ``guandan`` command pulls in) can then
render datasets and train on them from a plain checkout: ``python -m vision dataset build
…``, ``python -m vision train-reader …`` (``scripts/gpu-reader.sh``). The commands, their
options and their errors are the ``guandan`` ones.
"""

from __future__ import annotations

import argparse
import sys

from vision.cli import VisionError, add_parsers
from vision.cli.extras import training_missing
from vision.synth.cli import add_parser


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vision",
        description="The card detector's commands (datasets, training, evaluation, detection) without the "
                    "scorer's other packages: for a training machine. The same as 'guandan COMMAND'.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_parser(sub)
    add_parsers(sub)
    args = parser.parse_args(argv)
    lang = getattr(args, "lang", "zh")
    try:
        args.func(args)
    except VisionError as exc:  # in the operator's language first (--lang), as guandan prints it
        print(f"guandan: {exc.text(lang)}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:  # torch, ultralytics … not installed (vision.cli.extras)
        missing = training_missing(exc, args.command)
        if missing is None:
            raise
        print(f"guandan: {missing.text(lang)}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
