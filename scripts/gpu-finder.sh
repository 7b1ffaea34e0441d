#!/usr/bin/env bash
# The index finder trained on a lent machine with an NVIDIA accelerator and many cores
# (docs/experiments.md, 2026-12-04). The finder was only ever trained on our two
# cores, about fifteen epochs on 2,800 training deck styles; here fresh training decks are
# rendered one process a core and the committed finder is trained on from its weights on the
# accelerator for what is left of a time budget (MINUTES, rendering included: ultralytics'
# `time` fits the schedule to it). The best and last weights and the results table are
# copied to OUT every half minute while it trains, so a run cut short keeps them; export,
# quantize and measure them here afterwards (models/README.md).
#
# Usage: scripts/gpu-finder.sh OUT MINUTES RECIPE...
#   e.g. scripts/gpu-finder.sh /tmp/out 8 datasets/zones-train.yaml datasets/zones-train-h.yaml
#   (validation is on the first recipe's val images)
# Needs python3 with torch, torchvision, OpenCV, Pillow, PyYAML, matplotlib and ultralytics
# (ultralytics and ultralytics-thop travel as wheels: the lent machine has no ultralytics),
# and the training fonts (scripts/system-packages.sh). ultralytics imports polars only to
# read its results table back into the checkpoint; polars' wheels (54 MB) and our fonts are
# more than a call carries (64 MiB), so where polars is missing a stand-in that declines is
# put on the path, and the checkpoint then holds no copy of the results table (results.csv
# beside it still does). As for scripts/gpu-reader.sh: move the model files other than
# models/finder.pt aside for the call and carry the fonts (.devfonts/fonts.tar.xz, unpacked to /).
# Environment: DEVICE (default cuda), START (default models/finder.pt), LR (default 0.001),
# BATCH (default 256), WORKERS (processes loading images, default one a core), WORK (rendered
# data, default /tmp/gpu-finder), PYTHON (default python3). Arguments, folders and rendering:
# scripts/gpu-common.sh, shared with scripts/gpu-reader.sh.
set -euo pipefail
. "$(dirname "$0")/gpu-common.sh" "$@"
if ! "$python" -c "import polars" 2>/dev/null; then
  mkdir -p "$work/standin/polars"
  cat >"$work/standin/polars/__init__.py" <<'EOF'
"""A stand-in for polars on a machine without it: ultralytics reads its results table back
with polars only to store it in the checkpoint, and treats a failed read as no table."""


def read_csv(*_args, **_kwargs):
    raise NotImplementedError("polars is not installed here")
EOF
  export PYTHONPATH="$work/standin${PYTHONPATH:+:$PYTHONPATH}"
  echo "polars missing: a stand-in declines to read results tables"
fi
# what is left of the budget, less a minute for the final validation and the copies
hours=$("$python" -c "print(max(0.02, ($minutes - ($(date +%s) - $began) / 60 - 1) / 60))")
echo "training for $hours hours"
run=$work/run
keep() {
  for f in weights/best.pt weights/last.pt results.csv; do
    [ -f "$run/$f" ] && cp -f "$run/$f" "$out/" || true
  done
}
"$python" -m vision train --data "${sets[@]}" --model "${START:-models/finder.pt}" --out "$run" \
  --hours "$hours" --epochs 300 --batch "${BATCH:-256}" --lr0 "${LR:-0.001}" --device "${DEVICE:-cuda}" \
  --workers "${WORKERS:-$cores}" >"$out/train.log" 2>&1 &
trainer=$!
while kill -0 "$trainer" 2>/dev/null; do
  sleep 30
  keep
done
status=0
wait "$trainer" || status=$?
keep
tr '\r' '\n' <"$out/train.log" | tail -n 25
[ -f "$out/results.csv" ] && cat "$out/results.csv"
echo "finished in $(( $(date +%s) - began )) s"
exit "$status"
