// PLY (Stanford polygon format): ascii, binary_little_endian and binary_big_endian. The vertex
// element becomes the points; every other element (faces, range grids, materials) is walked only
// to find where the next one starts.
#include <algorithm>
#include <cmath>

#include "common/readers.hpp"
#include "common/record_decoder.hpp"
#include "text/text_rows.hpp"
#include "common/tokens.hpp"

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
  /// Bytes of the scalar (non-list) properties of a row.
  uint64_t scalarRowBytes() const {
    uint64_t bytes = 0;
    for (const auto& p : properties) bytes += p.isList ? 0 : scalarSize(p.type);
    return bytes;
  }
};

struct PlyHeader {
  PlyEncoding encoding = PlyEncoding::Ascii;
  std::string version;
  std::vector<PlyElement> elements;
  uint64_t bodyOffset = 0;  ///< first byte after end_header's line break
  uint64_t bodyLine = 0;    ///< line number where the body starts (ascii messages)
  bool bigEndian() const { return encoding == PlyEncoding::BinaryBigEndian; }
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

/// Reports a header problem at the start of its line.
struct HeaderLineError {
  const ReadContext& context;
  const TextLine& line;
  [[noreturn]] void operator()(const std::string& what) const {
    context.failAt(line.offset, "header line " + std::to_string(line.number) + ": " + what);
  }
};

void parseFormat(const std::vector<std::string_view>& words, PlyHeader& header,
                 const HeaderLineError& fail) {
  if (words.size() != 3)
    fail("expected 'format <ascii|binary_little_endian|binary_big_endian> 1.0'");
  if (words[1] == "ascii") {
    header.encoding = PlyEncoding::Ascii;
  } else if (words[1] == "binary_little_endian") {
    header.encoding = PlyEncoding::BinaryLittleEndian;
  } else if (words[1] == "binary_big_endian") {
    header.encoding = PlyEncoding::BinaryBigEndian;
  } else {
    fail("unknown format '" + std::string(words[1]) + "'");
  }
  header.version = words[2];
}

PlyElement parseElement(const std::vector<std::string_view>& words, const HeaderLineError& fail) {
  if (words.size() != 3) fail("expected 'element <name> <count>'");
  PlyElement element{.name = std::string(words[1])};
  if (!parseCount(words[2], element.count)) {
    fail("element count '" + std::string(words[2]) + "' is not a non-negative integer");
  }
  return element;
}

void parseProperty(const std::vector<std::string_view>& words, PlyHeader& header,
                   const HeaderLineError& fail) {
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
  PlyElement& element = header.elements.back();
  for (const auto& existing : element.properties) {
    if (existing.name == property.name) {
      fail("property '" + property.name + "' declared twice in element '" + element.name + "'");
    }
  }
  element.properties.push_back(std::move(property));
}

PlyHeader parseHeader(std::span<const uint8_t> bytes, const ReadContext& context) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (text.size() < 4 || text.substr(0, 3) != "ply") {
    context.failAt(0, "expected the PLY magic 'ply'");
  }
  PlyHeader header;
  bool sawFormat = false;
  LineReader lines(text);
  TextLine line;
  for (;;) {
    const uint64_t start = lines.offset();
    const bool more = lines.next(line);
    if (more && line.hasNul) {
      context.failAt(line.offset, "binary data inside the header (no end_header?)");
    }
    // A line without a break is the end of the file: the header never ended.
    if (!more || line.nextOffset == line.offset + line.text.size()) {
      context.failAt(start, "header ends without an end_header line");
    }
    const HeaderLineError fail{context, line};
    const auto words = splitWords(line.text);
    if (words.empty()) continue;
    const std::string_view keyword = words[0];
    if (line.number == 1) {
      if (keyword != "ply" || words.size() != 1) fail("expected 'ply'");
    } else if (keyword == "format") {
      parseFormat(words, header, fail);
      sawFormat = true;
    } else if (keyword == "comment" || keyword == "obj_info") {
      continue;
    } else if (keyword == "element") {
      header.elements.push_back(parseElement(words, fail));
    } else if (keyword == "property") {
      parseProperty(words, header, fail);
    } else if (keyword == "end_header") {
      header.bodyOffset = line.nextOffset;
      header.bodyLine = line.number + 1;
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

bool isChannel(FieldRole role) {
  return role == FieldRole::Red || role == FieldRole::Green || role == FieldRole::Blue;
}

/// What each vertex property means; fails without x and y; colours need each of the three
/// channels once.
TextColumns vertexColumns(const PlyElement& vertex, const ReadContext& context) {
  TextColumns columns;
  bool has[3] = {false, false, false};
  int channels = 0;
  uint32_t channelsSeen = 0;  // bit c: channel c (red, green, blue) among the properties
  for (const auto& property : vertex.properties) {
    const FieldRole role = property.isList ? FieldRole::Ignore : roleOf(property.name);
    if (role == FieldRole::X || role == FieldRole::Y || role == FieldRole::Z) has[int(role)] = true;
    if (isChannel(role)) {
      ++channels;
      channelsSeen |= 1u << (int(role) - int(FieldRole::Red));
    }
    columns.roles.push_back(role);
    columns.types.push_back(property.type);
  }
  if (!has[0] || !has[1]) context.fail("vertex element has no 'x' and 'y' properties");
  // A lone 'red' is data, and so are channels named twice ('g' and 'green').
  const bool colors = channels == 3 && channelsSeen == 7u;
  for (size_t i = 0; i < columns.roles.size(); ++i) {
    FieldRole& role = columns.roles[i];
    if (!colors && isChannel(role)) role = FieldRole::Attribute;
    if (role == FieldRole::Alpha) role = FieldRole::Ignore;             // points are drawn opaque
    columns.attributeOfColumn.push_back(-1);
    if (role == FieldRole::Attribute) {
      columns.attributeOfColumn.back() = int(columns.attributeNames.size());
      columns.attributeNames.push_back(vertex.properties[i].name);
    }
  }
  return columns;
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

/// Fails unless `element`'s rows can fit in the bytes after `pos` (before anything is
/// allocated: count * row size never overflows after this).
void requireRowsFit(const PlyElement& element, uint64_t pos, uint64_t fileSize,
                    const ReadContext& context) {
  const uint64_t remaining = fileSize - pos;
  const uint64_t minRow = element.minRowBytes();
  if (minRow > 0 && element.count > remaining / minRow) {
    context.failAt(pos, "element '" + element.name + "' declares " + std::to_string(element.count) +
                            " rows of at least " + std::to_string(minRow) + " bytes, but only " +
                            std::to_string(remaining) + " bytes follow");
  }
}

/// Copies the scalar properties of rows with lists into fixed-size rows; returns the position
/// after the element.
uint64_t packScalarRows(std::span<const uint8_t> bytes, uint64_t pos, const PlyElement& element,
                        bool bigEndian, const ReadContext& context, std::vector<uint8_t>& rows) {
  const uint64_t rowSize = element.scalarRowBytes();
  rows.resize(element.count * rowSize);  // <= the bytes requireRowsFit checked
  for (uint64_t row = 0; row < element.count; ++row) {
    uint8_t* out = rows.data() + row * rowSize;
    uint64_t at = pos;
    const uint64_t length = rowBytes(bytes, pos, element, bigEndian, context);
    for (const auto& p : element.properties) {
      if (p.isList) {
        at += scalarSize(p.countType) +
              listCount(bytes, at, p, bigEndian, context) * scalarSize(p.type);
      } else {
        out = std::copy_n(bytes.data() + at, scalarSize(p.type), out);
        at += scalarSize(p.type);
      }
    }
    pos += length;
  }
  return pos;
}

/// The record layout of fixed-size vertex rows holding the scalar properties in order.
RecordLayout vertexLayout(const PlyElement& vertex, const TextColumns& columns, bool bigEndian) {
  const uint64_t rowSize = vertex.scalarRowBytes();
  RecordLayout layout{.attributeNames = columns.attributeNames, .bytesPerPoint = rowSize};
  uint64_t offset = 0;
  for (size_t i = 0; i < vertex.properties.size(); ++i) {
    const PlyProperty& p = vertex.properties[i];
    if (p.isList) continue;
    layout.fields.push_back({.type = p.type,
                             .role = columns.roles[i],
                             .base = offset,
                             .stride = rowSize,
                             .bigEndian = bigEndian,
                             .attribute = columns.attributeOfColumn[i]});
    offset += scalarSize(p.type);
  }
  return layout;
}

ReadResult readBinary(std::span<const uint8_t> bytes, const PlyHeader& header,
                      const ReadContext& context) {
  const bool bigEndian = header.bigEndian();
  uint64_t pos = header.bodyOffset;
  for (const PlyElement& element : header.elements) {
    requireRowsFit(element, pos, bytes.size(), context);
    std::vector<uint8_t> packed;  // vertex rows with lists, without them
    if (element.name != "vertex") {
      if (!element.hasList()) {
        pos += element.count * element.minRowBytes();
      } else {
        for (uint64_t row = 0; row < element.count; ++row) {
          pos += rowBytes(bytes, pos, element, bigEndian, context);
        }
      }
      continue;
    }
    const TextColumns columns = vertexColumns(element, context);
    RecordSource source{.data = bytes.data() + pos,
                        .count = element.count,
                        .layout = vertexLayout(element, columns, bigEndian)};
    if (element.hasList()) {
      packScalarRows(bytes, pos, element, bigEndian, context, packed);
      source.data = packed.data();
    }
    // Elements after the vertex element are not needed.
    ReadResult result;
    result.cloud = decodeRecords(source, context, result.worldBounds);
    return result;
  }
  context.fail("no 'vertex' element, expected one with x, y, z properties");
}

/// The next token of an ascii body as a number; fails naming the token's line.
double nextNumber(TokenCursor& tokens, const std::string& what, const ReadContext& context) {
  const std::string_view token = tokens.next();
  double value = 0.0;
  if (token.empty()) context.failAtLine(tokens.tokenLine(), "file ends, expected " + what);
  if (!parseNumber(token, value)) {
    context.failAtLine(tokens.tokenLine(),
                       "'" + std::string(token) + "' is not a number (" + what + ")");
  }
  return value;
}

/// Reads a list's count and skips its items.
void skipAsciiList(TokenCursor& tokens, const PlyProperty& p, uint64_t fileSize,
                   const ReadContext& context) {
  const double count = nextNumber(tokens, "a list count of '" + p.name + "'", context);
  // Each value is at least two bytes ("0 "): a count beyond the file is a lie, and converting
  // one beyond 2^64 to an integer would be undefined.
  if (count < 0 || count != std::floor(count) || count > double(fileSize)) {
    context.failAtLine(tokens.tokenLine(), "bad list count in '" + p.name + "'");
  }
  for (uint64_t i = 0; i < uint64_t(count); ++i) nextNumber(tokens, "a list item", context);
}

void skipAsciiElement(TokenCursor& tokens, const PlyElement& element, uint64_t fileSize,
                      const ReadContext& context) {
  if (element.properties.empty()) return;  // rows of nothing: no tokens to skip
  for (uint64_t row = 0; row < element.count; ++row) {
    for (const auto& p : element.properties) {
      if (p.isList) {
        skipAsciiList(tokens, p, fileSize, context);
      } else {
        nextNumber(tokens, "a value of '" + p.name + "'", context);
      }
    }
  }
}

PointCloud readAsciiVertices(TokenCursor& tokens, const PlyElement& vertex, uint64_t fileSize,
                             const ReadContext& context, Box3d& worldBounds) {
  TextColumns columns = vertexColumns(vertex, context);
  context.requireMemoryForPoints(vertex.count, columns.attributeNames.size());
  TextRowAssembler rows(std::move(columns));
  rows.reserve(vertex.count);
  std::vector<double> values(vertex.properties.size());
  for (uint64_t row = 0; row < vertex.count; ++row) {
    for (size_t i = 0; i < vertex.properties.size(); ++i) {
      const PlyProperty& p = vertex.properties[i];
      if (p.isList) {
        skipAsciiList(tokens, p, fileSize, context);
        values[i] = 0.0;
      } else {
        values[i] = nextNumber(
            tokens, "vertex " + std::to_string(row) + " property '" + p.name + "'", context);
      }
    }
    rows.addRow(values.data());
    if ((row & 0xffff) == 0xffff) context.advance(0);
  }
  worldBounds = rows.worldBounds();
  return rows.finish();
}

ReadResult readAscii(std::span<const uint8_t> bytes, const PlyHeader& header,
                     const ReadContext& context) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  TokenCursor tokens(text, header.bodyOffset, header.bodyLine);
  bool sawVertex = false;
  ReadResult result;
  for (const PlyElement& element : header.elements) {
    // Every row has at least one token of two bytes ("0 "), which bounds an honest count.
    if (element.count > 0 && !element.properties.empty() && element.count > bytes.size() / 2) {
      context.fail("element '" + element.name + "' declares " + std::to_string(element.count) +
                   " rows, more than a " + std::to_string(bytes.size()) + "-byte file can hold");
    }
    if (element.name == "vertex" && !sawVertex) {
      sawVertex = true;
      result.cloud = readAsciiVertices(tokens, element, bytes.size(), context, result.worldBounds);
    } else {
      skipAsciiElement(tokens, element, bytes.size(), context);
    }
  }
  if (!sawVertex) context.fail("no 'vertex' element, expected one with x, y, z properties");
  if (!tokens.atEnd()) {
    context.failAtLine(tokens.line(),
                       "data after the last declared element (element counts in "
                       "the header are smaller than the body)");
  }
  context.reachedByte(bytes.size());
  return result;
}

/// What the header declares: the vertex count and what its properties mean.
ReadResult describePly(const PlyHeader& header, const ReadContext& context) {
  ReadResult result;
  for (const PlyElement& element : header.elements) {
    if (element.name != "vertex") continue;
    const TextColumns columns = vertexColumns(element, context);
    result.declared = ReadResult::Declared{.points = element.count};
    for (const std::string& name : columns.attributeNames) {
      result.cloud.attributes.push_back({name, {}});
    }
    result.cloud.hasColor = std::find(columns.roles.begin(), columns.roles.end(), FieldRole::Red) !=
                            columns.roles.end();
    return result;
  }
  context.fail("no 'vertex' element, expected one with x, y, z properties");
}

}  // namespace

ReadResult readPly(std::span<const uint8_t> bytes, const ReadContext& context) {
  const PlyHeader header = parseHeader(bytes, context);
  context.reachedByte(header.bodyOffset);
  ReadResult result = context.headerOnly()                    ? describePly(header, context)
                      : header.encoding == PlyEncoding::Ascii ? readAscii(bytes, header, context)
                                                              : readBinary(bytes, header, context);
  static const char* encodings[] = {"ascii", "binary little endian", "binary big endian"};
  result.format = "PLY";
  result.details = header.version + ", " + encodings[int(header.encoding)];
  return result;
}

}  // namespace pcv::io
