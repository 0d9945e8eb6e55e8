/// @brief Clouds larger than memory that are not COPC (LAS and LAZ files, or many tiles): `pcv
/// view` and `pcv render` convert them once to a COPC file in a cache folder, with a progress
/// bar, and stream that; the next time the cached file is streamed at once. A cached file is
/// named after the inputs' absolute paths, sizes and modification times, so a changed input is
/// converted again (and its outdated conversion removed).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pcv::app {

/// $PCV_CACHE_DIR, else $XDG_CACHE_HOME/pcv, else ~/.cache/pcv.
std::filesystem::path copcCacheDirectory();

/// The cache file of `files` in `directory`: "<paths' hash>-<sizes' and times' hash>.copc.laz".
std::filesystem::path copcCachePath(const std::vector<std::string>& files,
                                    const std::filesystem::path& directory);

/// Host memory `files` would take read whole (16 bytes a point and 4 per attribute, as the
/// readers hold them), from their headers; empty when a file's header declares no count.
std::optional<uint64_t> inCoreBytes(const std::vector<std::string>& files);

/// The COPC file to stream instead of `files` when they are LAS or LAZ files that take more than
/// `memoryBytes` read whole (0: the memory available now): the cached conversion, made first
/// when there is none, as `pcv convert` would (says so on stderr, with a progress bar unless
/// `quiet`). Empty when the
/// files fit, or are of other formats (their readers refuse what does not fit, with the sizes).
std::optional<std::string> copcCacheFor(const std::vector<std::string>& files, uint64_t memoryBytes,
                                        bool quiet = false);

}  // namespace pcv::app
