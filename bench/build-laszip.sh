#!/usr/bin/env bash
# Builds LASzip's shared library into a scratch folder, to benchmark pcv's LAZ decoder against it
# (bench/laszip_compare.cpp). LASzip is a peer for measurement only: it is not a Debian package,
# and pcv neither vendors nor links it.
#
#   bench/build-laszip.sh SOURCE_DIR|--git INSTALL_DIR
#
# SOURCE_DIR: a LASzip source tree (github.com/LASzip/LASzip); --git clones it (needs the network)
# into INSTALL_DIR/src. The library and laszip_api.h go to INSTALL_DIR/{lib,include}, built
# Release (LASzip's own flags: -O3, no -march, as pcv's build).
# Then: cmake -B build -DPCV_LASZIP_DIR=INSTALL_DIR && cmake --build build --target pcv_laszip_compare
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 SOURCE_DIR|--git INSTALL_DIR" >&2
  exit 2
fi
source_dir=$1
install_dir=$(realpath -m "$2")
mkdir -p "$install_dir"
if [[ $source_dir == --git ]]; then
  source_dir=$install_dir/src
  [[ -d $source_dir/.git ]] || git clone --depth 1 https://github.com/LASzip/LASzip "$source_dir"
fi
if [[ ! -f $source_dir/dll/laszip_api.h || ! -f $source_dir/CMakeLists.txt ]]; then
  echo "$0: $source_dir is not a LASzip source tree (no dll/laszip_api.h)" >&2
  exit 1
fi
build_dir=$install_dir/build
cmake -S "$source_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$install_dir" -DCMAKE_INSTALL_LIBDIR=lib >/dev/null
cmake --build "$build_dir" -j"${JOBS:-2}"
cmake --install "$build_dir" >/dev/null
echo "LASzip installed in $install_dir (lib/, include/laszip/)"
ls "$install_dir"/lib
