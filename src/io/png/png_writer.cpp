#include "pcv/io/png_writer.hpp"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using FileHandle = std::unique_ptr<std::FILE, FileCloser>;

// libpng reports errors through longjmp by default; a throwing handler unwinds instead.
[[noreturn]] void throwPngError(png_structp, png_const_charp message) {
  throw Error(std::string("libpng: ") + message);
}

/// Writes `image` (rows bottom-up) as an 8-bit RGBA PNG through `png`, set up for its
/// destination by the caller.
void writeImage(png_structp png, png_infop info, const Image& image) {
  png_set_IHDR(png, info, png_uint_32(image.width), png_uint_32(image.height), 8,
               PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int row = image.height - 1; row >= 0; --row) {
    png_write_row(png, reinterpret_cast<png_const_bytep>(&image.pixels[size_t(row) * image.width]));
  }
  png_write_end(png, nullptr);
}

/// A libpng write struct and its info, destroyed together.
struct PngWriter {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, throwPngError, nullptr);
  png_infop info = png_create_info_struct(png);
  PngWriter() {
    if (!png || !info) throw Error("libpng: out of memory");
  }
  ~PngWriter() { png_destroy_write_struct(&png, &info); }
  PngWriter(const PngWriter&) = delete;
  PngWriter& operator=(const PngWriter&) = delete;
};

void appendBytes(png_structp png, png_bytep data, png_size_t length) {
  auto& bytes = *static_cast<std::vector<uint8_t>*>(png_get_io_ptr(png));
  bytes.insert(bytes.end(), data, data + length);
}

void flushNothing(png_structp) {}

}  // namespace

void writePng(const std::filesystem::path& path, const Image& image) {
  FileHandle file(std::fopen(path.c_str(), "wb"));
  if (!file) {
    throw Error("cannot write '" + path.string() + "': " + std::strerror(errno));
  }
  PngWriter writer;
  png_init_io(writer.png, file.get());
  writeImage(writer.png, writer.info, image);
  if (std::fflush(file.get()) != 0) {
    throw Error("cannot write '" + path.string() + "': " + std::strerror(errno));
  }
}

std::vector<uint8_t> encodePng(const Image& image, int level) {
  std::vector<uint8_t> bytes;
  PngWriter writer;
  png_set_write_fn(writer.png, &bytes, appendBytes, flushNothing);
  png_set_compression_level(writer.png, level);
  writeImage(writer.png, writer.info, image);
  return bytes;
}

Image readPng(const std::filesystem::path& path) {
  png_image reader{};
  reader.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&reader, path.c_str())) {
    throw InputError("cannot read PNG '" + path.string() + "': " + reader.message);
  }
  reader.format = PNG_FORMAT_RGBA;
  Image image(int(reader.width), int(reader.height));
  // A negative row stride makes libpng store the bottom row first, as Image wants.
  if (!png_image_finish_read(&reader, nullptr, image.pixels.data(), -png_int_32(image.width * 4),
                             nullptr)) {
    throw InputError("cannot read PNG '" + path.string() + "': " + reader.message);
  }
  return image;
}

}  // namespace pcv
