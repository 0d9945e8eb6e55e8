#!/usr/bin/env bash
# Builds pcv and runs its tests on a fresh Debian 12 machine (no GPU or display needed: GPU tests
# are skipped with a reason, GUI tests run under Xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Without an NVIDIA GPU here the CUDA code is compiled (and so checked) for one architecture
# only: the tests skip their GPU cases, and five architectures would take most of the build.
# PCV_CUDA_ARCHITECTURES chooses others; on a machine with a GPU the default list is built.
if [ -n "${PCV_CUDA_ARCHITECTURES:-}" ]; then
  scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES="$PCV_CUDA_ARCHITECTURES"
elif ! nvidia-smi -L > /dev/null 2>&1; then
  scripts/build.sh -DCMAKE_CUDA_ARCHITECTURES=90-real
else
  scripts/build.sh
fi
ctest --test-dir build --output-on-failure -j"$(nproc)"
# The file loaders under ASan/UBSan, then each format's fuzzer for a fixed number of inputs from
# a fixed seed (at most 75 s each, two at a time on 2 cores: ~5 min).
scripts/test-sanitizers.sh
scripts/fuzz.sh
