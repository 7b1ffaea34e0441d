# Sourced by scripts/gpu-reader.sh and scripts/gpu-finder.sh, not run: their arguments (OUT
# MINUTES RECIPE...), their folders, and the training decks rendered one process a core.
# Leaves out, minutes, began (when the run began, for its time budget), work, cores, python
# and sets (the built datasets' YAMLs) to the script.
if [ $# -lt 3 ]; then
  echo "usage: $0 OUT MINUTES RECIPE..." >&2
  exit 2
fi
out=$1 minutes=$2
shift 2
began=$(date +%s)
work=${WORK:-/tmp/$(basename "$0" .sh)}
cores=$(nproc)
python=${PYTHON:-python3}
mkdir -p "$out" "$work"
sets=()
for recipe in "$@"; do
  name=$(basename "$recipe" .yaml)
  start=$(date +%s)
  "$python" -m vision dataset build "$recipe" --out "$work/$name" --workers "$cores" --quiet
  echo "$name rendered in $(( $(date +%s) - start )) s on $cores cores"
  sets+=("$work/$name/data.yaml")
done
