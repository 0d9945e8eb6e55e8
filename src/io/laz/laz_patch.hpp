/// @brief Saving changed records into a LAZ or COPC file: only the chunks that hold a changed
/// record are decoded and re-encoded, every other chunk is copied byte for byte, and what
/// points into the file (the chunk table, the header's EVLR offset, the COPC hierarchy) is
/// moved to the new layout.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "common/read_context.hpp"
#include "las/las_header.hpp"
#include "pcv/io/record_patch.hpp"

namespace pcv::laz {
struct LaszipVlr;
}

namespace pcv::io {

/// patchRecordFile for a compressed file already mapped as `file` with its parsed `header`.
/// Fails through `context` (InputError naming the file) for a layout it cannot save.
RecordPatchSummary patchLazFile(std::span<const uint8_t> file, const LasHeader& header,
                                const ReadContext& context, const std::filesystem::path& output,
                                std::span<const RecordChange> changes, const PatchWritten& written);

/// Saves `changes` into the file at `path` itself (mapped as `file`): only the chunks holding a
/// change are written, over their old bytes, each re-encoded to exactly its old size (padded
/// where it came out smaller), under a journal (InPlaceSave). Empty, with the file as it was,
/// where that cannot be done: a chunk came out larger, the chunks changed hold more than half
/// the file (a copy writes less), or the file cannot be saved by chunks at all.
std::optional<RecordPatchSummary> patchLazFileInPlace(std::span<const uint8_t> file,
                                                      const LasHeader& header,
                                                      const ReadContext& context,
                                                      const std::filesystem::path& path,
                                                      std::span<const RecordChange> changes,
                                                      const PatchWritten& written);

/// Makes an encoded chunk exactly `bytes` long: true as it is when it already is; a layered
/// chunk shorter than that takes the rest as padding at the end of its first layer that has
/// data (the layer's stated size grows with it: decoders read a layer's data and ignore what
/// follows it inside the layer). False where it cannot: longer, or pointwise and shorter.
bool fitChunkInto(std::vector<uint8_t>& chunk, uint64_t bytes, const laz::LaszipVlr& vlr);

}  // namespace pcv::io
