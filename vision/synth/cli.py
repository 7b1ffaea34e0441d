"""``guandan dataset build RECIPE --out DIR [--workers N]``: render a synthetic dataset.

Registered by ``add_parser(subparsers)``. A missing or broken recipe, or an output folder
that is not ours to overwrite, ends with one line on stderr and exit status 2 (caught
here, as ``scorer.tournament_cli`` does, so it holds under ``python -m scorer.cli`` too).
"""

from __future__ import annotations

import argparse
import os
import sys

from vision.synth.build import build
from vision.synth.recipe import RecipeError


def cmd_build(args: argparse.Namespace) -> None:
    if args.workers is not None and args.workers < 1:
        print("guandan: --workers must be at least 1", file=sys.stderr)
        raise SystemExit(2)
    try:
        summary = build(args.recipe, args.out, progress=not args.quiet, workers=args.workers)
    except RecipeError as exc:
        print(f"guandan: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except OSError as exc:
        print(f"guandan: {args.out}: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    counts = ", ".join(f"{split} {n} images / {summary.labels[split]} labels" for split, n in summary.images.items())
    print(f"{summary.out_dir / 'data.yaml'}: {counts} ({summary.rate:.1f} images/s)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Register ``guandan dataset`` and its ``build`` action."""
    top = subparsers.add_parser(
        "dataset", help="synthetic training data for the card detector",
        description="Render synthetic seat-zone images of Guandan plays with YOLO labels of every visible "
                    "corner index, from a recipe (datasets/*.yaml).")
    actions = top.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = actions.add_parser(
        "build", help="render a dataset from a recipe",
        description="Write images/{train,val}, labels/{train,val} and data.yaml (an ultralytics dataset) "
                    "to --out. The same recipe always gives the same labels.")
    p.add_argument("recipe", help="the recipe (YAML), e.g. datasets/zones-train.yaml")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (new, empty, or an earlier build)")
    p.add_argument("--workers", type=int, metavar="N",
                   help=f"worker processes (default {min(2, os.cpu_count() or 1)}: one per core, at most two)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_build)
