#!/usr/bin/env bash
# Runs the renderer benchmarks behind bench/RESULTS.md on a machine with an NVIDIA GPU.
# Usage: bench/run-targets.sh BUILD_DIR OUT_DIR
# Writes OUT_DIR/bench.txt (the tables) and OUT_DIR/bench-json.tar (one JSON file per run).
set -euo pipefail
build=${1:?usage: run-targets.sh BUILD_DIR OUT_DIR}
out=${2:?usage: run-targets.sh BUILD_DIR OUT_DIR}
pcv="$build/app/pcv"
mkdir -p "$out"
json=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/bench.txt"
run() {  # name, then pcv bench arguments
  local name=$1
  shift
  echo "== pcv bench $*" | tee -a "$out/bench.txt"
  "$pcv" bench --backend cuda --json "$json/bench-$name.json" "$@" 2>&1 | tee -a "$out/bench.txt"
}
run 10M-720p --points 10000000 --size 1280x720
run 100M-1080p --points 100000000 --size 1920x1080
run 1B-1080p-compact --points 1000000000 --size 1920x1080 --compact-only --frames 100
run 1B-1080p-earlyz --points 1000000000 --size 1920x1080 --order original --methods earlyz --frames 50
# The same frames timed whole, with no timing events between the stages.
run 10M-720p-whole --points 10000000 --size 1280x720 --order morton --methods compact --whole-frames
run 100M-1080p-whole --points 100000000 --size 1920x1080 --order morton --methods compact --whole-frames
run 1B-1080p-whole --points 1000000000 --size 1920x1080 --compact-only --frames 100 --whole-frames
tar -C "$json" -cf "$out/bench-json.tar" .
