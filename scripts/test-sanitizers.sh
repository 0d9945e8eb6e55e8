#!/usr/bin/env bash
# Builds the file-loader tests with clang-14 + AddressSanitizer + UndefinedBehaviorSanitizer
# (CPU only) into ./build-asan and runs them, with the core pieces they stand on, and pcv
# serve's tests (the messages browsers send, the connections' lifetimes across threads), and
# the edits' selections, log and evaluation (strokes, profile lines, classify edits, the values
# kept for undo and as read, on all cores), the ground
# and noise filters, the renderer's colours and classes changed in place, streams (their
# loader threads, a source replaced while nodes decode, tiles whose COPC roots decide their
# colour scale as they decode) and edits saved into LAS, LAZ and COPC files.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -B build-asan -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
  -DPCV_CUDA=OFF -DPCV_VULKAN=OFF -DPCV_VIEWER=OFF
cmake --build build-asan -j"$(nproc)" --target io_tests core_tests pcv server_tests edit_tests \
  process_tests raster_tests stream_tests
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -R '^(SharedData|LasReader|PlyReader|PcdReader|TextReader|E57[A-Za-z0-9]*|Lzf|ColorMap|CameraFraming|PartialFile|TextCase|InfoCli|RenderCli|ClientMessage|ClientViewTest|WebServer|BrushSelection|ProfileLineSelection|PolygonSelection|EditLog|EditHistory|CloudEdits|ReadValuesJournal|SaveJournal|InPlaceSave|ClassifyEdit|ClassesAhead|Classification|GroundGridWindow|ElevationGrid|SetColors|ChangeClasses|StreamedCloud|StreamedForest|StreamSourceReplaced|TileSetTest|Formats/PointEditsRoundTrip)\.' \
  --output-on-failure -j"$(nproc)"
