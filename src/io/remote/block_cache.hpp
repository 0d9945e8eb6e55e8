/// @brief Fetched blocks of remote files kept in memory, least recently used evicted past a byte
/// budget, shared by every remote source of the process (one budget, as --memory is one).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace pcv::io {

using Block = std::shared_ptr<const std::vector<uint8_t>>;

class BlockCache {
 public:
  /// `source` tells files apart (a number per remote source); `block` is the block's index.
  Block find(uint64_t source, uint64_t block);
  void insert(uint64_t source, uint64_t block, Block bytes);
  /// Evicts down to `bytes` and keeps to it from now on.
  void setBudget(uint64_t bytes);
  uint64_t residentBytes() const;

 private:
  struct Key {
    uint64_t source, block;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& key) const { return key.source * 0x9e3779b97f4a7c15ull ^ key.block; }
  };
  using Entry = std::pair<Key, Block>;
  void evict();

  mutable std::mutex mutex_;
  std::list<Entry> recent_;  ///< most recently used first
  std::unordered_map<Key, std::list<Entry>::iterator, KeyHash> byKey_;
  uint64_t bytes_ = 0;
  uint64_t budget_ = 256ull << 20;
};

}  // namespace pcv::io
