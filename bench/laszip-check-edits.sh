#!/usr/bin/env bash
# Whether LASzip reads the files pcv edits as pcv reads them: LAZ files of point formats 1, 3, 6,
# 7 and 8 and a COPC file (pcv convert --points), each edited to a copy (a slab set to class 6)
# and in place (the same slab deleted: withheld, or set to class 2 for the COPC file; then a thin
# slab, which changes few chunks, so that they can be written into the file itself: COPC chunks
# moved where one came out longer, and LAZ chunks padded where they came out shorter, when those
# points get their old class back; the report's writtenInPlace and chunksMoved are printed), then every point of every file decoded by both
# and compared (pcv_laszip_compare's check: X, Y, Z, intensity, returns, class and class flags,
# GPS time, RGB). Needs pcv built with -DPCV_LASZIP_DIR (bench/build-laszip.sh); exits 1 at the
# first point that differs.
#   laszip-check-edits.sh BUILD_DIR LASZIP_DIR WORKDIR [POINTS]   (POINTS default 200000)
set -euo pipefail
build=${1:?usage: laszip-check-edits.sh BUILD_DIR LASZIP_DIR WORKDIR [POINTS]}
laszip=${2:?usage: laszip-check-edits.sh BUILD_DIR LASZIP_DIR WORKDIR [POINTS]}
work=${3:?usage: laszip-check-edits.sh BUILD_DIR LASZIP_DIR WORKDIR [POINTS]}
points=${4:-200000}
build=$(cd "$build" && pwd)
pcv="$build/app/pcv"
slab=0,0,1,0,0,0,0.2
thin=0,0,1,0,0,0,0.01
saved_how='import json, sys
f = json.load(sys.stdin)["edit"]["files"][0]
print(f["output"], "changed", f["changed"], "in place", f["writtenInPlace"], "chunks moved", f["chunksMoved"])'
mkdir -p "$work"
cd "$work"
rm -f ./*.laz
for format in 1 3 6 7 8; do
  "$pcv" convert -q --points "$points" --seed 3 --point-format "$format" "in$format.laz" >/dev/null
  "$pcv" edit "in$format.laz" --clip-slab "$slab" --set-class 6 --out "edited$format.laz" >/dev/null
  cp "in$format.laz" "inplace$format.laz"
  "$pcv" edit "inplace$format.laz" --clip-slab "$slab" --delete --in-place >/dev/null
  # Points in the COPC file's node order: a thin slab meets few chunks (in the cylinders' own
  # order it meets every chunk, and a save that changes most of a file copies it).
  "$pcv" convert -q --points "$points" --seed 3 "nodes$format.copc.laz" >/dev/null
  "$pcv" convert -q --point-format "$format" "nodes$format.copc.laz" "thin$format.laz" >/dev/null
  rm "nodes$format.copc.laz"
  "$pcv" edit "thin$format.laz" --clip-slab "$thin" --set-class 9 --in-place --report - |
    python3 -c "$saved_how"
  # Those points back to the class of all the others: their chunks' class layers shrink (to
  # nothing), so they are padded where they lie.
  "$pcv" edit "thin$format.laz" --classes 9 --set-class 1 --in-place --report - |
    python3 -c "$saved_how"
done
"$pcv" convert -q --points "$points" --seed 3 in.copc.laz >/dev/null
"$pcv" edit in.copc.laz --clip-slab "$slab" --set-class 6 --out edited.copc.laz >/dev/null
cp in.copc.laz inplace.copc.laz
"$pcv" edit inplace.copc.laz --clip-slab "$slab" --set-class 2 --in-place >/dev/null
cp in.copc.laz thin.copc.laz
"$pcv" edit thin.copc.laz --clip-slab "$thin" --set-class 9 --in-place --report - | python3 -c "$saved_how"
"$pcv" edit thin.copc.laz --clip-slab 0,1,0,0,0,0,0.01 --set-class 10 --in-place --report - |
  python3 -c "$saved_how"
LD_LIBRARY_PATH="$laszip/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$build/bench/pcv_laszip_compare" --runs 1 --cases rec1 ./*.laz
echo "every point of $(ls ./*.laz | wc -l) files the same in LASzip and pcv"
