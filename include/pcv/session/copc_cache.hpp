/// @brief Where LAS and LAZ files too large to read whole keep their one-time conversion to
/// COPC, so that the next time they stream at once. A cached file is named after the inputs'
/// absolute paths, sizes and modification times, so a changed input is converted again (and its
/// outdated conversion removed).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pcv {

/// $PCV_CACHE_DIR, else $XDG_CACHE_HOME/pcv, else ~/.cache/pcv.
std::filesystem::path copcCacheDirectory();

/// The cache file of `files` in `directory`: "<paths' hash>-<sizes' and times' hash>.copc.laz".
std::filesystem::path copcCachePath(const std::vector<std::string>& files,
                                    const std::filesystem::path& directory);

/// Host memory `files` would take read whole (16 bytes a point and 4 per attribute, as the
/// readers hold them), from their headers; empty when a file's header declares no count.
std::optional<uint64_t> inCoreBytes(const std::vector<std::string>& files);

/// Removes the cached conversions of the same inputs as `cached` made before they changed;
/// returns the paths removed.
std::vector<std::filesystem::path> removeOutdatedCopcCaches(const std::filesystem::path& cached);

}  // namespace pcv
