#!/usr/bin/env bash
# Builds pcv and runs its tests on a fresh Debian 12 machine (no GPU or display needed: GPU tests
# are skipped with a reason, GUI tests run under Xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"
# The file loaders under ASan/UBSan, then each format's fuzzer for a fixed number of inputs from
# a fixed seed (at most 150 s each; ~10 min in all on 2 cores).
scripts/test-sanitizers.sh
scripts/fuzz.sh
