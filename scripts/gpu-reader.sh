#!/usr/bin/env bash
# The index reader trained on a lent machine with an NVIDIA accelerator and many cores
# (docs/experiments.md, 2026-12-04). Fresh training decks are rendered there, one
# process a core; their patches are cut likewise; the committed reader is widened (Net2Net:
# it first reads exactly as before) and trained on the accelerator for what is left of the
# run's time budget (MINUTES, rendering included), the epochs fitted to it. The best epoch's weights land in OUT as they are found, so a run cut
# short keeps them; quantize and measure them here afterwards (models/README.md).
#
# Usage: scripts/gpu-reader.sh OUT MINUTES RECIPE...
#   e.g. scripts/gpu-reader.sh /tmp/out 5 datasets/zones-train-h.yaml datasets/zones-train-i.yaml
# Needs python3 with torch, OpenCV, Pillow, PyYAML, onnx and tqdm (not the scorer's other packages:
# it runs `python -m vision`), and the training fonts (scripts/system-packages.sh).
# On the lent machines (as of 2026-12-04): a call carries at most 64 MiB and the
# tracked tree is a little over, so move the model files other than models/reader.pt aside for
# the call; the machine has no fonts of ours, so carry the training fonts this machine draws
# (vision.synth.fonts.fonts_for("train", ...) under /usr, 13 MB as .tar.xz) in a folder that
# .git/info/exclude ignores and unpack them to / before this script.
# Environment: DEVICE (default cuda), WIDTHS (default "16 32 128 192"), LR (default 0.002),
# BATCH (default 512), WORK (rendered data, default /tmp/gpu-reader), PYTHON (default python3).
set -euo pipefail
. "$(dirname "$0")/gpu-common.sh" "$@"
# what is left of the budget, less a minute for cutting the patches and writing the reader
left=$("$python" -c "print(max(0.5, $minutes - ($(date +%s) - $began) / 60 - 1))")
echo "training for $left minutes"
# shellcheck disable=SC2086  # WIDTHS is four numbers
"$python" -m vision train-reader --data "${sets[@]}" --start models/reader.pt --widths ${WIDTHS:-16 32 128 192} \
  --lr "${LR:-0.002}" --epochs 60 --minutes "$left" --batch "${BATCH:-512}" --device "${DEVICE:-cuda}" \
  --workers "$cores" --threads "$cores" --seed 26 --out "$out/reader.onnx"
