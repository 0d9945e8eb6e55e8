#include "disk_cache_bound.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

namespace pcv::io {
namespace {

namespace fs = std::filesystem;

struct CachedFile {
  fs::file_time_type used;
  uint64_t bytes = 0;
  fs::path path;
};

/// The block files under `folder` (not those being written), and their bytes in all.
std::vector<CachedFile> cachedFiles(const std::string& folder, uint64_t& total) {
  std::vector<CachedFile> files;
  total = 0;
  std::error_code error;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_regular_file(error) || it->path().filename().string().find(".part") !=
                                           std::string::npos) {
      continue;
    }
    CachedFile file{.used = it->last_write_time(error),
                    .bytes = it->file_size(error),
                    .path = it->path()};
    if (error) {
      error.clear();
      continue;
    }
    total += file.bytes;
    files.push_back(std::move(file));
  }
  return files;
}

}  // namespace

uint64_t trimDiskCache(const std::string& folder, uint64_t targetBytes) {
  uint64_t total = 0;
  std::vector<CachedFile> files = cachedFiles(folder, total);
  if (total <= targetBytes) return total;
  // Oldest first; equal times by path, so the choice does not depend on the listing's order.
  std::sort(files.begin(), files.end(), [](const CachedFile& a, const CachedFile& b) {
    return a.used != b.used ? a.used < b.used : a.path < b.path;
  });
  std::error_code error;
  for (const CachedFile& file : files) {
    if (total <= targetBytes) break;
    if (!fs::remove(file.path, error) || error) {
      error.clear();
      continue;
    }
    total -= file.bytes;
    // A file's folder (one per remote file and version) goes with its last block.
    const fs::path parent = file.path.parent_path();
    if (parent != fs::path(folder) && fs::is_empty(parent, error) && !error) {
      fs::remove(parent, error);
    }
    error.clear();
  }
  return total;
}

void touchCachedBlock(const std::string& path) noexcept {
  std::error_code error;
  fs::last_write_time(path, fs::file_time_type::clock::now(), error);
}

void DiskCacheBound::added(uint64_t bytes) noexcept {
  const std::lock_guard lock(mutex_);
  try {
    if (!measured_) {
      cachedFiles(folder_, bytes_);  // counts the block just written too
      measured_ = true;
    } else {
      bytes_ += bytes;
    }
    if (bytes_ <= limitBytes_) return;
    bytes_ = trimDiskCache(folder_, limitBytes_ / 10 * 9);
  } catch (const std::exception&) {
    // The cache is a help: a folder that cannot be listed is measured again at the next write.
    measured_ = false;
  }
}

DiskCacheBound& diskCacheBound(const std::string& folder, uint64_t limitBytes) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, uint64_t>, std::unique_ptr<DiskCacheBound>> bounds;
  const std::lock_guard lock(mutex);
  auto& bound = bounds[{folder, limitBytes}];
  if (!bound) bound = std::make_unique<DiskCacheBound>(folder, limitBytes);
  return *bound;
}

}  // namespace pcv::io
