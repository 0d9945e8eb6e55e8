#include "block_cache.hpp"

namespace pcv::io {

Block BlockCache::find(uint64_t source, uint64_t block) {
  const std::lock_guard lock(mutex_);
  const auto found = byKey_.find({source, block});
  if (found == byKey_.end()) return nullptr;
  recent_.splice(recent_.begin(), recent_, found->second);
  return found->second->second;
}

void BlockCache::insert(uint64_t source, uint64_t block, Block bytes) {
  const std::lock_guard lock(mutex_);
  const Key key{source, block};
  if (byKey_.contains(key)) return;  // fetched twice by two readers: the same bytes
  bytes_ += bytes->size();
  recent_.emplace_front(key, std::move(bytes));
  byKey_[key] = recent_.begin();
  evict();
}

void BlockCache::setBudget(uint64_t bytes) {
  const std::lock_guard lock(mutex_);
  budget_ = bytes;
  evict();
}

uint64_t BlockCache::residentBytes() const {
  const std::lock_guard lock(mutex_);
  return bytes_;
}

void BlockCache::evict() {
  // Readers hold the blocks they assemble, so evicting one in use frees it only after them.
  while (bytes_ > budget_ && !recent_.empty()) {
    bytes_ -= recent_.back().second->size();
    byKey_.erase(recent_.back().first);
    recent_.pop_back();
  }
}

}  // namespace pcv::io
