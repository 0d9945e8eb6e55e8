#include "scan_fields.hpp"

#include <cmath>
#include <optional>

#include "pcv/io/malformed_file_error.hpp"

namespace pcv::io::e57 {
namespace {

constexpr const char* kAttributeNames[kAttributeCount] = {
    "intensity",    "return_index", "return_count", "row_index",
    "column_index", "time_stamp",   "scan_index"};
/// The prototype field behind each attribute, and the field that flags its values invalid.
constexpr const char* kAttributeFields[kAttributeCount] = {
    "intensity", "returnIndex", "returnCount", "rowIndex", "columnIndex", "timeStamp", nullptr};
constexpr const char* kAttributeInvalidFields[kAttributeCount] = {
    "isIntensityInvalid", nullptr, nullptr, nullptr, nullptr, "isTimeStampInvalid", nullptr};

std::array<int, 3> findFields(const ScanDescription& scan, const char* a, const char* b,
                              const char* c) {
  return {scan.findField(a), scan.findField(b), scan.findField(c)};
}

bool allFound(const std::array<int, 3>& fields) {
  return fields[0] >= 0 && fields[1] >= 0 && fields[2] >= 0;
}

bool usableRange(const std::optional<ValueRange>& range) {
  return range && std::isfinite(range->minimum) && std::isfinite(range->maximum) &&
         range->maximum > range->minimum;
}

/// The limits the file states for the sensor, else the range the prototype declares, else
/// `fallback`; mapped onto [0, top].
ValueScale scaleFor(const std::optional<ValueRange>& stated, const RecordField& field,
                    std::optional<ValueRange> fallback, double top) {
  std::optional<ValueRange> range = stated;
  if (!usableRange(range)) range = field.declaredRange();
  if (!usableRange(range)) range = fallback;
  if (!usableRange(range)) return {};
  return {.minimum = range->minimum, .scale = top / (range->maximum - range->minimum)};
}

void choosePosition(const ScanDescription& scan, const std::string& fileName, ScanFields& fields) {
  const auto cartesian = findFields(scan, "cartesianX", "cartesianY", "cartesianZ");
  const auto spherical =
      findFields(scan, "sphericalRange", "sphericalAzimuth", "sphericalElevation");
  if (allFound(cartesian)) {
    fields.position = cartesian;
    // A scan with both coordinate sets may flag only the spherical ones; a record whose range
    // is meaningless has no meaningful cartesian position either.
    fields.invalidState = scan.findField("cartesianInvalidState");
    if (fields.invalidState < 0) fields.invalidState = scan.findField("sphericalInvalidState");
  } else if (allFound(spherical)) {
    fields.position = spherical;
    fields.spherical = true;
    fields.invalidState = scan.findField("sphericalInvalidState");
  } else {
    throw MalformedFileError(
        fileName, {},
        "scan " + scan.elementPath +
            ": the prototype has neither cartesianX/Y/Z nor "
            "sphericalRange/Azimuth/Elevation, expected one of the two coordinate sets");
  }
}

void chooseColor(const ScanDescription& scan, ScanFields& fields) {
  const auto color = findFields(scan, "colorRed", "colorGreen", "colorBlue");
  if (!allFound(color)) return;
  fields.color = color;
  fields.colorInvalid = scan.findField("isColorInvalid");
  for (int c = 0; c < 3; ++c) {
    // Float colours that state no limits anywhere are taken as 0..1.
    fields.colorScale[c] = scaleFor(scan.colorLimits[c], scan.prototype[color[c]],
                                    ValueRange{.minimum = 0.0, .maximum = 1.0}, 255.0);
  }
}

void chooseAttributes(const ScanDescription& scan, const DecodeChoices& choices,
                      ScanFields& fields) {
  fields.attribute.fill(-1);
  fields.attributeInvalid.fill(-1);
  for (size_t a = 0; a < kAttributeCount; ++a) {
    if (!choices.attributes[a] || !kAttributeFields[a]) continue;
    fields.attribute[a] = scan.findField(kAttributeFields[a]);
    if (fields.attribute[a] >= 0 && kAttributeInvalidFields[a]) {
      fields.attributeInvalid[a] = scan.findField(kAttributeInvalidFields[a]);
    }
  }
  if (const int intensity = fields.attribute[size_t(Attribute::Intensity)]; intensity >= 0) {
    // Without any limits the values are kept as they are.
    fields.intensityScale =
        scaleFor(scan.intensityLimits, scan.prototype[intensity], std::nullopt, 1.0);
  }
}

}  // namespace

const char* attributeName(Attribute attribute) {
  return kAttributeNames[size_t(attribute)];
}

ScanFields chooseScanFields(const ScanDescription& scan, const DecodeChoices& choices,
                            const std::string& fileName) {
  ScanFields fields;
  choosePosition(scan, fileName, fields);
  if (choices.colors) chooseColor(scan, fields);
  chooseAttributes(scan, choices, fields);
  return fields;
}

}  // namespace pcv::io::e57
