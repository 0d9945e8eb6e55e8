#!/usr/bin/env bash
# The camera-path video target: a 600-frame 1080p flight round the 100 M cylinder points written
# to MP4 (H.264), the scene laid out once. pcv prints the frames per second and the time per
# frame of rendering (the renderer's stages), readback (the rest of each render call: the image
# copied to host memory) and encoding (colour conversion and the codec, on a thread of their
# own while the next frame renders), and which of them bounds the rate; --report has the same.
# Usage: path-video.sh PCV OUT_DIR [BACKEND [POINTS [SIZE [FRAMES [PRESET]]]]]
#   defaults: cuda 100000000 1920x1080 600 veryfast
set -euo pipefail
pcv=${1:?usage: path-video.sh PCV OUT_DIR [BACKEND [POINTS [SIZE [FRAMES [PRESET]]]]]}
out=${2:?usage: path-video.sh PCV OUT_DIR [BACKEND [POINTS [SIZE [FRAMES [PRESET]]]]]}
backend=${3:-cuda}
points=${4:-100000000}
size=${5:-1920x1080}
frames=${6:-600}
preset=${7:-veryfast}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
echo "== pcv render --path: $points points, $size, $frames frames, $backend, x264 $preset"
"$pcv" render --backend "$backend" --points "$points" --size "$size" \
  --path "$here/paths/cylinders-orbit.json" --frames "$frames" --fps 60 --video-preset "$preset" \
  --out "$out/path-video.mp4" --report "$out/path-video.json"
