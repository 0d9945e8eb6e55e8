#!/usr/bin/env bash
# Export of a selection from COPC against the LAZ decode rate of the same cores. Makes the
# cylinder scene with N points as COPC and as LAZ (once), then times
#   decode:  pcv convert scene.laz none.las --classes 255   (every record decoded and tested,
#            none kept: the LAZ decode rate, plus the test)
#   box:     pcv convert scene.copc.laz box.las --clip-box -2,-2,-2,0,0,0 --exclude-classes 7
#            (only the nodes meeting the box are read; the box holds about an eighth)
#   box-laz: the same box from the COPC file written as LAZ: what COPC saves
# and prints points written and points per second of each. With EXPORT_LAZ_COPY=0 no LAZ copy is
# made (at 1 B points it takes minutes): "decode" then decodes every node of the COPC file, the
# same records and codec, and box-laz is left out. Usage:
#   export-selection.sh PCV WORKDIR [POINTS]   (POINTS default 100000000)
set -euo pipefail
pcv=${1:?usage: export-selection.sh PCV WORKDIR [POINTS]}
work=${2:?usage: export-selection.sh PCV WORKDIR [POINTS]}
points=${3:-100000000}
mkdir -p "$work"
if [ ! -f "$work/scene-$points.copc.laz" ]; then
  "$pcv" convert -q --points "$points" "$work/scene-$points.copc.laz" >/dev/null
fi
laz_copy=${EXPORT_LAZ_COPY:-1}
if [ "$laz_copy" != 0 ] && [ ! -f "$work/scene-$points.laz" ]; then
  "$pcv" convert -q "$work/scene-$points.copc.laz" "$work/scene-$points.laz" >/dev/null
fi
now() { date +%s.%N; }
run() {  # NAME INPUT OUTPUT FLAGS...
  local name=$1 input=$2 output=$3
  shift 3
  rm -f "$output"
  local start end
  start=$(now)
  "$pcv" convert -q "$input" "$output" "$@" --report "$work/$name.json" >/dev/null
  end=$(now)
  python3 - "$name" "$work/$name.json" "$start" "$end" "$points" <<'PY'
import json, sys
name, report, start, end, total = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
written = json.load(open(report))["convert"]["points"]
seconds = end - start
print(f"{name:8s} {seconds:8.3f} s  written {written:>12,d}  "
      f"{written / seconds / 1e6:8.2f} M written/s  {total / seconds / 1e6:8.2f} M scene points/s")
PY
}
echo "$(nproc) cores, $points points"
if [ "$laz_copy" != 0 ]; then
  run decode "$work/scene-$points.laz" "$work/none.las" --classes 255
else
  run decode "$work/scene-$points.copc.laz" "$work/none.las" --classes 255
fi
run box "$work/scene-$points.copc.laz" "$work/box.las" --clip-box -2,-2,-2,0,0,0 --exclude-classes 7
if [ "$laz_copy" != 0 ]; then
  run box-laz "$work/scene-$points.laz" "$work/box-laz.las" --clip-box -2,-2,-2,0,0,0 \
    --exclude-classes 7
fi
