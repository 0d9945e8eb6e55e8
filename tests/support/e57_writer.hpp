/// @brief A writer of E57 files for the tests, the benchmark and the fuzz seeds: pages with
/// their CRC-32C, each scan's compressed vector with bitpacked bytestreams, and the XML section.
/// Values come from callbacks and are streamed, so a large scan needs little memory. Knobs for
/// packet sizes, index and ignored packets and raw XML let tests write what other writers do;
/// resealPages lets a test break a file on purpose while keeping its CRCs right. Header-only and
/// independent of pcv's reader (its own CRC and bit packing), so the tests check one against
/// the other.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace pcv::test::e57 {

enum class FieldType { Integer, ScaledInteger, Single, Double };

struct Field {
  std::string name;  ///< "cartesianX", "colorRed", "nor:normalX" ...
  FieldType type = FieldType::Double;
  int64_t minimum = 0;  ///< Integer, ScaledInteger: the raw range, which sets the bit width
  int64_t maximum = 0;
  double scale = 1.0;  ///< ScaledInteger
  double offset = 0.0;
  std::function<double(uint64_t record)> real;      ///< Single, Double: record's value
  std::function<int64_t(uint64_t record)> integer;  ///< Integer, ScaledInteger: raw value
  std::string xmlAttributes;  ///< added to the generated element: ` minimum="0" maximum="1"`
  std::string xml;            ///< when set, written instead of the generated element

  /// Bits per value, as E57 defines them.
  unsigned bitWidth() const {
    if (type == FieldType::Single) return 32;
    if (type == FieldType::Double) return 64;
    const uint64_t range = uint64_t(maximum) - uint64_t(minimum);
    unsigned bits = 0;
    while (bits < 64 && (range >> bits) != 0) ++bits;
    return bits;
  }
};

struct Scan {
  std::string name;
  std::string guid = "{pcv-test-scan}";
  uint64_t records = 0;
  std::vector<Field> fields;
  std::optional<std::array<double, 4>> rotation;     ///< w, x, y, z
  std::optional<std::array<double, 3>> translation;  ///< x, y, z
  std::string extraXml;  ///< inside the scan's structure: limits, bounds, extensions
  std::optional<uint64_t> declaredRecords;  ///< recordCount in the XML, when not `records`
  std::string codecsXml;                    ///< children of <codecs>
};

struct Layout {
  uint64_t maxPacketBytes = 65536;  ///< data packet size limit (E57: at most 64 KiB)
  uint64_t recordsPerPacket = 0;    ///< 0: as many as fit in maxPacketBytes
  bool ignoredPacket = false;       ///< an ignored packet after the first data packet
  bool indexPacket = false;         ///< an index packet after the data packets
  std::string rootExtraXml{};       ///< inside e57Root after data3D (images2D, extensions)
  /// Rewrites the XML text before it is written (to break it on purpose); offsets stay right.
  std::function<std::string(std::string)> editXml{};
};

namespace detail {

inline uint32_t crc32c(const uint8_t* data, size_t size) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < size; ++i) crc = table[(crc ^ data[i]) & 0xffu] ^ (crc >> 8);
  return ~crc;
}

inline void sealPage(uint8_t* page) {
  const uint32_t crc = crc32c(page, 1020);
  // Stored most significant byte first, as every E57 writer does.
  page[1020] = uint8_t(crc >> 24), page[1021] = uint8_t(crc >> 16);
  page[1022] = uint8_t(crc >> 8), page[1023] = uint8_t(crc);
}

inline uint64_t physicalOf(uint64_t logical) {
  return logical / 1020 * 1024 + logical % 1020;
}

/// Writes logical bytes as sealed pages.
class PagedWriter {
 public:
  explicit PagedWriter(std::ostream& out) : out_(out) {}
  void write(const void* data, size_t size) {
    const uint8_t* bytes = static_cast<const uint8_t*>(data);
    while (size > 0) {
      const size_t take = std::min(size, size_t(1020) - used_);
      std::memcpy(page_.data() + used_, bytes, take);
      used_ += take, bytes += take, size -= take, logical_ += take;
      if (used_ == 1020) flush();
    }
  }
  template <typename T>
  void put(T value) {
    write(&value, sizeof value);
  }
  void zeros(size_t count) {
    static const uint8_t zero[64] = {};
    for (; count > 0; count -= std::min<size_t>(count, 64))
      write(zero, std::min<size_t>(count, 64));
  }
  uint64_t logical() const { return logical_; }
  void finish() {
    if (used_ > 0) {
      std::memset(page_.data() + used_, 0, 1020 - used_);
      flush();
    }
  }

 private:
  void flush() {
    sealPage(page_.data());
    out_.write(reinterpret_cast<const char*>(page_.data()), 1024);
    used_ = 0;
  }
  std::ostream& out_;
  std::array<uint8_t, 1024> page_{};
  size_t used_ = 0;
  uint64_t logical_ = 0;
};

/// One field's bytestream: values packed least significant bit first; whole bytes go out.
struct BitStream {
  std::vector<uint8_t> bytes;
  uint8_t partial = 0;
  unsigned partialBits = 0;
  void put(uint64_t value, unsigned width) {
    while (width > 0) {
      const unsigned take = std::min(width, 8 - partialBits);
      partial |= uint8_t((value & ((1u << take) - 1)) << partialBits);
      partialBits += take, width -= take;
      value = take < 64 ? value >> take : 0;
      if (partialBits == 8) bytes.push_back(partial), partial = 0, partialBits = 0;
    }
  }
  void flushPartial() {
    if (partialBits > 0) bytes.push_back(partial), partial = 0, partialBits = 0;
  }
};

/// Sizes of one scan's section, known before any value is encoded.
struct SectionPlan {
  uint64_t recordsPerPacket = 0;
  uint64_t packets = 0;
  std::vector<std::vector<uint16_t>> lengths;  ///< [packet][field] bytes
  std::vector<uint64_t> packetBytes;           ///< [packet] padded to 4
  uint64_t ignoredBytes = 0, indexBytes = 0;
  uint64_t start = 0;  ///< logical offset of the section header
  uint64_t length = 0;
};

inline uint64_t roundUp4(uint64_t n) {
  return (n + 3) / 4 * 4;
}

inline SectionPlan planSection(const Scan& scan, const Layout& layout) {
  SectionPlan plan;
  const uint64_t n = scan.fields.size();
  uint64_t bitsPerRecord = 0;
  for (const Field& f : scan.fields) bitsPerRecord += f.bitWidth();
  plan.recordsPerPacket = layout.recordsPerPacket;
  if (plan.recordsPerPacket == 0) {
    // Header, lengths, a partial byte per stream and the padding must fit beside the values.
    const uint64_t room = layout.maxPacketBytes - 6 - 2 * n - n - 3;
    plan.recordsPerPacket =
        bitsPerRecord == 0 ? std::max<uint64_t>(scan.records, 1) : room * 8 / bitsPerRecord;
  }
  plan.packets = (scan.records + plan.recordsPerPacket - 1) / plan.recordsPerPacket;
  std::vector<uint64_t> through(n, 0);
  for (uint64_t k = 0; k < plan.packets; ++k) {
    const uint64_t end = std::min((k + 1) * plan.recordsPerPacket, scan.records);
    std::vector<uint16_t> lengths(n);
    uint64_t bytes = 6 + 2 * n;
    for (uint64_t f = 0; f < n; ++f) {
      const uint64_t bits = end * scan.fields[f].bitWidth();
      const uint64_t now = k + 1 == plan.packets ? (bits + 7) / 8 : bits / 8;
      lengths[f] = uint16_t(now - through[f]);
      bytes += now - through[f];
      through[f] = now;
    }
    plan.lengths.push_back(lengths);
    plan.packetBytes.push_back(roundUp4(bytes));
  }
  if (layout.ignoredPacket && plan.packets > 0) plan.ignoredBytes = 64;
  if (layout.indexPacket && plan.packets > 0) plan.indexBytes = 16 + 16 * plan.packets;
  plan.length = 32 + plan.ignoredBytes + plan.indexBytes;
  for (uint64_t bytes : plan.packetBytes) plan.length += bytes;
  return plan;
}

inline std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

inline std::string fieldXml(const Field& f) {
  if (!f.xml.empty()) return f.xml;
  std::string xml = "<" + f.name;
  switch (f.type) {
    case FieldType::Integer:
      xml += " type=\"Integer\" minimum=\"" + std::to_string(f.minimum) + "\" maximum=\"" +
             std::to_string(f.maximum) + "\"";
      break;
    case FieldType::ScaledInteger:
      xml += " type=\"ScaledInteger\" minimum=\"" + std::to_string(f.minimum) + "\" maximum=\"" +
             std::to_string(f.maximum) + "\" scale=\"" + number(f.scale) + "\" offset=\"" +
             number(f.offset) + "\"";
      break;
    case FieldType::Single:
      xml += " type=\"Float\" precision=\"single\"";
      break;
    case FieldType::Double:
      xml += " type=\"Float\"";
      break;
  }
  return xml + f.xmlAttributes + "/>\n";
}

inline std::string scanXml(const Scan& scan, uint64_t sectionPhysical) {
  std::string xml = "<vectorChild type=\"Structure\">\n";
  xml += "<guid type=\"String\"><![CDATA[" + scan.guid + "]]></guid>\n";
  if (!scan.name.empty()) xml += "<name type=\"String\"><![CDATA[" + scan.name + "]]></name>\n";
  if (scan.rotation || scan.translation) {
    xml += "<pose type=\"Structure\">\n";
    if (scan.rotation) {
      const auto& q = *scan.rotation;
      xml += "<rotation type=\"Structure\"><w type=\"Float\">" + number(q[0]) +
             "</w><x type=\"Float\">" + number(q[1]) + "</x><y type=\"Float\">" + number(q[2]) +
             "</y><z type=\"Float\">" + number(q[3]) + "</z></rotation>\n";
    }
    if (scan.translation) {
      const auto& t = *scan.translation;
      xml += "<translation type=\"Structure\"><x type=\"Float\">" + number(t[0]) +
             "</x><y type=\"Float\">" + number(t[1]) + "</y><z type=\"Float\">" + number(t[2]) +
             "</z></translation>\n";
    }
    xml += "</pose>\n";
  }
  xml += scan.extraXml;
  xml += "<points type=\"CompressedVector\" fileOffset=\"" + std::to_string(sectionPhysical) +
         "\" recordCount=\"" + std::to_string(scan.declaredRecords.value_or(scan.records)) +
         "\">\n<prototype type=\"Structure\">\n";
  for (const Field& f : scan.fields) xml += fieldXml(f);
  xml += "</prototype>\n<codecs type=\"Vector\" allowHeterogeneousChildren=\"1\">" +
         scan.codecsXml + "</codecs>\n</points>\n</vectorChild>\n";
  return xml;
}

inline void writeSection(PagedWriter& out, const Scan& scan, const SectionPlan& plan) {
  const uint64_t n = scan.fields.size();
  const uint64_t dataLogical = plan.start + 32;
  out.put<uint8_t>(1);  // compressed vector section
  out.zeros(7);
  out.put<uint64_t>(plan.length);
  out.put<uint64_t>(physicalOf(dataLogical));
  uint64_t indexLogical = plan.start + plan.length - plan.indexBytes;
  out.put<uint64_t>(plan.indexBytes > 0 ? physicalOf(indexLogical) : 0);
  std::vector<BitStream> streams(n);
  std::vector<uint64_t> packetPhysical;
  for (uint64_t k = 0; k < plan.packets; ++k) {
    packetPhysical.push_back(physicalOf(out.logical()));
    const uint64_t first = k * plan.recordsPerPacket;
    const uint64_t end = std::min(first + plan.recordsPerPacket, scan.records);
    for (uint64_t f = 0; f < n; ++f) {
      const Field& field = scan.fields[f];
      const unsigned bits = field.bitWidth();
      BitStream& stream = streams[f];
      stream.bytes.clear();
      for (uint64_t r = first; r < end; ++r) {
        if (field.type == FieldType::Single) {
          const float value = float(field.real(r));
          uint32_t word;
          std::memcpy(&word, &value, 4);
          stream.put(word, 32);
        } else if (field.type == FieldType::Double) {
          const double value = field.real(r);
          uint64_t word;
          std::memcpy(&word, &value, 8);
          stream.put(word, 64);
        } else if (bits > 0) {
          stream.put(uint64_t(field.integer(r)) - uint64_t(field.minimum), bits);
        }
      }
      if (k + 1 == plan.packets) stream.flushPartial();
    }
    out.put<uint8_t>(1);  // data packet
    out.put<uint8_t>(0);
    out.put<uint16_t>(uint16_t(plan.packetBytes[k] - 1));
    out.put<uint16_t>(uint16_t(n));
    uint64_t written = 6 + 2 * n;
    for (uint64_t f = 0; f < n; ++f) out.put<uint16_t>(plan.lengths[k][f]);
    for (uint64_t f = 0; f < n; ++f) {
      // The planned length: the whole bytes so far; a partial byte waits for the next packet.
      out.write(streams[f].bytes.data(), plan.lengths[k][f]);
      written += plan.lengths[k][f];
    }
    out.zeros(plan.packetBytes[k] - written);
    if (k == 0 && plan.ignoredBytes > 0) {
      out.put<uint8_t>(2);  // ignored packet
      out.put<uint8_t>(0);
      out.put<uint16_t>(uint16_t(plan.ignoredBytes - 1));
      for (uint64_t b = 4; b < plan.ignoredBytes; ++b) out.put<uint8_t>(uint8_t(0xa5));
    }
  }
  if (plan.indexBytes > 0) {
    out.put<uint8_t>(0);  // index packet
    out.put<uint8_t>(0);
    out.put<uint16_t>(uint16_t(plan.indexBytes - 1));
    out.put<uint16_t>(uint16_t(plan.packets));
    out.put<uint8_t>(0);  // index level
    out.zeros(9);
    for (uint64_t k = 0; k < plan.packets; ++k) {
      out.put<uint64_t>(k * plan.recordsPerPacket);
      out.put<uint64_t>(packetPhysical[k]);
    }
  }
}

}  // namespace detail

/// Writes an E57 file: header, each scan's section, then the XML section.
inline void writeE57(std::ostream& out, const std::vector<Scan>& scans, const Layout& layout = {}) {
  std::vector<detail::SectionPlan> plans;
  uint64_t logical = 48;
  for (const Scan& scan : scans) {
    plans.push_back(detail::planSection(scan, layout));
    plans.back().start = logical;
    logical += plans.back().length;
  }
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<e57Root type=\"Structure\" xmlns=\"http://www.astm.org/COMMIT/E57/2010-e57-v1.0\">\n"
      "<formatName type=\"String\"><![CDATA[ASTM E57 3D Imaging Data File]]></formatName>\n"
      "<guid type=\"String\"><![CDATA[{pcv-test-file}]]></guid>\n"
      "<versionMajor type=\"Integer\">1</versionMajor>\n<versionMinor type=\"Integer\"/>\n"
      "<data3D type=\"Vector\" allowHeterogeneousChildren=\"1\">\n";
  for (size_t s = 0; s < scans.size(); ++s) {
    xml += detail::scanXml(scans[s], detail::physicalOf(plans[s].start));
  }
  xml += "</data3D>\n" + layout.rootExtraXml + "</e57Root>\n";
  if (layout.editXml) xml = layout.editXml(std::move(xml));
  const uint64_t xmlLogical = logical;
  const uint64_t endLogical = xmlLogical + xml.size();
  const uint64_t pages = (endLogical + 1019) / 1020;

  detail::PagedWriter writer(out);
  writer.write("ASTM-E57", 8);
  writer.put<uint32_t>(1);
  writer.put<uint32_t>(0);
  writer.put<uint64_t>(pages * 1024);
  writer.put<uint64_t>(detail::physicalOf(xmlLogical));
  writer.put<uint64_t>(xml.size());
  writer.put<uint64_t>(1024);
  for (size_t s = 0; s < scans.size(); ++s) detail::writeSection(writer, scans[s], plans[s]);
  writer.write(xml.data(), xml.size());
  writer.finish();
}

inline std::vector<uint8_t> makeE57(const std::vector<Scan>& scans, const Layout& layout = {}) {
  std::ostringstream out(std::ios::binary);
  writeE57(out, scans, layout);
  const std::string bytes = out.str();
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

inline void writeE57File(const std::filesystem::path& path, const std::vector<Scan>& scans,
                         const Layout& layout = {}) {
  std::ofstream out(path, std::ios::binary);
  writeE57(out, scans, layout);
}

/// Recomputes every page's CRC, after a test changed bytes to make a file malformed in some
/// other way than its checksums.
inline void resealPages(std::vector<uint8_t>& bytes) {
  for (size_t page = 0; page + 1024 <= bytes.size(); page += 1024) {
    detail::sealPage(bytes.data() + page);
  }
}

/// The logical byte `logical` of a file as a physical index into its bytes.
inline size_t physicalIndex(uint64_t logical) {
  return size_t(detail::physicalOf(logical));
}

// Fields with the usual names and types, for brevity in tests.
inline Field floatField(std::string name, std::function<double(uint64_t)> value,
                        bool single = true) {
  return {.name = std::move(name),
          .type = single ? FieldType::Single : FieldType::Double,
          .minimum = 0,
          .maximum = 0,
          .scale = 1.0,
          .offset = 0.0,
          .real = std::move(value),
          .integer = {},
          .xmlAttributes = {},
          .xml = {}};
}

inline Field integerField(std::string name, int64_t minimum, int64_t maximum,
                          std::function<int64_t(uint64_t)> value) {
  return {.name = std::move(name),
          .type = FieldType::Integer,
          .minimum = minimum,
          .maximum = maximum,
          .scale = 1.0,
          .offset = 0.0,
          .real = {},
          .integer = std::move(value),
          .xmlAttributes = {},
          .xml = {}};
}

inline Field scaledField(std::string name, int64_t minimum, int64_t maximum, double scale,
                         double offset, std::function<int64_t(uint64_t)> value) {
  return {.name = std::move(name),
          .type = FieldType::ScaledInteger,
          .minimum = minimum,
          .maximum = maximum,
          .scale = scale,
          .offset = offset,
          .real = {},
          .integer = std::move(value),
          .xmlAttributes = {},
          .xml = {}};
}

}  // namespace pcv::test::e57
