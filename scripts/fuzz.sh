#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, ASan + UBSan) into ./build-fuzz and runs each format's
# fuzzer for a bounded time over its kept seed corpus fuzz/corpus/<format>/. New inputs the
# fuzzer finds go to build-fuzz/corpus/<format>/ (not into the repository); crashes are written
# to build-fuzz/ and fail the script.
#   FUZZ_RUNS     inputs per target (default 1000000, about 35 s each on 2 cores): a bounded
#                 run from a fixed seed. libFuzzer is not bit-reproducible between runs, so a crash
#                 it finds in CI is a real reader bug that earlier runs missed: fix it and add the
#                 input to fuzz/corpus/<format>/
#   FUZZ_SEED     libFuzzer's seed (default 1); FUZZ_SECONDS instead of FUZZ_RUNS for open-ended
#                 local runs
#   FUZZ_MAX_SECONDS  a cap per target besides FUZZ_RUNS (default 75): the compressed formats
#                 (LAZ, COPC) decode chunks for every input and would take many minutes for a
#                 million, which CI's time limit cannot spare
#   FUZZ_VPC_SECONDS  the VPC target's budget (default 30): JSON parsing is fast, and a
#                 million inputs would take longer than the format is worth in CI. Each input is
#                 read as a local and as a remote VPC (its hrefs through the RFC 3986 resolver),
#                 and its bytes go through the resolver and the message form directly
#   FUZZ_PATH_SECONDS the camera path target's budget (default 20): small JSON files, parsed fast
#   FUZZ_HTTP_SECONDS  the HTTP answer heads' budget (default 20): a small pure parser
#   FUZZ_FILTER_SECONDS  the filter flags' budget (default 10): short texts
#   FUZZ_EDIT_LOG_SECONDS  the edit log's budget (default 20): small JSON files, parsed fast
#   FUZZ_JOURNAL_SECONDS  the in-place save journal's budget (default 10): a small binary parser
#   FUZZ_CLIENT_SECONDS  the budget of pcv serve's client messages (default 20): short JSON
#   FUZZ_FORMATS  the targets to run (default: laz copc pcd e57 ply las text vpc path http_head
#                 edit_log client_message save_journal filter: the longest first)
#   FUZZ_JOBS     fuzzers run at once (default: the cores)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${FUZZ_RUNS:-1000000}"
seed="${FUZZ_SEED:-1}"
limit="-runs=$runs"
limit="$limit -max_total_time=${FUZZ_MAX_SECONDS:-75}"
[ -n "${FUZZ_SECONDS:-}" ] && limit="-max_total_time=$FUZZ_SECONDS"
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cmake -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS="$sanitize -fsanitize=fuzzer-no-link -fno-omit-frame-pointer" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
  -DPCV_CUDA=OFF -DPCV_VULKAN=OFF -DPCV_VIEWER=OFF -DPCV_TESTS=OFF -DPCV_FUZZ=ON
formats="${FUZZ_FORMATS:-laz copc pcd e57 ply las text vpc path http_head edit_log client_message save_journal filter}"
targets=""
for format in $formats; do targets="$targets fuzz_$format"; done
# shellcheck disable=SC2086  # one target per word
cmake --build build-fuzz -j"$(nproc)" --target $targets
# One target's run, its output into build-fuzz/fuzz-<format>.log; the fuzzer's status (a crash
# or a leak is non-zero).
run_target() {
  local format=$1 format_limit="$limit" extra=""
  mkdir -p "build-fuzz/corpus/$format"
  if [ "$format" = vpc ]; then
    [ -z "${FUZZ_SECONDS:-}" ] && format_limit="-runs=$runs -max_total_time=${FUZZ_VPC_SECONDS:-30}"
    extra="-dict=../fuzz/vpc.dict"  # the STAC/GeoJSON keys, which mutation rarely spells
  fi
  if [ "$format" = path ]; then
    [ -z "${FUZZ_SECONDS:-}" ] && format_limit="-runs=$runs -max_total_time=${FUZZ_PATH_SECONDS:-20}"
    extra="-dict=../fuzz/path.dict"  # the keys' field names
  fi
  if [ "$format" = http_head ]; then
    [ -z "${FUZZ_SECONDS:-}" ] && format_limit="-runs=$runs -max_total_time=${FUZZ_HTTP_SECONDS:-20}"
  fi
  if [ "$format" = edit_log ]; then
    [ -z "${FUZZ_SECONDS:-}" ] && format_limit="-runs=$runs -max_total_time=${FUZZ_EDIT_LOG_SECONDS:-20}"
    extra="-dict=../fuzz/edit_log.dict"  # the log's member names and words
  fi
  if [ "$format" = client_message ]; then
    [ -z "${FUZZ_SECONDS:-}" ] && format_limit="-runs=$runs -max_total_time=${FUZZ_CLIENT_SECONDS:-20}"
    extra="-dict=../fuzz/client_message.dict"  # the messages' types, fields and words
  fi
  if [ "$format" = save_journal ]; then
    [ -z "${FUZZ_SECONDS:-}" ] && format_limit="-runs=$runs -max_total_time=${FUZZ_JOURNAL_SECONDS:-10}"
  fi
  if [ "$format" = filter ]; then  # short texts: seconds cover them
    [ -z "${FUZZ_SECONDS:-}" ] && format_limit="-runs=$runs -max_total_time=${FUZZ_FILTER_SECONDS:-10}"
  fi
  echo "fuzz: $format ($format_limit, seed $seed)" > "build-fuzz/fuzz-$format.log"
  # -rss_limit_mb/-malloc_limit_mb: an allocation beyond what the input can justify is a bug.
  # shellcheck disable=SC2086  # $limit is several flags
  (cd build-fuzz && "./fuzz/fuzz_$format" "corpus/$format" "../fuzz/corpus/$format" \
     $format_limit $extra -seed="$seed" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=512 \
     -timeout=10 -print_final_stats=1 >> "fuzz-$format.log" 2>&1)
}
# Each fuzzer is one process on one core: FUZZ_JOBS of them at a time (default: the cores), the
# longest first, each within its own budget as before; their reports are printed in order.
jobs=${FUZZ_JOBS:-$(nproc)}
declare -A pid_of
for format in $formats; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_target "$format" &
  pid_of[$format]=$!
done
failed=""
for format in $formats; do
  wait "${pid_of[$format]}" || failed="$failed $format"
  head -n 1 "build-fuzz/fuzz-$format.log"
  tail -n 12 "build-fuzz/fuzz-$format.log"
done
if [ -n "$failed" ]; then
  echo "fuzz: failed:$failed (inputs that crashed are in build-fuzz/)" >&2
  exit 1
fi
