#!/usr/bin/env bash
# Whether LASzip reads the files pcv edits as pcv reads them: LAZ files of point formats 1, 3, 6,
# 7 and 8 and a COPC file (pcv convert --points), each edited to a copy (a slab set to class 6)
# and in place (the same slab deleted: withheld, or set to class 2 for the COPC file), then every
# point of every file decoded by both and compared (pcv_laszip_compare's check: X, Y, Z,
# intensity, returns, class and class flags, GPS time, RGB). Needs pcv built with
# -DPCV_LASZIP_DIR (bench/build-laszip.sh); exits 1 at the first point that differs.
#   laszip-check-edits.sh BUILD_DIR LASZIP_DIR WORKDIR [POINTS]   (POINTS default 200000)
set -euo pipefail
build=${1:?usage: laszip-check-edits.sh BUILD_DIR LASZIP_DIR WORKDIR [POINTS]}
laszip=${2:?usage: laszip-check-edits.sh BUILD_DIR LASZIP_DIR WORKDIR [POINTS]}
work=${3:?usage: laszip-check-edits.sh BUILD_DIR LASZIP_DIR WORKDIR [POINTS]}
points=${4:-200000}
build=$(cd "$build" && pwd)
pcv="$build/app/pcv"
slab=0,0,1,0,0,0,0.2
mkdir -p "$work"
cd "$work"
rm -f ./*.laz
for format in 1 3 6 7 8; do
  "$pcv" convert -q --points "$points" --seed 3 --point-format "$format" "in$format.laz" >/dev/null
  "$pcv" edit "in$format.laz" --clip-slab "$slab" --set-class 6 --out "edited$format.laz" >/dev/null
  cp "in$format.laz" "inplace$format.laz"
  "$pcv" edit "inplace$format.laz" --clip-slab "$slab" --delete --in-place >/dev/null
done
"$pcv" convert -q --points "$points" --seed 3 in.copc.laz >/dev/null
"$pcv" edit in.copc.laz --clip-slab "$slab" --set-class 6 --out edited.copc.laz >/dev/null
cp in.copc.laz inplace.copc.laz
"$pcv" edit inplace.copc.laz --clip-slab "$slab" --set-class 2 --in-place >/dev/null
LD_LIBRARY_PATH="$laszip/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$build/bench/pcv_laszip_compare" --runs 1 --cases rec1 ./*.laz
echo "every point of $(ls ./*.laz | wc -l) files the same in LASzip and pcv"
