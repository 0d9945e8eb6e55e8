/// @brief Camera path files: a JSON array of keyframes, each
///   {"eye": [x, y, z], "yaw": degrees, "pitch": degrees}  (and optionally "time": seconds)
/// as `pcv render --path` reads them and the viewer's Path tool saves them. Errors name the
/// source, the key and the field, and what was expected (CameraPathError).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "pcv/core/camera_path.hpp"

namespace pcv {

/// The keys of a path file's text; `sourceName` names it in errors. Throws CameraPathError:
/// for a JSON syntax error with its byte offset, for a key with what is wrong in which field
/// (missing, of the wrong type, not finite, an unknown field), and for keys that make no path
/// (CameraPath's checks).
std::vector<CameraKey> parseCameraPath(std::string_view text, const std::string& sourceName);

/// The file's keys, checked as a CameraPath; throws CameraPathError, or InputError when the
/// file cannot be read.
std::vector<CameraKey> readCameraPath(const std::filesystem::path& path);

/// The text of a path file, one key per line, every number written so it reads back to the
/// same bits.
std::string cameraPathJson(const std::vector<CameraKey>& keys);

/// Writes cameraPathJson(keys) to `path` (through a temporary file beside it); throws Error
/// naming the path when it cannot.
void writeCameraPath(const std::filesystem::path& path, const std::vector<CameraKey>& keys);

}  // namespace pcv
