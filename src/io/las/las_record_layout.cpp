// Where each field of a LAS point record lies (LAS 1.4 R15, "Point Data Record Format" tables),
// as the record decoder's layout: every field an attribute under one name whatever the format
// (the scan angle in degrees: whole in formats 0-5, steps of 0.006 in 6-10), extra bytes under
// the names their VLR gives.
#include <algorithm>

#include "las_header.hpp"
#include "las_point_fields.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::io {
namespace {

/// Byte offset of Red in formats with RGB, 0 where there is none.
constexpr uint16_t kRgbOffset[11] = {0, 0, 20, 28, 0, 28, 0, 30, 30, 0, 30};
/// Byte offset of GPS time, 0 where there is none.
constexpr uint16_t kGpsOffset[11] = {0, 20, 0, 20, 20, 20, 22, 22, 22, 22, 22};

class LayoutBuilder {
 public:
  explicit LayoutBuilder(uint64_t stride) : stride_(stride) { layout.bytesPerPoint = stride; }

  /// A whole field at `base`, world = raw * scale + offset.
  void add(const std::string& name, ScalarType type, AttributeType as, uint64_t base,
           double scale = 1.0, double offset = 0.0) {
    push(name, as, {.type = type, .base = base, .scale = scale, .offset = offset});
  }
  /// Bits [shift, shift + width of mask) of the byte at `base`.
  void addBits(const std::string& name, uint64_t base, uint32_t shift, uint32_t mask) {
    push(name, AttributeType::UInt8,
         {.type = ScalarType::UInt8, .base = base, .bitShift = shift, .bitMask = mask});
  }
  void push(const std::string& name, AttributeType as, FieldLayout field) {
    field.role = FieldRole::Attribute;
    field.stride = stride_;
    field.attribute = int(layout.attributeNames.size());
    layout.fields.push_back(field);
    layout.attributeNames.push_back(name);
    layout.attributeTypes.push_back(as);
  }

  RecordLayout layout;

 private:
  uint64_t stride_;
};

}  // namespace

RecordLayout lasRecordLayout(const LasHeader& h) {
  const uint64_t stride = h.recordLength;
  LayoutBuilder b(stride);
  for (int a = 0; a < 3; ++a) {
    b.layout.fields.push_back({.type = ScalarType::Int32,
                               .role = FieldRole(int(FieldRole::X) + a),
                               .base = uint64_t(4 * a),
                               .stride = stride,
                               .scale = h.scale[a],
                               .offset = h.offset[a]});
  }
  const bool extended = h.pointFormat >= 6;
  b.add("intensity", ScalarType::UInt16, AttributeType::UInt16, 12);
  if (extended) {
    // Byte 14: return number (bits 0-3), number of returns (4-7); byte 15: class flags (0-3),
    // scanner channel (4-5), scan direction (6), edge of flight line (7); byte 16: class.
    b.add("classification", ScalarType::UInt8, AttributeType::UInt8, 16);
    b.addBits("return_number", 14, 0, 0x0f);
    b.addBits("number_of_returns", 14, 4, 0x0f);
    b.addBits("synthetic", 15, 0, 1);
    b.addBits("key_point", 15, 1, 1);
    b.addBits("withheld", 15, 2, 1);
    b.addBits("overlap", 15, 3, 1);
    b.addBits("scanner_channel", 15, 4, 3);
    b.addBits("scan_direction", 15, 6, 1);
    b.addBits("edge_of_flight_line", 15, 7, 1);
    b.add("user_data", ScalarType::UInt8, AttributeType::UInt8, 17);
    b.add("scan_angle", ScalarType::Int16, AttributeType::Float32, 18, 0.006);
    b.add("point_source_id", ScalarType::UInt16, AttributeType::UInt16, 20);
  } else {
    // Byte 14: return number (bits 0-2), number of returns (3-5), scan direction (6), edge of
    // flight line (7); byte 15: class (0-4), synthetic, key-point, withheld (5-7).
    b.addBits("classification", 15, 0, 0x1f);
    b.addBits("return_number", 14, 0, 0x07);
    b.addBits("number_of_returns", 14, 3, 0x07);
    b.addBits("synthetic", 15, 5, 1);
    b.addBits("key_point", 15, 6, 1);
    b.addBits("withheld", 15, 7, 1);
    b.addBits("scan_direction", 14, 6, 1);
    b.addBits("edge_of_flight_line", 14, 7, 1);
    // The scan angle rank in whole degrees, a float like formats 6-10 give it.
    b.add("scan_angle", ScalarType::Int8, AttributeType::Float32, 16);
    b.add("user_data", ScalarType::UInt8, AttributeType::UInt8, 17);
    b.add("point_source_id", ScalarType::UInt16, AttributeType::UInt16, 18);
  }
  if (const uint64_t gps = kGpsOffset[h.pointFormat]) {
    b.add("gps_time", ScalarType::Float64, AttributeType::Float64, gps);
  }
  if (h.pointFormat == 8 || h.pointFormat == 10) {
    b.add("nir", ScalarType::UInt16, AttributeType::UInt16, 36);
  }
  if (const uint32_t wave = lasFormatFields(h.pointFormat).wave) {
    for (const LasWavePacketField& field : kLasWavePacketFields) {
      b.add(field.name, field.type, field.type, wave + field.offset);
    }
  }
  for (const LasExtraBytes& extra : h.extraBytes) {
    FieldLayout field{.type = extra.type,
                      .base = extra.recordOffset,
                      .scale = extra.scale,
                      .offset = extra.offset,
                      .hasNoData = extra.hasNoData,
                      .noData = extra.noData};
    // Scaled values are not whole numbers, and no-data values become NaN: both need a float.
    const AttributeType as = extra.scaled || extra.hasNoData ? AttributeType::Float64 : extra.type;
    const bool taken = std::find(b.layout.attributeNames.begin(), b.layout.attributeNames.end(),
                                 extra.name) != b.layout.attributeNames.end();
    if (!taken) b.push(extra.name, as, field);
  }
  if (const uint64_t rgb = kRgbOffset[h.pointFormat]) {
    for (int c = 0; c < 3; ++c) {
      b.add(kLasColorChannelNames[c], ScalarType::UInt16, AttributeType::UInt16, rgb + 2 * c);
    }
    for (int c = 0; c < 3; ++c) {
      b.layout.fields.push_back({.type = ScalarType::UInt16,
                                 .role = FieldRole(int(FieldRole::Red) + c),
                                 .base = rgb + 2 * c,
                                 .stride = stride});
    }
  }
  return b.layout;
}

RecordLayout lasRecordLayout(const LasHeader& header, const ReadOptions* options) {
  const RecordLayout full = lasRecordLayout(header);
  const ReadOptions defaults;
  const ReadOptions& o = options ? *options : defaults;
  RecordLayout chosen{.bytesPerPoint = full.bytesPerPoint};
  for (FieldLayout field : full.fields) {
    if (field.role == FieldRole::Attribute) {
      const std::string& name = full.attributeNames[size_t(field.attribute)];
      if (!o.wantsAttribute(name, lasAttributeReadByDefault(name))) continue;
      chosen.attributeTypes.push_back(full.attributeTypes[size_t(field.attribute)]);
      field.attribute = int(chosen.attributeNames.size());
      chosen.attributeNames.push_back(name);
    }
    const bool color = field.role == FieldRole::Red || field.role == FieldRole::Green ||
                       field.role == FieldRole::Blue;
    if (color && !o.colors) continue;
    chosen.fields.push_back(field);
  }
  return chosen;
}

}  // namespace pcv::io

namespace pcv {

std::vector<std::string> lasPointAttributes(int pointFormat) {
  io::LasHeader header;
  header.versionMajor = 1;
  header.versionMinor = 4;
  header.pointFormat = std::clamp(pointFormat, 0, 10);
  header.formatByte = uint8_t(header.pointFormat);
  header.recordLength = io::kLasFormatBytes[header.pointFormat];
  return io::lasRecordLayout(header).attributeNames;
}

bool lasAttributeReadByDefault(const std::string& name) {
  return name == "intensity" || name == "classification" || name == "return_number" ||
         name == "number_of_returns";
}

}  // namespace pcv
