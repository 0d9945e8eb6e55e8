/// @brief COPC inside the io layer: the hierarchy parsed from a mapped file's bytes, and the lines
/// `pcv info` shows for it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "las/las_header.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "common/read_context.hpp"

namespace pcv::io {

/// The COPC info VLR (user id "copc", record 1), if the header lists one.
const LasVlr* findCopcInfo(const LasHeader& header);

/// The hierarchy of a file whose header has a COPC info VLR; fails through `context`.
CopcHierarchy parseCopcHierarchy(std::span<const uint8_t> file, const LasHeader& header,
                                 const ReadContext& context);
/// The same from a source: a remote file's pages are fetched a level at a time; with
/// `withRootChunk`, the root node's chunk along with the level below the root page.
CopcHierarchy parseCopcHierarchy(const ByteSource& file, const LasHeader& header,
                                 const ReadContext& context, bool withRootChunk = false);

/// "COPC octree: ..." lines for `pcv info`.
std::vector<std::string> describeCopc(const CopcHierarchy& hierarchy);

}  // namespace pcv::io
