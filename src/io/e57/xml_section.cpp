// The XML section through pugixml: element types are read from each element's "type"
// attribute, as E57 requires, and every number is parsed whole (no trailing text). An element
// that E57 declares but leaves empty (<versionMinor type="Integer"/>) has its type's default
// value, 0.
#include "xml_section.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include <pugixml.hpp>

#include "pcv/io/malformed_file_error.hpp"

namespace pcv::io::e57 {
namespace {

/// Writers that know no bounds state placeholders (libE57Format's defaults are -DBL_MAX and
/// DBL_MAX): no coordinate of a scan lies beyond 1e15 (a double's unit digit is already lost
/// there), so such a box, or one with NaN or min above max, states nothing.
bool isStatedBox(const Box3d& box) {
  constexpr double kLargestCoordinate = 1e15;
  for (int axis = 0; axis < 3; ++axis) {
    const double low = box.min[axis], high = box.max[axis];
    if (!(std::abs(low) < kLargestCoordinate && std::abs(high) < kLargestCoordinate)) return false;
    if (low > high) return false;
  }
  return true;
}

std::string_view trimmed(std::string_view text) {
  const auto isSpace = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
  return text;
}

template <typename T>
bool parseWhole(std::string_view text, T& value) {
  text = trimmed(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

std::string shortDouble(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

/// Reads elements below one data3D entry, failing with the element's path in the message.
class XmlReader {
 public:
  explicit XmlReader(const std::string& fileName) : fileName_(fileName) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw MalformedFileError(fileName_, {}, "XML section: " + path + ": " + what);
  }

  std::string typeOf(const pugi::xml_node& node, const std::string& path) const {
    const pugi::xml_attribute type = node.attribute("type");
    if (!type) fail(path, "element has no 'type' attribute");
    return type.value();
  }

  void expectType(const pugi::xml_node& node, const std::string& path,
                  std::string_view expected) const {
    const std::string type = typeOf(node, path);
    if (type != expected) {
      fail(path, "type '" + type + "', expected '" + std::string(expected) + "'");
    }
  }

  int64_t integerAttribute(const pugi::xml_node& node, const std::string& path, const char* name,
                           int64_t fallback) const {
    const pugi::xml_attribute attribute = node.attribute(name);
    if (!attribute) return fallback;
    int64_t value = 0;
    if (!parseWhole(attribute.value(), value)) {
      fail(path, std::string(name) + "=\"" + attribute.value() + "\" is not a 64-bit integer");
    }
    return value;
  }

  uint64_t unsignedAttribute(const pugi::xml_node& node, const std::string& path,
                             const char* name) const {
    const pugi::xml_attribute attribute = node.attribute(name);
    if (!attribute) fail(path, std::string("lacks the '") + name + "' attribute");
    uint64_t value = 0;
    if (!parseWhole(attribute.value(), value)) {
      fail(path, std::string(name) + "=\"" + attribute.value() +
                     "\" is not a non-negative 64-bit integer");
    }
    return value;
  }

  std::optional<double> doubleAttribute(const pugi::xml_node& node, const std::string& path,
                                        const char* name) const {
    const pugi::xml_attribute attribute = node.attribute(name);
    if (!attribute) return std::nullopt;
    double value = 0.0;
    if (!parseWhole(attribute.value(), value)) {
      fail(path, std::string(name) + "=\"" + attribute.value() + "\" is not a number");
    }
    return value;
  }

  /// The number an Integer, ScaledInteger or Float element holds (ScaledInteger scaled).
  double numberValue(const pugi::xml_node& node, const std::string& path) const {
    const std::string type = typeOf(node, path);
    const std::string_view text = trimmed(node.text().get());
    if (type == "Integer" || type == "ScaledInteger") {
      int64_t raw = 0;
      if (!text.empty() && !parseWhole(text, raw)) {
        fail(path, "value '" + std::string(text) + "' is not a 64-bit integer");
      }
      if (type == "Integer") return double(raw);
      const double scale = doubleAttribute(node, path, "scale").value_or(1.0);
      const double offset = doubleAttribute(node, path, "offset").value_or(0.0);
      return double(raw) * scale + offset;
    }
    if (type == "Float") {
      double value = 0.0;
      if (!text.empty() && !parseWhole(text, value)) {
        fail(path, "value '" + std::string(text) + "' is not a number");
      }
      return value;
    }
    fail(path, "type '" + type + "', expected a number (Integer, ScaledInteger or Float)");
  }

  /// The child's number, or `fallback` when there is no such child.
  double childNumber(const pugi::xml_node& parent, const std::string& path, const char* name,
                     double fallback) const {
    const pugi::xml_node child = parent.child(name);
    return child ? numberValue(child, path + "/" + name) : fallback;
  }

  std::string childString(const pugi::xml_node& parent, const std::string& path,
                          const char* name) const {
    const pugi::xml_node child = parent.child(name);
    if (!child) return {};
    expectType(child, path + "/" + name, "String");
    return child.text().get();
  }

  RecordField recordField(const pugi::xml_node& node, const std::string& path,
                          std::string name) const {
    const std::string type = typeOf(node, path);
    RecordField field;
    field.name = std::move(name);
    if (type == "Integer" || type == "ScaledInteger") {
      field.type = type == "Integer" ? FieldType::Integer : FieldType::ScaledInteger;
      field.minimum = integerAttribute(node, path, "minimum", std::numeric_limits<int64_t>::min());
      field.maximum = integerAttribute(node, path, "maximum", std::numeric_limits<int64_t>::max());
      if (field.minimum > field.maximum) {
        fail(path, "minimum " + std::to_string(field.minimum) + " > maximum " +
                       std::to_string(field.maximum) + ", expected minimum <= maximum");
      }
      if (field.type == FieldType::ScaledInteger) {
        field.scale = doubleAttribute(node, path, "scale").value_or(1.0);
        field.offset = doubleAttribute(node, path, "offset").value_or(0.0);
        if (!std::isfinite(field.scale) || !std::isfinite(field.offset)) {
          fail(path, "scale " + shortDouble(field.scale) + " / offset " +
                         shortDouble(field.offset) + ", expected finite numbers");
        }
      }
      return field;
    }
    if (type == "Float") {
      const std::string precision = node.attribute("precision").as_string("double");
      if (precision != "single" && precision != "double") {
        fail(path, "precision '" + precision + "', expected 'single' or 'double'");
      }
      field.type = precision == "single" ? FieldType::Single : FieldType::Double;
      field.floatMinimum = doubleAttribute(node, path, "minimum");
      field.floatMaximum = doubleAttribute(node, path, "maximum");
      if (field.floatMinimum && field.floatMaximum && *field.floatMinimum > *field.floatMaximum) {
        fail(path, "minimum " + shortDouble(*field.floatMinimum) + " > maximum " +
                       shortDouble(*field.floatMaximum) + ", expected minimum <= maximum");
      }
      return field;
    }
    fail(path, "type '" + type +
                   "' in a record prototype, expected Integer, ScaledInteger or Float "
                   "(or a Structure/Vector of them)");
  }

  /// Terminal elements of the prototype in depth-first order: the order of the bytestreams.
  void collectFields(const pugi::xml_node& node, const std::string& path, const std::string& prefix,
                     std::vector<RecordField>& fields, int depth) const {
    // A prototype nests only as deep as its writer chose; a bound keeps recursion finite on
    // hostile input (pugixml itself has no depth limit).
    constexpr int kMaxDepth = 32;
    if (depth > kMaxDepth) fail(path, "prototype nests deeper than 32 levels");
    int index = 0;
    for (const pugi::xml_node& child : node.children()) {
      if (child.type() != pugi::node_element) continue;
      const bool inVector = typeOf(node, path) == "Vector";
      const std::string name = inVector ? std::to_string(index) : std::string(child.name());
      const std::string childPath = path + "/" + name;
      const std::string fieldName = prefix.empty() ? name : prefix + "/" + name;
      ++index;
      const std::string type = typeOf(child, childPath);
      if (type == "Structure" || type == "Vector") {
        collectFields(child, childPath, fieldName, fields, depth + 1);
      } else {
        fields.push_back(recordField(child, childPath, fieldName));
      }
    }
  }

  void checkCodecs(const pugi::xml_node& codecs, const std::string& path) const {
    expectType(codecs, path, "Vector");
    int index = 0;
    for (const pugi::xml_node& codec : codecs.children()) {
      if (codec.type() != pugi::node_element) continue;
      const std::string codecPath = path + "/" + std::to_string(index++);
      bool bitpack = false;
      std::string named;
      for (const pugi::xml_node& part : codec.children()) {
        if (part.type() != pugi::node_element || std::string_view(part.name()) == "inputs") {
          continue;
        }
        if (std::string_view(part.name()) == "bitPackCodec") {
          bitpack = true;
        } else {
          named = part.name();
        }
      }
      if (!named.empty() || !bitpack) {
        fail(codecPath, "codec '" + (named.empty() ? std::string("(none)") : named) +
                            "' is not supported: only the standard bitPackCodec is");
      }
    }
  }

  std::optional<ValueRange> limits(const pugi::xml_node& parent, const std::string& path,
                                   const char* element, const char* minimumName,
                                   const char* maximumName) const {
    const pugi::xml_node node = parent.child(element);
    if (!node) return std::nullopt;
    const std::string nodePath = path + "/" + element;
    expectType(node, nodePath, "Structure");
    if (!node.child(minimumName) && !node.child(maximumName)) return std::nullopt;
    return ValueRange{.minimum = childNumber(node, nodePath, minimumName, 0.0),
                      .maximum = childNumber(node, nodePath, maximumName, 0.0)};
  }

  Pose pose(const pugi::xml_node& scan, const std::string& path) const {
    Pose result;
    const pugi::xml_node node = scan.child("pose");
    if (!node) return result;
    const std::string posePath = path + "/pose";
    expectType(node, posePath, "Structure");
    if (const pugi::xml_node rotation = node.child("rotation")) {
      const std::string rotationPath = posePath + "/rotation";
      expectType(rotation, rotationPath, "Structure");
      const glm::dquat q(childNumber(rotation, rotationPath, "w", 0.0),
                         childNumber(rotation, rotationPath, "x", 0.0),
                         childNumber(rotation, rotationPath, "y", 0.0),
                         childNumber(rotation, rotationPath, "z", 0.0));
      const double norm = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
      if (!std::isfinite(norm) || norm < 1e-12) {
        fail(rotationPath, "quaternion (w " + shortDouble(q.w) + ", x " + shortDouble(q.x) +
                               ", y " + shortDouble(q.y) + ", z " + shortDouble(q.z) +
                               ") cannot be normalised, expected a unit quaternion");
      }
      // Writers round the unit quaternion to the digits they print; normalising undoes that.
      result.rotation = glm::dquat(q.w / norm, q.x / norm, q.y / norm, q.z / norm);
      result.hasRotation = true;
    }
    if (const pugi::xml_node translation = node.child("translation")) {
      const std::string translationPath = posePath + "/translation";
      expectType(translation, translationPath, "Structure");
      result.translation = glm::dvec3(childNumber(translation, translationPath, "x", 0.0),
                                      childNumber(translation, translationPath, "y", 0.0),
                                      childNumber(translation, translationPath, "z", 0.0));
      if (!std::isfinite(result.translation.x) || !std::isfinite(result.translation.y) ||
          !std::isfinite(result.translation.z)) {
        fail(translationPath, "translation is not finite");
      }
      result.hasTranslation = true;
    }
    return result;
  }

  ScanDescription scan(const pugi::xml_node& node, const std::string& path) const {
    expectType(node, path, "Structure");
    ScanDescription result;
    result.elementPath = path;
    result.name = childString(node, path, "name");
    result.guid = childString(node, path, "guid");
    const pugi::xml_node points = node.child("points");
    const std::string pointsPath = path + "/points";
    if (!points) fail(path, "lacks its 'points' element (a CompressedVector)");
    expectType(points, pointsPath, "CompressedVector");
    result.sectionPhysicalOffset = unsignedAttribute(points, pointsPath, "fileOffset");
    result.recordCount = unsignedAttribute(points, pointsPath, "recordCount");
    const pugi::xml_node prototype = points.child("prototype");
    const std::string prototypePath = pointsPath + "/prototype";
    if (!prototype) fail(pointsPath, "lacks its 'prototype' element");
    expectType(prototype, prototypePath, "Structure");
    collectFields(prototype, prototypePath, "", result.prototype, 0);
    if (result.prototype.empty()) fail(prototypePath, "has no fields");
    if (const pugi::xml_node codecs = points.child("codecs")) {
      checkCodecs(codecs, pointsPath + "/codecs");
    }
    result.pose = pose(node, path);
    if (const pugi::xml_node bounds = node.child("cartesianBounds")) {
      const std::string boundsPath = path + "/cartesianBounds";
      expectType(bounds, boundsPath, "Structure");
      Box3d box;
      box.min = glm::dvec3(childNumber(bounds, boundsPath, "xMinimum", 0.0),
                           childNumber(bounds, boundsPath, "yMinimum", 0.0),
                           childNumber(bounds, boundsPath, "zMinimum", 0.0));
      box.max = glm::dvec3(childNumber(bounds, boundsPath, "xMaximum", 0.0),
                           childNumber(bounds, boundsPath, "yMaximum", 0.0),
                           childNumber(bounds, boundsPath, "zMaximum", 0.0));
      if (isStatedBox(box)) result.cartesianBounds = box;
    }
    result.intensityLimits =
        limits(node, path, "intensityLimits", "intensityMinimum", "intensityMaximum");
    result.colorLimits = {
        limits(node, path, "colorLimits", "colorRedMinimum", "colorRedMaximum"),
        limits(node, path, "colorLimits", "colorGreenMinimum", "colorGreenMaximum"),
        limits(node, path, "colorLimits", "colorBlueMinimum", "colorBlueMaximum")};
    return result;
  }

 private:
  const std::string& fileName_;
};

}  // namespace

unsigned RecordField::bitWidth() const {
  switch (type) {
    case FieldType::Single:
      return 32;
    case FieldType::Double:
      return 64;
    case FieldType::Integer:
    case FieldType::ScaledInteger:
      // maximum - minimum in unsigned arithmetic: the full int64 range is 2^64 - 1, 64 bits.
      return unsigned(std::bit_width(uint64_t(maximum) - uint64_t(minimum)));
  }
  return 0;
}

std::optional<ValueRange> RecordField::declaredRange() const {
  switch (type) {
    case FieldType::Integer:
      return ValueRange{.minimum = double(minimum), .maximum = double(maximum)};
    case FieldType::ScaledInteger: {
      const double a = double(minimum) * scale + offset, b = double(maximum) * scale + offset;
      return ValueRange{.minimum = std::min(a, b), .maximum = std::max(a, b)};
    }
    case FieldType::Single:
    case FieldType::Double:
      if (floatMinimum && floatMaximum) {
        return ValueRange{.minimum = *floatMinimum, .maximum = *floatMaximum};
      }
      return std::nullopt;
  }
  return std::nullopt;
}

std::string RecordField::typeText() const {
  switch (type) {
    case FieldType::Integer:
      return "Integer " + std::to_string(minimum) + ".." + std::to_string(maximum);
    case FieldType::ScaledInteger:
      return "ScaledInteger " + std::to_string(minimum) + ".." + std::to_string(maximum) + " * " +
             shortDouble(scale) + (offset != 0.0 ? " + " + shortDouble(offset) : "");
    case FieldType::Single:
      return "Float single";
    case FieldType::Double:
      return "Float double";
  }
  return {};
}

int ScanDescription::findField(std::string_view fieldName) const {
  for (size_t f = 0; f < prototype.size(); ++f) {
    if (prototype[f].name == fieldName) return int(f);
  }
  return -1;
}

XmlSection parseXmlSection(std::string_view xml, const std::string& fileName) {
  pugi::xml_document document;
  const pugi::xml_parse_result parsed =
      document.load_buffer(xml.data(), xml.size(), pugi::parse_default, pugi::encoding_auto);
  if (!parsed) {
    throw MalformedFileError(fileName, {},
                             std::string("XML section does not parse: ") + parsed.description() +
                                 " at XML byte " + std::to_string(parsed.offset));
  }
  const XmlReader reader(fileName);
  const pugi::xml_node root = document.child("e57Root");
  if (!root) reader.fail("/", "no e57Root element, expected the E57 root structure");
  reader.expectType(root, "/", "Structure");
  XmlSection section;
  section.libraryVersion = reader.childString(root, "", "e57LibraryVersion");
  if (const pugi::xml_node data3D = root.child("data3D")) {
    reader.expectType(data3D, "/data3D", "Vector");
    for (const pugi::xml_node& child : data3D.children()) {
      if (child.type() != pugi::node_element) continue;
      section.scans.push_back(
          reader.scan(child, "/data3D/" + std::to_string(section.scans.size())));
    }
  }
  if (const pugi::xml_node images = root.child("images2D")) {
    for (const pugi::xml_node& child : images.children()) {
      section.imageCount += child.type() == pugi::node_element;
    }
  }
  return section;
}

}  // namespace pcv::io::e57
