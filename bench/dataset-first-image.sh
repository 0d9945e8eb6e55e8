#!/usr/bin/env bash
# A dataset of tiles, from its header index to a fly-through. Makes COLS x ROWS LAS tiles of
# POINTS points each (default 40 x 25 x 100 000: 1 000 tiles, 100 M points; make-tiles.py), their
# LAZ copies (pcv's default chunks of 50 000 points, so each tile has 2 chunk first points) and
# COPC copies, and a VPC of the LAS tiles with an overview asset as `pdal_wrench build_vpc
# --overview` writes (every 1000th point, as COPC; add-vpc-overview.py). Then for each set:
#   - `pcv info DIR`: the header index, process start to exit;
#   - `pcv render DIR`: process start to the lines that say the first image and the converged
#     one were drawn (BACKEND, default cpu; 1280x720);
#   - pcv_stream_benchmark: over a fly-through from the overview down across the tiles, the
#     frame thread's work besides drawing ("fly: frame thread besides drawing": node choice and
#     the copies of nodes the loader threads laid out), the whole frame (that and the draw;
#     "fly: whole frame"), the GPU frame, the frames over 16 ms, and peak RSS. On the cpu
#     backend the draw is the CPU's own raster of millions of points, which the 16 ms target is
#     not about; BACKEND=cuda on the GPU machine measures both.
# Finally 10 000 tiles of 1 000 points under `ulimit -n 1024`: peak RSS against --memory (MANY=0
# leaves it out). Only the sets SETS names are made (the LAS tiles always, as the others' source),
# so a 1 B-point run need not read its 25 GB of LAS tiles in Python for the VPC's overview.
# Usage: dataset-first-image.sh BUILD_DIR WORKDIR
#   (env: COLS ROWS POINTS BACKEND JOBS MAKE_ONLY SETS MANY)
set -euo pipefail
build=${1:?usage: dataset-first-image.sh BUILD_DIR WORKDIR}
work=${2:?usage: dataset-first-image.sh BUILD_DIR WORKDIR}
pcv="$build/app/pcv"
streambench="$build/bench/pcv_stream_benchmark"
cols=${COLS:-40} rows=${ROWS:-25} points=${POINTS:-100000}
backend=${BACKEND:-cpu} jobs=${JOBS:-$(nproc)}
sets=${SETS:-las laz copc overview.vpc}
wants() { case " $sets " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }  # seconds since $1 (no bc needed)
convert_all() {  # from-dir to-dir extension [pcv convert flags]
  local from=$1 to=$2 extension=$3
  shift 3
  mkdir -p "$to"
  ls "$from"/*.las | xargs -P "$jobs" -I{} sh -c \
    "\"$pcv\" convert $* \"{}\" \"$to/\$(basename \"{}\" .las)$extension\" >/dev/null"
}
if [ ! -d "$work/las" ]; then
  start=$(now)
  python3 "$here/make-tiles.py" "$work/las" "$cols" "$rows" "$points"
  echo "made $((cols * rows)) LAS tiles of $points points: $(since "$start") s"
fi
if wants laz && [ ! -d "$work/laz" ]; then
  start=$(now)
  convert_all "$work/las" "$work/laz" .laz
  echo "made the LAZ tiles: $(since "$start") s"
fi
if wants copc && [ ! -d "$work/copc" ]; then
  start=$(now)
  convert_all "$work/las" "$work/copc" .copc.laz
  echo "made the COPC tiles: $(since "$start") s"
fi
if wants overview.vpc && [ ! -f "$work/overview.vpc" ]; then
  "$pcv" vpc "$work/overview.vpc" "$work/las" >/dev/null
  python3 "$here/add-vpc-overview.py" "$work/overview.vpc"
  "$pcv" convert "$work/overview-overview.las" "$work/overview-overview.copc.laz" >/dev/null
fi
if [ "${MANY:-1}" != 0 ] && [ ! -d "$work/many" ]; then python3 "$here/make-tiles.py" "$work/many" 100 100 1000; fi
du -sh "$work"/las "$work"/laz "$work"/copc 2>/dev/null || true
[ -z "${MAKE_ONLY:-}" ] || exit 0  # MAKE_ONLY=1: the tiles only, timed another time
for set in $sets; do
  name=${set%.vpc}
  start=$(now)
  "$pcv" info "$work/$set" --report "$work/$name-info.json" >/dev/null
  echo "$name: header index of $(ls "$work/las" | wc -l) tiles: $(since "$start") s"
  start=$(now)
  "$pcv" render "$work/$set" --backend "$backend" --size 1280x720 --out "$work/$name.png" \
      --report "$work/$name-render.json" 2>&1 |
    while IFS= read -r line; do
      case "$line" in
        *"first image"* | *converged*) echo "$name: $(since "$start") s: $line" ;;
      esac
    done
  if [ "$name" = copc ]; then  # the first image with its tile boxes, for the eye
    "$pcv" render "$work/$set" --backend "$backend" --size 1280x720 --tile-boxes \
        --stream-time-limit 0.001 --out "$work/$name-boxes.png" >/dev/null 2>&1
  fi
  "$streambench" "$work/$set" --backend "$backend" --size 1280x720 --frames 3 --warmup 1 \
      --fly-frames 150 --json "$work/$name-stream.json" 2>&1 |
    grep -E "^(open|converge|fly: frame thread|fly: whole|fly: GPU|fly: points|fly: decoded|memory)" | sed "s/^/$name: /"
done
# 10 000 tiles, few points each: the header index, the forest and the stream within the limit of
# open files, and the process's peak RSS against --memory (the cpu backend's resident nodes are
# host memory too: --gpu-memory is added to what is allowed).
[ "${MANY:-1}" != 0 ] || exit 0
(
  ulimit -n 1024
  "$streambench" "$work/many" --backend "$backend" --size 1280x720 --frames 3 --warmup 1 \
      --fly-frames 200 --memory 512M --gpu-memory 256M 2>&1 |
    grep -E "^(dataset|open|converge|fly: frame thread|fly: whole|memory)" | sed "s/^/10k tiles, ulimit -n 1024: /"
)
