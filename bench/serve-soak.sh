#!/usr/bin/env bash
# pcv serve under load for minutes: four clients drag without pause (pcv_serve_benchmark) while
# the server's resident memory is read every 10 s. Prints the RSS series, the clients' figures
# (frames lost must be 0), and the RSS growth from the first minute's end to the last reading.
# Usage: bench/serve-soak.sh BUILD_DIR SECONDS [pcv serve arguments...]
set -euo pipefail
build=${1:?usage: serve-soak.sh BUILD_DIR SECONDS [pcv serve arguments...]}
seconds=${2:?usage: serve-soak.sh BUILD_DIR SECONDS [pcv serve arguments...]}
shift 2
out=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$out"' EXIT
"$build/app/pcv" serve --port 0 "$@" > "$out/url" 2> "$out/log" &
server=$!
for _ in $(seq 100); do [ -s "$out/url" ] && break; sleep 0.1; done
url=$(head -1 "$out/url")
rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
"$build/bench/pcv_serve_benchmark" "$url" --clients 4 --seconds "$seconds" --size "${SIZE:-960x540}" \
  > "$out/bench" 2>&1 &
bench=$!
readings=()
elapsed=0
while kill -0 "$bench" 2>/dev/null; do
  readings+=("$elapsed:$(rss)")
  sleep 10
  elapsed=$((elapsed + 10))
done
wait "$bench"
echo "RSS (s:KiB): ${readings[*]}"
cat "$out/bench"
first=$(for r in "${readings[@]}"; do s=${r%%:*}; [ "$s" -ge 60 ] && { echo "${r#*:}"; break; }; done)
last=${readings[-1]#*:}
echo "RSS growth from 60 s to the end: $(( ${last:-0} - ${first:-0} )) KiB"
