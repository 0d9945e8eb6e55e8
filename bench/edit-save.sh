#!/usr/bin/env bash
# Saving edits and classifying, on the cylinder scene of N points as COPC (made once):
#   evaluate+save: pcv edit scene.copc.laz --clip-slab ... --set-class 6 --out edited.copc.laz
#                  (a thin slab: about 1 % of the points change; only the nodes it meets are
#                  read, only their chunks re-encoded, every other chunk copied byte for byte)
#   in place:      the same edit saved into a copy of the file (--in-place)
#   classify:      pcv classify scene.copc.laz classified.copc.laz --ground --noise
# and prints, from each run's --report, the points changed, the seconds of each phase and the
# chunks re-encoded and copied. Usage:
#   edit-save.sh PCV WORKDIR [POINTS]   (POINTS default 100000000)
set -euo pipefail
pcv=${1:?usage: edit-save.sh PCV WORKDIR [POINTS]}
work=${2:?usage: edit-save.sh PCV WORKDIR [POINTS]}
points=${3:-100000000}
mkdir -p "$work"
scene="$work/scene-$points.copc.laz"
if [ ! -f "$scene" ]; then
  "$pcv" convert -q --points "$points" "$scene" >/dev/null
fi
now() { date +%s.%N; }
report() {  # FILE KEY...: the report's values, one per key
  python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for key in sys.argv[2:]:
    value = r
    for part in key.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    print(f"{key}={value}", end="  ")
print()
PY
}
slab=0,0,1,0,0,0,0.04
rm -f "$work/edited.copc.laz"
start=$(now)
"$pcv" edit "$scene" --clip-slab "$slab" --set-class 6 --out "$work/edited.copc.laz" \
  --report "$work/edit.json" >/dev/null
end=$(now)
echo "edit to a copy: $(python3 -c "print(round($end - $start, 2))") s wall"
report "$work/edit.json" edit.changed edit.files.0.points edit.files.0.pointsRead \
  edit.files.0.evaluateSeconds edit.files.0.saveSeconds edit.files.0.chunksReencoded \
  edit.files.0.chunksCopied

cp "$scene" "$work/inplace.copc.laz"
start=$(now)
"$pcv" edit "$work/inplace.copc.laz" --clip-slab "$slab" --set-class 6 --in-place \
  --report "$work/inplace.json" >/dev/null
end=$(now)
echo "edit in place: $(python3 -c "print(round($end - $start, 2))") s wall"
report "$work/inplace.json" edit.changed edit.files.0.evaluateSeconds edit.files.0.saveSeconds
rm -f "$work/inplace.copc.laz"

rm -f "$work/classified.copc.laz"
start=$(now)
"$pcv" classify "$scene" "$work/classified.copc.laz" --ground --noise \
  --report "$work/classify.json" >/dev/null
end=$(now)
echo "classify: $(python3 -c "print(round($end - $start, 2))") s wall"
report "$work/classify.json" classify.points classify.ground classify.noise
rm -f "$work/classified.copc.laz" "$work/edited.copc.laz"
