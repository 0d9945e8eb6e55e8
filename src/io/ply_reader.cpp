// PLY (Stanford polygon format): ascii, binary_little_endian and binary_big_endian. The vertex
// element becomes the points; every other element (faces, range grids, materials) is walked only
// to find where the next one starts.
#include <algorithm>
#include <cmath>
#include <limits>

#include "reader_common.hpp"

namespace pcv::io {
namespace {

enum class PlyEncoding { Ascii, BinaryLittleEndian, BinaryBigEndian };

struct PlyProperty {
  std::string name;
  ScalarType type = ScalarType::Float32;  ///< value type (of each item for lists)
  bool isList = false;
  ScalarType countType = ScalarType::UInt8;  ///< lists: type of the item count
};

struct PlyElement {
  std::string name;
  uint64_t count = 0;
  std::vector<PlyProperty> properties;
  bool hasList() const {
    return std::any_of(properties.begin(), properties.end(),
                       [](const PlyProperty& p) { return p.isList; });
  }
  /// Bytes of a row without lists; for rows with lists, the smallest possible row.
  uint64_t minRowBytes() const {
    uint64_t bytes = 0;
    for (const auto& p : properties) bytes += scalarSize(p.isList ? p.countType : p.type);
    return bytes;
  }
};

struct PlyHeader {
  PlyEncoding encoding = PlyEncoding::Ascii;
  std::string version;
  std::vector<PlyElement> elements;
  uint64_t bodyOffset = 0;  ///< first byte after end_header's line break
  uint64_t bodyLine = 0;    ///< line number where the body starts (ascii messages)
};

bool parseScalarType(std::string_view name, ScalarType& type) {
  static const std::pair<const char*, ScalarType> names[] = {
      {"char", ScalarType::Int8},      {"int8", ScalarType::Int8},
      {"uchar", ScalarType::UInt8},    {"uint8", ScalarType::UInt8},
      {"short", ScalarType::Int16},    {"int16", ScalarType::Int16},
      {"ushort", ScalarType::UInt16},  {"uint16", ScalarType::UInt16},
      {"int", ScalarType::Int32},      {"int32", ScalarType::Int32},
      {"uint", ScalarType::UInt32},    {"uint32", ScalarType::UInt32},
      {"float", ScalarType::Float32},  {"float32", ScalarType::Float32},
      {"double", ScalarType::Float64}, {"float64", ScalarType::Float64}};
  for (const auto& [text, value] : names) {
    if (name == text) {
      type = value;
      return true;
    }
  }
  return false;
}

std::vector<std::string_view> splitWords(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

PlyHeader parseHeader(std::span<const uint8_t> bytes, const ReadContext& context) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (text.size() < 4 || text.substr(0, 3) != "ply") {
    context.failAt(0, "expected the PLY magic 'ply'");
  }
  PlyHeader header;
  bool sawFormat = false;
  uint64_t pos = 0, line = 0;
  std::string_view firstBreak;  // the header's line break; end_header's decides where data begins
  for (;;) {
    ++line;
    const uint64_t lineStart = pos;
    while (pos < text.size() && text[pos] != '\n' && text[pos] != '\r') {
      if (text[pos] == '\0') context.failAt(pos, "binary data inside the header (no end_header?)");
      ++pos;
    }
    if (pos >= text.size()) context.failAt(lineStart, "header ends without an end_header line");
    const std::string_view lineText = text.substr(lineStart, pos - lineStart);
    const uint64_t breakStart = pos;
    if (text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n' &&
        (firstBreak.empty() || firstBreak == "\r\n")) {
      pos += 2;
    } else {
      pos += 1;
    }
    if (firstBreak.empty()) firstBreak = text.substr(breakStart, pos - breakStart);

    const auto words = splitWords(lineText);
    if (words.empty()) continue;
    const std::string_view keyword = words[0];
    auto fail = [&](const std::string& what) {
      context.failAt(lineStart, "header line " + std::to_string(line) + ": " + what);
    };
    if (line == 1) {
      if (keyword != "ply" || words.size() != 1) fail("expected 'ply'");
    } else if (keyword == "format") {
      if (words.size() != 3)
        fail("expected 'format <ascii|binary_little_endian|binary_big_endian> 1.0'");
      if (words[1] == "ascii")
        header.encoding = PlyEncoding::Ascii;
      else if (words[1] == "binary_little_endian")
        header.encoding = PlyEncoding::BinaryLittleEndian;
      else if (words[1] == "binary_big_endian")
        header.encoding = PlyEncoding::BinaryBigEndian;
      else
        fail("unknown format '" + std::string(words[1]) + "'");
      header.version = words[2];
      sawFormat = true;
    } else if (keyword == "comment" || keyword == "obj_info") {
      continue;
    } else if (keyword == "element") {
      if (words.size() != 3) fail("expected 'element <name> <count>'");
      PlyElement element;
      element.name = words[1];
      double count = -1;
      if (!parseNumber(words[2], count) || count < 0 || count != std::floor(count) ||
          count > 1.8e19) {
        fail("element count '" + std::string(words[2]) + "' is not a non-negative integer");
      }
      element.count = uint64_t(count);
      header.elements.push_back(std::move(element));
    } else if (keyword == "property") {
      if (header.elements.empty()) fail("property before any element");
      PlyProperty property;
      if (words.size() == 5 && words[1] == "list") {
        property.isList = true;
        if (!parseScalarType(words[2], property.countType) || isFloatType(property.countType)) {
          fail("list count type '" + std::string(words[2]) + "' is not an integer type");
        }
        if (!parseScalarType(words[3], property.type)) {
          fail("unknown property type '" + std::string(words[3]) + "'");
        }
        property.name = words[4];
      } else if (words.size() == 3) {
        if (!parseScalarType(words[1], property.type)) {
          fail("unknown property type '" + std::string(words[1]) + "'");
        }
        property.name = words[2];
      } else {
        fail("expected 'property <type> <name>' or 'property list <type> <type> <name>'");
      }
      auto& properties = header.elements.back().properties;
      for (const auto& existing : properties) {
        if (existing.name == property.name) {
          fail("property '" + property.name + "' declared twice in element '" +
               header.elements.back().name + "'");
        }
      }
      properties.push_back(std::move(property));
    } else if (keyword == "end_header") {
      header.bodyOffset = pos;
      header.bodyLine = line + 1;
      break;
    } else {
      fail("unknown header keyword '" + std::string(keyword) + "'");
    }
  }
  if (!sawFormat) context.failAt(0, "header has no 'format' line");
  return header;
}

FieldRole roleOf(const std::string& name) {
  if (name == "x") return FieldRole::X;
  if (name == "y") return FieldRole::Y;
  if (name == "z") return FieldRole::Z;
  if (name == "red" || name == "diffuse_red" || name == "r") return FieldRole::Red;
  if (name == "green" || name == "diffuse_green" || name == "g") return FieldRole::Green;
  if (name == "blue" || name == "diffuse_blue" || name == "b") return FieldRole::Blue;
  if (name == "alpha" || name == "diffuse_alpha" || name == "a") return FieldRole::Alpha;
  return FieldRole::Attribute;
}

/// Roles of the vertex's scalar properties; fails without x and y; colours need all three.
std::vector<FieldRole> vertexRoles(const PlyElement& vertex, std::vector<std::string>& attributes,
                                   std::vector<int>& attributeOf, const ReadContext& context) {
  std::vector<FieldRole> roles;
  bool has[3] = {false, false, false};
  int channels = 0;
  for (const auto& property : vertex.properties) {
    FieldRole role = property.isList ? FieldRole::Ignore : roleOf(property.name);
    if (role == FieldRole::X || role == FieldRole::Y || role == FieldRole::Z) has[int(role)] = true;
    if (role == FieldRole::Red || role == FieldRole::Green || role == FieldRole::Blue) ++channels;
    roles.push_back(role);
  }
  if (!has[0] || !has[1]) context.fail("vertex element has no 'x' and 'y' properties");
  for (size_t i = 0; i < roles.size(); ++i) {
    if (channels != 3 && (roles[i] == FieldRole::Red || roles[i] == FieldRole::Green ||
                          roles[i] == FieldRole::Blue)) {
      roles[i] = FieldRole::Attribute;  // a lone 'red' is data, not a colour
    }
    if (roles[i] == FieldRole::Alpha) roles[i] = FieldRole::Ignore;  // points are drawn opaque
    attributeOf.push_back(-1);
    if (roles[i] == FieldRole::Attribute) {
      attributeOf.back() = int(attributes.size());
      attributes.push_back(vertex.properties[i].name);
    }
  }
  return roles;
}

/// Reads one list count at `pos`; fails on a negative count or one running past the file.
uint64_t listCount(std::span<const uint8_t> bytes, uint64_t pos, const PlyProperty& property,
                   bool bigEndian, const ReadContext& context) {
  const size_t countBytes = scalarSize(property.countType);
  if (bytes.size() - pos < countBytes) context.failAt(pos, "file ends inside a list count");
  const double count = loadScalar(bytes.data() + pos, property.countType, bigEndian);
  // "not >= 0" rejects NaN too (a float count type); a count beyond the file is a lie, and one
  // beyond 2^64 would make the conversion undefined.
  if (!(count >= 0)) context.failAt(pos, "bad list count in '" + property.name + "'");
  if (count > double(bytes.size())) {
    context.failAt(pos, "list count in '" + property.name + "' runs past the end of the " +
                            std::to_string(bytes.size()) + "-byte file");
  }
  return uint64_t(count);
}

/// Byte length of the row at `pos` of an element with list properties.
uint64_t rowBytes(std::span<const uint8_t> bytes, uint64_t pos, const PlyElement& element,
                  bool bigEndian, const ReadContext& context) {
  const uint64_t start = pos;
  for (const auto& property : element.properties) {
    if (!property.isList) {
      pos += scalarSize(property.type);
    } else {
      const uint64_t count = listCount(bytes, pos, property, bigEndian, context);
      pos += scalarSize(property.countType);
      const uint64_t itemBytes = scalarSize(property.type);
      if (count > (bytes.size() - std::min<uint64_t>(pos, bytes.size())) / itemBytes) {
        context.failAt(pos, "list '" + property.name + "' of " + std::to_string(count) +
                                " items runs past the end of the file");
      }
      pos += count * itemBytes;
    }
    if (pos > bytes.size()) {
      context.failAt(start, "element '" + element.name + "' row runs past the end of the file");
    }
  }
  return pos - start;
}

ReadResult readBinary(std::span<const uint8_t> bytes, const PlyHeader& header,
                      const ReadContext& context) {
  const bool bigEndian = header.encoding == PlyEncoding::BinaryBigEndian;
  uint64_t pos = header.bodyOffset;
  for (const PlyElement& element : header.elements) {
    const uint64_t remaining = bytes.size() - pos;
    const uint64_t minRow = element.minRowBytes();
    // Checked before anything is allocated: count * row size never overflows here.
    if (minRow > 0 && element.count > remaining / minRow) {
      context.failAt(pos, "element '" + element.name + "' declares " +
                              std::to_string(element.count) + " rows of at least " +
                              std::to_string(minRow) + " bytes, but only " +
                              std::to_string(remaining) + " bytes follow");
    }
    if (element.name != "vertex") {
      if (!element.hasList()) {
        pos += element.count * minRow;
      } else {
        for (uint64_t row = 0; row < element.count; ++row) {
          pos += rowBytes(bytes, pos, element, bigEndian, context);
        }
      }
      continue;
    }

    std::vector<std::string> attributes;
    std::vector<int> attributeOf;
    const std::vector<FieldRole> roles = vertexRoles(element, attributes, attributeOf, context);
    RecordSource source;
    source.count = element.count;
    source.attributeNames = attributes;
    std::vector<uint8_t> compact;  // scalar properties of rows with lists, copied to fixed rows
    uint64_t rowSize = minRow;
    if (!element.hasList()) {
      source.data = bytes.data() + pos;
      pos += element.count * minRow;
    } else {
      rowSize = 0;
      for (const auto& p : element.properties) rowSize += p.isList ? 0 : scalarSize(p.type);
      compact.resize(element.count * rowSize);  // <= the bytes checked above
      for (uint64_t row = 0; row < element.count; ++row) {
        uint8_t* out = compact.data() + row * rowSize;
        uint64_t at = pos;
        const uint64_t length = rowBytes(bytes, pos, element, bigEndian, context);
        for (const auto& p : element.properties) {
          if (p.isList) {
            at += scalarSize(p.countType) +
                  listCount(bytes, at, p, bigEndian, context) * scalarSize(p.type);
          } else {
            std::copy_n(bytes.data() + at, scalarSize(p.type), out);
            out += scalarSize(p.type);
            at += scalarSize(p.type);
          }
        }
        pos += length;
      }
      source.data = compact.data();
    }
    source.bytesPerPoint = rowSize;
    uint64_t offset = 0;
    for (size_t i = 0; i < element.properties.size(); ++i) {
      const PlyProperty& p = element.properties[i];
      if (p.isList) continue;
      FieldLayout field;
      field.type = p.type;
      field.role = roles[i];
      field.base = offset;
      field.stride = rowSize;
      field.bigEndian = bigEndian;
      field.attribute = attributeOf[i];
      source.fields.push_back(field);
      offset += scalarSize(p.type);
    }
    // Elements after the vertex element are not needed.
    return {decodeRecords(source, context), "PLY", ""};
  }
  context.fail("no 'vertex' element, expected one with x, y, z properties");
}

/// Whitespace-separated tokens of the body, with line numbers for messages.
class Tokenizer {
 public:
  Tokenizer(std::string_view text, uint64_t pos, uint64_t line)
      : text_(text), pos_(pos), line_(line) {}
  /// Next token, or empty at the end.
  std::string_view next() {
    skipSpace();
    const size_t start = pos_;
    while (pos_ < text_.size() && !isSpace(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  bool atEnd() {
    skipSpace();
    return pos_ >= text_.size();
  }
  uint64_t line() const { return line_; }

 private:
  static bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
  }
  void skipSpace() {
    while (pos_ < text_.size() && isSpace(text_[pos_])) {
      if (text_[pos_] == '\n' ||
          (text_[pos_] == '\r' && (pos_ + 1 >= text_.size() || text_[pos_ + 1] != '\n')))
        ++line_;
      ++pos_;
    }
  }
  std::string_view text_;
  size_t pos_;
  uint64_t line_;
};

ReadResult readAscii(std::span<const uint8_t> bytes, const PlyHeader& header,
                     const ReadContext& context) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  Tokenizer tokens(text, header.bodyOffset, header.bodyLine);
  auto number = [&](const std::string& what) {
    const std::string_view token = tokens.next();
    double value = 0.0;
    if (token.empty()) context.failAtLine(tokens.line(), "file ends, expected " + what);
    if (!parseNumber(token, value)) {
      context.failAtLine(tokens.line(),
                         "'" + std::string(token) + "' is not a number (" + what + ")");
    }
    return value;
  };
  bool sawVertex = false;
  PointCloud cloud;
  for (const PlyElement& element : header.elements) {
    // Every row has at least one token of two bytes ("0 "), which bounds an honest count.
    if (element.count > 0 && !element.properties.empty() && element.count > bytes.size() / 2) {
      context.fail("element '" + element.name + "' declares " + std::to_string(element.count) +
                   " rows, more than a " + std::to_string(bytes.size()) + "-byte file can hold");
    }
    const bool isVertex = element.name == "vertex" && !sawVertex;
    if (!isVertex) {
      if (element.properties.empty()) continue;  // rows of nothing: no tokens to skip
      for (uint64_t row = 0; row < element.count; ++row) {
        for (const auto& p : element.properties) {
          const double count = p.isList ? number("a list count of '" + p.name + "'") : 1.0;
          // Each value is at least two bytes ("0 "): a count beyond the file is a lie, and
          // converting one beyond 2^64 to an integer would be undefined.
          if (count < 0 || count != std::floor(count) || count > double(bytes.size())) {
            context.failAtLine(tokens.line(), "bad list count in '" + p.name + "'");
          }
          for (uint64_t i = 0; i < uint64_t(count); ++i) number("a value of '" + p.name + "'");
        }
      }
      continue;
    }
    sawVertex = true;
    std::vector<std::string> attributes;
    std::vector<int> attributeOf;
    std::vector<FieldRole> roles = vertexRoles(element, attributes, attributeOf, context);
    std::vector<ScalarType> types;
    for (const auto& p : element.properties) types.push_back(p.type);
    TextRowAssembler rows(roles, types, attributeOf, attributes);
    rows.reserve(element.count);
    std::vector<double> values(element.properties.size());
    for (uint64_t row = 0; row < element.count; ++row) {
      for (size_t i = 0; i < element.properties.size(); ++i) {
        const PlyProperty& p = element.properties[i];
        if (p.isList) {
          const double count = number("a list count of '" + p.name + "'");
          if (count < 0 || count != std::floor(count) || count > double(bytes.size())) {
            context.failAtLine(tokens.line(), "bad list count in '" + p.name + "'");
          }
          for (uint64_t k = 0; k < uint64_t(count); ++k) number("a list item");
          values[i] = 0.0;
        } else {
          values[i] = number("vertex " + std::to_string(row) + " property '" + p.name + "'");
        }
      }
      rows.addRow(values.data());
      if ((row & 0xffff) == 0xffff) context.advance(0);
    }
    cloud = rows.finish();
  }
  if (!sawVertex) context.fail("no 'vertex' element, expected one with x, y, z properties");
  if (!tokens.atEnd()) {
    context.failAtLine(tokens.line(),
                       "data after the last declared element (element counts in "
                       "the header are smaller than the body)");
  }
  if (context.progress) context.progress->bytesDone = bytes.size();
  return {std::move(cloud), "PLY", ""};
}

}  // namespace

ReadResult readPly(std::span<const uint8_t> bytes, const ReadContext& context) {
  const PlyHeader header = parseHeader(bytes, context);
  if (context.progress) context.progress->bytesDone = header.bodyOffset;
  ReadResult result = header.encoding == PlyEncoding::Ascii ? readAscii(bytes, header, context)
                                                            : readBinary(bytes, header, context);
  static const char* encodings[] = {"ascii", "binary little endian", "binary big endian"};
  result.details = header.version + ", " + encodings[int(header.encoding)];
  return result;
}

}  // namespace pcv::io
