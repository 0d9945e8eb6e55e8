/// @brief Image files by their extension (.png, .jpg/.jpeg), for `pcv render --out`: the kind is
/// chosen and checked before anything is read, so a name pcv cannot write fails at once.
#pragma once

#include <filesystem>
#include <string>

#include "pcv/core/image.hpp"

namespace pcv {

enum class ImageFileKind { Png, Jpeg };

/// The kind `path`'s extension names (case-insensitive). Throws InputError naming the path for
/// any other extension, and UnavailableError for .jpg/.jpeg in a build without libturbojpeg.
ImageFileKind imageFileKindFor(const std::filesystem::path& path);

/// True when this build writes JPEG (libturbojpeg was found).
bool jpegWritable();

/// Writes `image` as `kind`; throws Error naming the path when the file cannot be written.
void writeImageFile(const std::filesystem::path& path, const Image& image, ImageFileKind kind);

}  // namespace pcv
