#!/usr/bin/env bash
# The first image of a dataset of tiles: makes 1 000 LAS tiles (40 x 25, 5 000 points each), their
# LAZ copies (chunks of 500 points, so each tile has 10 chunk first points) and COPC copies, then
# times
# `pcv info DIR` (the header index) and, from the start of `pcv render DIR`, when it says the
# first image and the converged one were drawn. Usage: dataset-first-image.sh PCV WORKDIR
set -euo pipefail
pcv=${1:?usage: dataset-first-image.sh PCV WORKDIR}
work=${2:?usage: dataset-first-image.sh PCV WORKDIR}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -d "$work/las" ]; then python3 "$here/make-tiles.py" "$work/las" 40 25 5000; fi
if [ ! -d "$work/laz" ]; then
  mkdir -p "$work/laz"
  for tile in "$work"/las/*.las; do
    "$pcv" convert --chunk-size 500 "$tile" "$work/laz/$(basename "$tile" .las).laz" >/dev/null
  done
fi
if [ ! -d "$work/copc" ]; then
  mkdir -p "$work/copc"
  for tile in "$work"/las/*.las; do
    "$pcv" convert "$tile" "$work/copc/$(basename "$tile" .las).copc.laz" >/dev/null
  done
fi
now() { date +%s.%N; }
for set in las laz copc; do
  start=$(now)
  "$pcv" info "$work/$set" --report "$work/$set-info.json" >/dev/null
  echo "$set: header index of $(ls "$work/$set" | wc -l) tiles: $(echo "$(now) - $start" | bc) s"
  start=$(now)
  "$pcv" render "$work/$set" --backend cpu --size 1280x720 --out "$work/$set.png" \
      --report "$work/$set-render.json" 2>&1 |
    while IFS= read -r line; do
      case "$line" in
        *"first image"* | *converged*) echo "$set: $(echo "$(now) - $start" | bc) s: $line" ;;
      esac
    done
done
