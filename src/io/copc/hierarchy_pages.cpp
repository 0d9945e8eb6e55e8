// Pages are cut breadth first: a page rooted at a node takes whole levels of its subtree while
// they fit, and the nodes of the first level that does not fit root pages of their own. Layout:
// the root page, then the others in the order they were cut, so a page's offset is known once
// every page's entry count is.
#include "hierarchy_pages.hpp"

#include <cstring>
#include <string>
#include <unordered_map>

#include "pcv/core/error.hpp"
#include "pcv/octree/octree_keys.hpp"

namespace pcv::io {
namespace {

constexpr uint64_t kEntryBytes = 32;

uint64_t packedKey(const CopcNodeKey& key) {
  return (uint64_t(key.level) << 58) | octreeKey(uint32_t(key.x), uint32_t(key.y), uint32_t(key.z));
}

CopcNodeKey parentOf(const CopcNodeKey& key) {
  return {.level = key.level - 1, .x = key.x >> 1, .y = key.y >> 1, .z = key.z >> 1};
}

std::string keyText(const CopcNodeKey& key) {
  return std::to_string(key.level) + "-" + std::to_string(key.x) + "-" + std::to_string(key.y) +
         "-" + std::to_string(key.z);
}

struct Page {
  std::vector<size_t> nodes;     ///< entries listed in full
  std::vector<size_t> children;  ///< pages listed as pointers (indices into the page list)
  size_t root = 0;               ///< the node it starts at
  uint64_t offset = 0;
};

void put(std::vector<uint8_t>& out, const void* value, size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(value);
  out.insert(out.end(), p, p + bytes);
}

void putEntry(std::vector<uint8_t>& out, const CopcNodeKey& key, uint64_t offset, int32_t bytes,
              int32_t pointCount) {
  const int32_t fields[4] = {key.level, key.x, key.y, key.z};
  put(out, fields, sizeof fields);
  put(out, &offset, 8);
  put(out, &bytes, 4);
  put(out, &pointCount, 4);
}

}  // namespace

PackedCopcHierarchy packCopcHierarchy(std::vector<CopcHierarchyEntry> entries,
                                      uint64_t payloadOffset, uint32_t maxEntriesPerPage) {
  std::unordered_map<uint64_t, size_t> indexOf;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!indexOf.emplace(packedKey(entries[i].key), i).second) {
      throw Error("COPC hierarchy: node " + keyText(entries[i].key) + " is listed twice");
    }
  }
  if (!indexOf.contains(packedKey({}))) {
    indexOf.emplace(packedKey({}), entries.size());
    entries.push_back({.key = {}});
  }
  // Every node's parent, added where missing (the loop also visits the added ones).
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].key.level == 0) continue;
    const CopcNodeKey parent = parentOf(entries[i].key);
    if (indexOf.emplace(packedKey(parent), entries.size()).second) {
      entries.push_back({.key = parent});
    }
  }
  std::vector<std::vector<size_t>> childrenOf(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].key.level > 0) {
      childrenOf[indexOf.at(packedKey(parentOf(entries[i].key)))].push_back(i);
    }
  }
  std::vector<Page> pages;
  pages.push_back({.root = indexOf.at(packedKey({}))});
  for (size_t p = 0; p < pages.size(); ++p) {
    auto childrenOfAll = [&](const std::vector<size_t>& nodes) {
      std::vector<size_t> below;
      for (const size_t node : nodes) {
        below.insert(below.end(), childrenOf[node].begin(), childrenOf[node].end());
      }
      return below;
    };
    std::vector<size_t> listed{pages[p].root};
    std::vector<size_t> below = childrenOfAll(listed);
    // A level joins the page when it fits together with the pointers to the level under it.
    while (!below.empty()) {
      std::vector<size_t> further = childrenOfAll(below);
      if (listed.size() + below.size() + further.size() > maxEntriesPerPage) break;
      listed.insert(listed.end(), below.begin(), below.end());
      below = std::move(further);
    }
    for (const size_t node : below) {
      pages[p].children.push_back(pages.size());
      pages.push_back({.root = node});
    }
    pages[p].nodes = std::move(listed);
  }
  uint64_t offset = payloadOffset;
  for (Page& page : pages) {
    page.offset = offset;
    offset += (page.nodes.size() + page.children.size()) * kEntryBytes;
  }
  PackedCopcHierarchy packed;
  packed.payload.reserve(offset - payloadOffset);
  packed.pageCount = uint32_t(pages.size());
  packed.rootPageBytes = (pages[0].nodes.size() + pages[0].children.size()) * kEntryBytes;
  for (const Page& page : pages) {
    for (const size_t node : page.nodes) {
      const CopcHierarchyEntry& e = entries[node];
      putEntry(packed.payload, e.key, e.chunkOffset, int32_t(e.chunkBytes), int32_t(e.pointCount));
    }
    for (const size_t child : page.children) {
      const Page& target = pages[child];
      const uint64_t bytes = (target.nodes.size() + target.children.size()) * kEntryBytes;
      putEntry(packed.payload, entries[target.root].key, target.offset, int32_t(bytes), -1);
    }
  }
  return packed;
}

}  // namespace pcv::io
