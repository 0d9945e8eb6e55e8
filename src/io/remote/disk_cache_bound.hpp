/// @brief Keeps the HTTP disk cache ($PCV_CACHE_DIR/http) within its size limit: the blocks used
/// longest ago go first. A block's file time is its last use (written, or touched when read), so
/// eviction needs no index of its own and several processes sharing the folder agree on it.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

namespace pcv::io {

/// Removes the oldest block files (by modification time) under `folder` until what is left takes
/// at most `targetBytes`, and the folders they leave empty. Files being written (".part" names)
/// are left alone. Returns the bytes left. Never throws: a file that cannot be removed is
/// skipped.
uint64_t trimDiskCache(const std::string& folder, uint64_t targetBytes);

/// Marks a cached block as just used (its modification time now), so it goes last.
void touchCachedBlock(const std::string& path) noexcept;

/// The bound on one cache folder, shared by the process's remote files: counts the bytes written
/// and trims the folder to nine tenths of the limit when they pass it (the folder is measured
/// at the first write, so what earlier processes left counts too).
class DiskCacheBound {
 public:
  DiskCacheBound(std::string folder, uint64_t limitBytes)
      : folder_(std::move(folder)), limitBytes_(limitBytes) {}
  /// Counts a block of `bytes` just written to the folder; trims when past the limit.
  void added(uint64_t bytes) noexcept;

 private:
  std::mutex mutex_;
  std::string folder_;
  uint64_t limitBytes_;
  bool measured_ = false;
  uint64_t bytes_ = 0;  // guarded: in the folder, as far as this process knows
};

/// The bound for `folder` (one per folder per process).
DiskCacheBound& diskCacheBound(const std::string& folder, uint64_t limitBytes);

}  // namespace pcv::io
