/// @brief Writers of small synthetic LAS and binary PLY files, for the loader tests (edge cases
/// written into a temp dir) and the load benchmark (large files). Header-only, no GoogleTest.
#pragma once

#include <cstdint>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace pcv::test {

struct SyntheticPoint {
  double x, y, z;
  uint16_t red = 0, green = 0, blue = 0;  ///< 16-bit in LAS, the low byte in PLY
  uint16_t intensity = 0;
  uint8_t classification = 0;
  uint8_t returnNumber = 1;
};

/// Little-endian byte buffer.
struct ByteWriter {
  std::vector<uint8_t> bytes;
  template <typename T>
  void put(T value) {
    uint8_t raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
  }
  void putText(const std::string& text, size_t width) {
    std::string padded = text;
    padded.resize(width, '\0');
    bytes.insert(bytes.end(), padded.begin(), padded.end());
  }
  void zeros(size_t n) { bytes.insert(bytes.end(), n, 0); }
};

inline void writeBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

inline void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

struct LasOptions {
  int minor = 2;        ///< 1.minor
  int pointFormat = 3;  ///< 0-10
  double scale = 0.01;  ///< all three axes
  double offset[3] = {0.0, 0.0, 0.0};
  uint16_t extraBytes = 0;         ///< appended to each record
  uint64_t declaredCount = ~0ull;  ///< header count; ~0 = the real one
};

/// A LAS file with `points`: 1.0-1.3 write the 227-byte header, 1.4 the 375-byte one.
inline std::vector<uint8_t> makeLas(const std::vector<SyntheticPoint>& points,
                                    const LasOptions& o = {}) {
  static const uint16_t formatBytes[11] = {20, 28, 26, 34, 57, 63, 30, 36, 38, 59, 67};
  static const uint16_t rgbOffset[11] = {0, 0, 20, 28, 0, 28, 0, 30, 30, 0, 30};
  const uint16_t headerSize = o.minor >= 4 ? 375 : o.minor == 3 ? 235 : 227;
  const uint16_t recordLength = uint16_t(formatBytes[o.pointFormat] + o.extraBytes);
  const uint64_t count = o.declaredCount == ~0ull ? points.size() : o.declaredCount;
  ByteWriter w;
  w.putText("LASF", 4);
  w.zeros(20);  // source id, global encoding, GUID
  w.put<uint8_t>(1);
  w.put<uint8_t>(uint8_t(o.minor));
  w.putText("pcv test", 32);
  w.putText("pcv", 32);
  w.put<uint16_t>(1);
  w.put<uint16_t>(2026);
  w.put<uint16_t>(headerSize);
  w.put<uint32_t>(headerSize);  // offset to points: no VLRs
  w.put<uint32_t>(0);
  w.put<uint8_t>(uint8_t(o.pointFormat));
  w.put<uint16_t>(recordLength);
  w.put<uint32_t>(o.pointFormat >= 6 ? 0u : uint32_t(count));
  for (int i = 0; i < 5; ++i) w.put<uint32_t>(0);
  for (int a = 0; a < 3; ++a) w.put<double>(o.scale);
  for (int a = 0; a < 3; ++a) w.put<double>(o.offset[a]);
  for (int a = 0; a < 6; ++a) w.put<double>(0.0);  // max/min: not trusted by the reader
  if (o.minor >= 3) w.put<uint64_t>(0);            // start of waveform data
  if (o.minor >= 4) {
    w.put<uint64_t>(0);  // first EVLR
    w.put<uint32_t>(0);
    w.put<uint64_t>(count);
    for (int i = 0; i < 15; ++i) w.put<uint64_t>(0);
  }
  w.bytes.reserve(w.bytes.size() + points.size() * recordLength);
  for (const SyntheticPoint& p : points) {
    const size_t start = w.bytes.size();
    w.put<int32_t>(int32_t(std::llround((p.x - o.offset[0]) / o.scale)));
    w.put<int32_t>(int32_t(std::llround((p.y - o.offset[1]) / o.scale)));
    w.put<int32_t>(int32_t(std::llround((p.z - o.offset[2]) / o.scale)));
    w.put<uint16_t>(p.intensity);
    if (o.pointFormat >= 6) {
      w.put<uint8_t>(uint8_t(p.returnNumber | 0x10));
      w.put<uint8_t>(0);
      w.put<uint8_t>(p.classification);
    } else {
      w.put<uint8_t>(uint8_t(p.returnNumber | 0x08));
      w.put<uint8_t>(p.classification);
    }
    w.zeros(start + recordLength - w.bytes.size());
    if (const uint16_t rgb = rgbOffset[o.pointFormat]) {
      std::memcpy(&w.bytes[start + rgb], &p.red, 2);
      std::memcpy(&w.bytes[start + rgb + 2], &p.green, 2);
      std::memcpy(&w.bytes[start + rgb + 4], &p.blue, 2);
    }
  }
  return w.bytes;
}

/// A binary little-endian PLY: float x y z, uchar red green blue, float intensity, then an
/// element "face" with `faces` empty lists before or after the vertices.
inline std::vector<uint8_t> makeBinaryPly(const std::vector<SyntheticPoint>& points,
                                          bool facesFirst = false, uint64_t faces = 0) {
  std::string header = "ply\nformat binary_little_endian 1.0\ncomment pcv test\n";
  const std::string faceHeader =
      "element face " + std::to_string(faces) + "\nproperty list uchar int vertex_indices\n";
  if (facesFirst) header += faceHeader;
  header += "element vertex " + std::to_string(points.size()) +
            "\nproperty float x\nproperty float y\nproperty float z\nproperty uchar red\n"
            "property uchar green\nproperty uchar blue\nproperty float intensity\n";
  if (!facesFirst) header += faceHeader;
  header += "end_header\n";
  ByteWriter w;
  w.bytes.assign(header.begin(), header.end());
  auto putFaces = [&] {
    for (uint64_t f = 0; f < faces; ++f) {
      w.put<uint8_t>(3);
      w.put<int32_t>(0), w.put<int32_t>(1), w.put<int32_t>(2);
    }
  };
  if (facesFirst) putFaces();
  w.bytes.reserve(w.bytes.size() + points.size() * 19);
  for (const SyntheticPoint& p : points) {
    w.put<float>(float(p.x)), w.put<float>(float(p.y)), w.put<float>(float(p.z));
    w.put<uint8_t>(uint8_t(p.red)), w.put<uint8_t>(uint8_t(p.green)),
        w.put<uint8_t>(uint8_t(p.blue));
    w.put<float>(float(p.intensity));
  }
  if (!facesFirst) putFaces();
  return w.bytes;
}

}  // namespace pcv::test
