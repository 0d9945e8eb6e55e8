#include "pcv/io/jpeg_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "pcv/core/error.hpp"

#if PCV_WITH_JPEG
#include <turbojpeg.h>
#endif

namespace pcv {

#if PCV_WITH_JPEG

namespace {

struct CompressorCloser {
  void operator()(void* handle) const { tjDestroy(handle); }
};
struct BufferFreer {
  void operator()(unsigned char* buffer) const { tjFree(buffer); }
};

}  // namespace

std::vector<uint8_t> encodeJpeg(const Image& image, int quality) {
  const std::unique_ptr<void, CompressorCloser> compressor(tjInitCompress());
  if (!compressor) throw Error(std::string("libturbojpeg: ") + tjGetErrorStr2(nullptr));
  unsigned char* encoded = nullptr;
  unsigned long encodedBytes = 0;
  // Image's packed RGBA8 words are R, G, B, A in memory; rows bottom-up, which TJFLAG_BOTTOMUP
  // turns into JPEG's top-down order without a copy.
  const int failed =
      tjCompress2(compressor.get(), reinterpret_cast<const unsigned char*>(image.pixels.data()),
                  image.width, image.width * 4, image.height, TJPF_RGBA, &encoded, &encodedBytes,
                  TJSAMP_420, quality, TJFLAG_BOTTOMUP);
  const std::unique_ptr<unsigned char, BufferFreer> owned(encoded);
  if (failed != 0) throw Error(std::string("JPEG encoding: ") + tjGetErrorStr2(compressor.get()));
  return std::vector<uint8_t>(encoded, encoded + encodedBytes);
}

#else

std::vector<uint8_t> encodeJpeg(const Image&, int) {
  throw UnavailableError(
      "pcv was built without libturbojpeg (Debian: libturbojpeg0-dev): no JPEG; use PNG");
}

#endif

void writeJpeg(const std::filesystem::path& path, const Image& image, int quality) {
  std::vector<uint8_t> encoded;
  try {
    encoded = encodeJpeg(image, quality);
  } catch (const UnavailableError& error) {
    throw UnavailableError("cannot write '" + path.string() + "': " + error.what());
  } catch (const Error& error) {
    throw Error("cannot encode '" + path.string() + "': " + error.what());
  }
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw Error("cannot write '" + path.string() + "': " + std::strerror(errno));
  const bool written = std::fwrite(encoded.data(), 1, encoded.size(), file) == encoded.size();
  const int why = errno;
  if (std::fclose(file) != 0 || !written) {
    throw Error("cannot write '" + path.string() + "': " + std::strerror(written ? errno : why));
  }
}

}  // namespace pcv
