#!/usr/bin/env bash
# pcv classify --ground --noise of a terrain of COLS x ROWS tiles of POINTS points each
# (bench/make-tiles.py: a wavy terrain at UTM-like coordinates, made once), the tiles classified
# together into one LAS file, on each device named (cuda, cpu), and the figures of each run's
# --report: where the filters ran, the points, ground and noise, and the seconds of reading,
# classifying and writing. The outputs of the devices are compared byte for byte, then removed.
#   classify-terrain.sh PCV WORKDIR [COLS ROWS POINTS [DEVICES]]
#   (defaults: 40 25 100000 "cuda cpu": 1 000 tiles, 100 M points; env CLASSIFY_ARGS: more
#   pcv classify arguments, such as --memory 100G for a billion points classified together)
set -euo pipefail
pcv=${1:?usage: classify-terrain.sh PCV WORKDIR [COLS ROWS POINTS [DEVICES]]}
work=${2:?usage: classify-terrain.sh PCV WORKDIR [COLS ROWS POINTS [DEVICES]]}
cols=${3:-40} rows=${4:-25} points=${5:-100000} devices=${6:-cuda cpu}
here=$(cd "$(dirname "$0")" && pwd)
tiles="$work/terrain-${cols}x${rows}x${points}"
if [ ! -d "$tiles" ]; then
  python3 "$here/make-tiles.py" "$tiles" "$cols" "$rows" "$points" >/dev/null
fi
outputs=()
for device in $devices; do
  out="$work/classified-$device.las"
  rm -f "$out"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$pcv" classify "$tiles"/*.las "$out" --ground --noise --device "$device" \
    --report "$work/classify-$device.json" ${CLASSIFY_ARGS:-} >/dev/null
  end=$(date +%s.%N)
  python3 - "$work/classify-$device.json" "$start" "$end" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["classify"]
wall = float(sys.argv[3]) - float(sys.argv[2])
print(f"{r['device']}: {r['points']} points, {r['ground']} ground, {r['noise']} noise; "
      f"read {r['readSeconds']:.2f} s, classify {r['classifySeconds']:.2f} s, "
      f"write {r['writeSeconds']:.2f} s, wall {wall:.2f} s")
PY
  outputs+=("$out")
done
if [ ${#outputs[@]} -gt 1 ]; then
  for other in "${outputs[@]:1}"; do
    if cmp -s "${outputs[0]}" "$other"; then
      echo "$(basename "${outputs[0]}") and $(basename "$other"): identical"
    else
      echo "$(basename "${outputs[0]}") and $(basename "$other"): DIFFER"
    fi
  done
fi
rm -f "${outputs[@]}"
