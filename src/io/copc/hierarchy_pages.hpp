/// @brief The COPC hierarchy as written: one 32-byte entry per node (key, chunk offset, chunk
/// bytes, point count) in pages of bounded size, the root page first, each page listing a
/// subtree a few levels deep and pointing (point count -1) to the pages of the subtrees below.
#pragma once

#include <cstdint>
#include <vector>

#include "pcv/io/copc_hierarchy.hpp"

namespace pcv::io {

struct CopcHierarchyEntry {
  CopcNodeKey key;
  uint64_t chunkOffset = 0;  ///< 0 for a node without points
  uint64_t chunkBytes = 0;
  uint64_t pointCount = 0;  ///< 0: a node without points whose descendants have some
};

struct PackedCopcHierarchy {
  std::vector<uint8_t> payload;  ///< the hierarchy EVLR's payload: the pages, root first
  uint64_t rootPageBytes = 0;
  uint32_t pageCount = 0;
};

/// Pages holding `entries` for a payload that starts at file offset `payloadOffset`. Nodes whose
/// parent is not listed get an entry without points, so that every node is reached from the
/// root. A page holds at most about `maxEntriesPerPage` entries (at least a node and its
/// children). Throws Error for a key listed twice.
PackedCopcHierarchy packCopcHierarchy(std::vector<CopcHierarchyEntry> entries,
                                      uint64_t payloadOffset, uint32_t maxEntriesPerPage = 8192);

}  // namespace pcv::io
