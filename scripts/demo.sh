#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: installs what is missing, builds, then opens the
# viewer on the seed's demo scene — or, where there is no display, renders it to pcv-demo.png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && ./build/app/pcv view --help >/dev/null 2>&1; then
  exec ./build/app/pcv view "$@"
fi
echo "pcv: no display; rendering the demo scene headless to pcv-demo.png"
exec ./build/app/pcv render --out pcv-demo.png "$@"
