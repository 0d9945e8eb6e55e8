#!/usr/bin/env bash
# Runs the renderer benchmarks behind bench/RESULTS.md on a machine with an NVIDIA GPU: the CUDA
# backend, then the Vulkan backend on the same GPU (where its Vulkan driver is installed) with
# the same points, sizes and frames, so the two columns come from one call.
# Usage: bench/run-targets.sh BUILD_DIR OUT_DIR
# Writes OUT_DIR/bench.txt (the tables) and OUT_DIR/bench-json.tar (one JSON file per run).
set -euo pipefail
build=${1:?usage: run-targets.sh BUILD_DIR OUT_DIR}
out=${2:?usage: run-targets.sh BUILD_DIR OUT_DIR}
pcv="$build/app/pcv"
mkdir -p "$out"
json=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/bench.txt"
backend=cuda
run() {  # name, then pcv bench arguments
  local name=$1
  shift
  echo "== pcv bench --backend $backend $*" | tee -a "$out/bench.txt"
  "$pcv" bench --backend "$backend" --json "$json/bench-$backend-$name.json" "$@" 2>&1 |
    tee -a "$out/bench.txt"
}
run 10M-720p --points 10000000 --size 1280x720
run 100M-1080p --points 100000000 --size 1920x1080
run 1B-1080p-compact --points 1000000000 --size 1920x1080 --compact-only --frames 100
run 1B-1080p-earlyz --points 1000000000 --size 1920x1080 --order original --methods earlyz --frames 50
# The same frames timed whole, with no timing events between the stages.
run 10M-720p-whole --points 10000000 --size 1280x720 --order morton --methods compact --whole-frames
run 100M-1080p-whole --points 100000000 --size 1920x1080 --order morton --methods compact --whole-frames
run 1B-1080p-whole --points 1000000000 --size 1920x1080 --compact-only --frames 100 --whole-frames
# The Vulkan backend draws the compact layout only; a GPU device, never a software one.
"$pcv" info --devices | tee -a "$out/bench.txt"
if "$pcv" info --devices | grep -Eq '^Vulkan [0-9]+: .*\((discrete|integrated)'; then
  backend=vulkan
  run 10M-720p --points 10000000 --size 1280x720 --compact-only
  run 100M-1080p --points 100000000 --size 1920x1080 --compact-only
  run 1B-1080p-compact --points 1000000000 --size 1920x1080 --compact-only --frames 100
  run 10M-720p-whole --points 10000000 --size 1280x720 --compact-only --whole-frames
  run 100M-1080p-whole --points 100000000 --size 1920x1080 --compact-only --whole-frames
  run 1B-1080p-whole --points 1000000000 --size 1920x1080 --compact-only --frames 100 --whole-frames
else
  echo "== no Vulkan GPU: the vulkan rows are left out" | tee -a "$out/bench.txt"
fi
# The viewer's hand-over to GL at 1280x720 (headless EGL): CUDA's surface, Vulkan's memory that
# GL imported, and Vulkan through the host, each against the renderer's own frame.
present="$build/bench/pcv_present_benchmark"
if [ -x "$present" ]; then
  for pair in "cuda surface" "vulkan memory" "vulkan host"; do
    set -- $pair
    echo "== pcv_present_benchmark --backend $1 --interop $2" | tee -a "$out/bench.txt"
    "$present" --backend "$1" --interop "$2" --size 1280x720 --warmup 200 --frames 500 \
      --json "$json/present-$1-$2.json" 2>&1 | tee -a "$out/bench.txt" || true
  done
fi
tar -C "$json" -cf "$out/bench-json.tar" .
