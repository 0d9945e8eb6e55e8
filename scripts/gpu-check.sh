#!/usr/bin/env bash
# Runs compute-sanitizer's four tools (memcheck with leak checking, racecheck, initcheck,
# synccheck) over `pcv render --backend cuda` with every method at several viewpoints, the
# quality modes, clipping (box, cut-away box, slab), orthographic views, a LAS file and a
# streamed COPC file; over filtered frames (`pcv bench --filter-modes`: the pass bits one frame
# writes and the next reads; filters on the LAS file); over `pcv convert --sort cuda` (the
# octree keys sorted and its levels sampled on the GPU); over the GPU LAZ decoder
# (laz_gpu_tests' device cases, and the COPC file opened in core with `--decode cuda`); and over
# the ground and noise filters on the GPU (process_gpu_tests' cases); and over the CUDA cases of
# raster_tests and stream_tests that grow, lay out and filter the pool (sets laid out ahead and
# on the device, streamed nodes sorted by the GPU), on a machine with an NVIDIA GPU. Fails when
# any tool reports anything; prints one line per run and the reports of failing runs.
# Usage: scripts/gpu-check.sh BUILD_DIR [LAS_FILE [COPC_FILE]]
#   GPU_CHECK_POINTS   cylinder points per run (default 200000)
#   GPU_CHECK_TOOLS    the tools to run (default "memcheck racecheck initcheck synccheck")
#   GPU_CHECK_JOBS     runs at once (default 8; they share the GPU)
#   GPU_CHECK_MATCH    only the runs whose line matches this extended regular expression (to
#                      repeat some)
set -uo pipefail
build=${1:?usage: gpu-check.sh BUILD_DIR [LAS_FILE [COPC_FILE]]}
pcv="$(cd "$build" && pwd)/app/pcv"
laz_tests="$(cd "$build" && pwd)/tests/io/laz_gpu_tests"
classify_tests="$(cd "$build" && pwd)/tests/process/process_gpu_tests"
raster_tests="$(cd "$build" && pwd)/tests/raster/raster_tests"
stream_tests="$(cd "$build" && pwd)/tests/stream_tests"
las=${2:-}
copc=${3:-}
points=${GPU_CHECK_POINTS:-200000}
tools=${GPU_CHECK_TOOLS:-memcheck racecheck initcheck synccheck}
jobs=${GPU_CHECK_JOBS:-8}
sanitizer=${COMPUTE_SANITIZER:-compute-sanitizer}
command -v "$sanitizer" >/dev/null || sanitizer=/usr/local/cuda/bin/compute-sanitizer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

views=(
  ""                                          # the seed's overview
  "--eye -0.8,-0.6,0.9 --yaw 35 --pitch -40"  # close up
  "--eye 0.1,0,0.05 --yaw 120 --pitch 10"     # inside the scene
  "--eye -30,12,9 --yaw -21 --pitch -16"      # far: dense batches, the pixel cache
)
qualities=(
  "--point-size 3"
  "--point-size 8 --point-shape round"
  "--world-size 0.01"
  "--fill-holes 2"
  "--edl on"
  "--hq"
  "--background-top 203040"
  "--point-size 2 --fill-holes 2 --edl on --hq"
)
clips=(
  "--clip-box -0.6,-0.5,-0.4,0.5,0.6,0.7"                      # batches kept, cut and crossed
  "--clip-box -0.6,-0.5,-0.4,0.5,0.6,0.7 --clip-keep outside"  # the box cut away
  "--clip-slab 1,2,-0.5,0.1,0,0,0.4"                           # the plane test per point
  "--clip-box -0.6,-0.5,-0.4,0.5,0.6,0.7 --point-size 3 --edl on --hq"
)

# One line per run: tool, then the pcv render arguments (split on spaces when run).
for tool in $tools; do
  for view in "${views[@]}"; do
    for method in compact earlyz packed seed; do
      echo "$tool --points $points --method $method $view"
    done
  done
  for view in "${views[0]}" "${views[3]}"; do
    for quality in "${qualities[@]}"; do echo "$tool --points $points $quality $view"; done
  done
  for view in "${views[0]}" "${views[3]}"; do
    for clip in "${clips[@]}"; do echo "$tool --points $points $clip $view"; done
  done
  # Filters: the cull's summaries, the per-point tests, and the pass bits written by one frame
  # and read by the next (bench draws every case several times); orthographic views.
  echo "$tool bench --points $points --methods compact --filter-modes every --frames 2 --warmup 1"
  echo "$tool bench --points $points --methods compact --filter-modes first,range --clip-modes box --frames 2 --warmup 1"
  echo "$tool --points $points --ortho plan --scale-bar"
  echo "$tool --points $points --ortho front --point-size 3 --edl on"
  if [ -n "$las" ]; then
    echo "$tool $las"
    echo "$tool $las --edl on --point-size 2"
    echo "$tool $las --classes 2 --returns first"
    echo "$tool $las --range intensity=10:200 --ortho plan"
  fi
  echo "$tool convert --points $points --seed 2 --node-points 5000 --sort cuda"
  if [ -n "$copc" ]; then
    echo "$tool $copc"                         # streamed: nodes come and go as sets
    echo "$tool $copc --point-budget 100000 --point-size 2 --edl on"
    echo "$tool $copc --in-core --decode cuda"  # every chunk decoded on the GPU
  fi
  # The decoder's device cases, one run each so they run side by side: the corpus, pcv's own
  # files, chunks sharing a warp, the reader's clouds and errors, broken chunks; on small files
  # and chunks (PCV_LAZ_GPU_TESTS_SMALL), as the decode of one chunk is one thread's long serial
  # loop.
  if [ -x "$laz_tests" ]; then
    for case in DecodesEveryCorpusFileAsTheCpuDoes DecodesFilesPcvWritesAsTheCpuDoes \
        ChunksSharingAWarpDecodeAsTheCpuDoes ReaderGivesTheCpusCloudsAndErrors \
        BrokenChunksAreTheCpusAndFailAlike; do
      echo "$tool laz-tests $case"
    done
  fi
  # The ground and noise filters on the GPU (each case compares with the CPU's classes).
  if [ -x "$classify_tests" ]; then
    for case in TerrainsGetTheCpusClassesOnTheGpu ALakeAndPointsThatAreNotFiniteGiveTheCpusClasses \
        ADatasetsGridWindowGivesTheCpusClasses; do
      echo "$tool classify-tests $case"
    done
  fi
  # The pool's layouts and filters, each case comparing with the CPU backend.
  if [ -x "$raster_tests" ]; then
    for case in LaidOutSet.DrawsPicksAndFiltersAsTheSetGivenWholeOnCuda \
        FilterCudaVsCpu.FilteredFramesArePixelIdentical FilterCudaVsCpu.KeptVerdictsFollowNewFilterData \
        CudaVsCpu.SetsThatComeAndGoDrawTheSameOnBothBackends SetColors.InPlaceEqualsAFreshSetWithCuda \
        ChangeClasses.SomePointsChangedEqualAFreshSetWithCuda; do
      echo "$tool raster-tests $case"
    done
  fi
  if [ -x "$stream_tests" ]; then
    echo "$tool stream-tests LoaderLayout.NodesGoUnsortedToADeviceThatLaysOutAndDrawAsTheHostsLayout"
  fi
done >"$work/runs.txt"
if [ -n "${GPU_CHECK_MATCH:-}" ]; then
  grep -E -- "$GPU_CHECK_MATCH" "$work/runs.txt" >"$work/matched.txt" || true
  mv "$work/matched.txt" "$work/runs.txt"
fi

run() {  # one line of runs.txt; prints ok or FAIL with the reports
  local tool=$1
  shift
  local extra=()
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  local log
  log=$(mktemp -p "$work")
  # Clean: the tool's exit status, and its summary (racecheck counts hazards, not errors).
  local command=(render --backend cuda --size 640x360 --out "$log.png" "$@")
  [ "${1:-}" = convert ] && command=("$@" --quiet "$log.copc.laz")
  [ "${1:-}" = bench ] && command=("$@" --backend cuda --size 640x360)
  local program=$pcv
  if [ "${1:-}" = laz-tests ]; then
    program=$laz_tests
    command=(--gtest_filter="*.$2/Device")
    export PCV_LAZ_GPU_TESTS_SMALL=1
  fi
  if [ "${1:-}" = classify-tests ]; then
    program=$classify_tests
    command=(--gtest_filter="GpuClassification.$2")
  fi
  if [ "${1:-}" = raster-tests ] || [ "${1:-}" = stream-tests ]; then
    program=$raster_tests
    [ "$1" = stream-tests ] && program=$stream_tests
    command=(--gtest_filter="$2")
  fi
  # A test run counts only when its one case ran and passed (a filter matching nothing passes).
  local ran=true
  case "${1:-}" in laz-tests | classify-tests | raster-tests | stream-tests) ran=false ;; esac
  if "$sanitizer" --tool "$tool" "${extra[@]}" --error-exitcode 99 "$program" "${command[@]}" >"$log" 2>&1 &&
      grep -qE "(ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)" "$log" &&
      { $ran || grep -qF "[  PASSED  ] 1 test." "$log"; }; then
    printf '%-10s ok    %s\n' "$tool" "$*"
  else
    printf '%-10s FAIL  %s\n' "$tool" "$*"
    grep -E "SUMMARY|^========= +(Error|Invalid|Race|Uninitialized|Barrier|Leaked|[A-Z][a-z]+ access)" \
      "$log" | sed 's/0x[0-9a-f]*/0x../g' | sort | uniq -c | sort -rn | head -n 8
    grep -E "^pcv: |^=========.*(rror|ailed)" "$log" | head -n 4  # pcv's own words: why it stopped
  fi
}
export -f run
export sanitizer pcv laz_tests classify_tests raster_tests stream_tests work
# shellcheck disable=SC2016
xargs -d '\n' -n 1 -P "$jobs" bash -c 'run $1' _ <"$work/runs.txt" | tee "$work/results.txt"
runs=$(grep -cE " (ok|FAIL) " "$work/results.txt")
failures=$(grep -c " FAIL " "$work/results.txt")
echo "gpu-check: $runs runs, $failures with reports"
[ "$failures" -eq 0 ] && [ "$runs" -eq "$(wc -l <"$work/runs.txt")" ]
