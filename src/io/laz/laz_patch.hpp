/// @brief Saving changed records into a LAZ or COPC file: only the chunks that hold a changed
/// record are decoded and re-encoded, every other chunk is copied byte for byte, and what
/// points into the file (the chunk table, the header's EVLR offset, the COPC hierarchy) is
/// moved to the new layout.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

#include "common/read_context.hpp"
#include "las/las_header.hpp"
#include "pcv/io/record_patch.hpp"

namespace pcv::io {

/// patchRecordFile for a compressed file already mapped as `file` with its parsed `header`.
/// Fails through `context` (InputError naming the file) for a layout it cannot save.
RecordPatchSummary patchLazFile(std::span<const uint8_t> file, const LasHeader& header,
                                const ReadContext& context, const std::filesystem::path& output,
                                std::span<const RecordChange> changes, const PatchWritten& written);

}  // namespace pcv::io
