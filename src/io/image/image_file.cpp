#include "pcv/io/image_file.hpp"

#include <algorithm>
#include <cctype>

#include "pcv/core/error.hpp"
#include "pcv/io/jpeg_writer.hpp"
#include "pcv/io/png_writer.hpp"

namespace pcv {

bool jpegWritable() {
  return PCV_WITH_JPEG != 0;
}

ImageFileKind imageFileKindFor(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (extension == ".png") return ImageFileKind::Png;
  if (extension == ".jpg" || extension == ".jpeg") {
    if (!jpegWritable()) {
      throw UnavailableError("cannot write '" + path.string() +
                             "': this pcv was built without libturbojpeg (Debian: "
                             "libturbojpeg0-dev), so it writes no JPEG; write a .png");
    }
    return ImageFileKind::Jpeg;
  }
  throw InputError("cannot write '" + path.string() + "': " +
                   (extension.empty()
                        ? std::string("no extension")
                        : "the extension '" + extension + "' is no image pcv writes") +
                   "; expected .png" + (jpegWritable() ? ", .jpg or .jpeg" : ""));
}

void writeImageFile(const std::filesystem::path& path, const Image& image, ImageFileKind kind) {
  switch (kind) {
    case ImageFileKind::Png:
      writePng(path, image);
      return;
    case ImageFileKind::Jpeg:
      writeJpeg(path, image);
      return;
  }
}

}  // namespace pcv
