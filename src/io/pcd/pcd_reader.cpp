// PCD (Point Cloud Library), versions 0.5-0.7: DATA ascii, binary (records one after another)
// and binary_compressed (LZF-compressed, one column per field).
#include <algorithm>
#include <cmath>

#include "lzf.hpp"
#include "common/readers.hpp"
#include "common/record_decoder.hpp"
#include "text/text_rows.hpp"
#include "common/tokens.hpp"

namespace pcv::io {
namespace {

struct PcdField {
  std::string name;   ///< lower case
  char type = 'F';    ///< F, I or U
  uint64_t size = 4;  ///< bytes per value
  uint64_t count = 1;
  ScalarType scalar = ScalarType::Float32;
  uint64_t bytes() const { return size * count; }
};

struct PcdHeader {
  std::string version;
  std::vector<PcdField> fields;
  uint64_t width = 0, height = 1, points = 0;
  bool sawPoints = false, sawWidth = false, sawSize = false;
  std::string data;  ///< ascii, binary or binary_compressed
  uint64_t bodyOffset = 0;
  uint64_t bodyLine = 0;
  uint64_t recordBytes() const {
    uint64_t bytes = 0;
    for (const auto& f : fields) bytes += f.bytes();
    return bytes;
  }
};

/// One header line's words after the keyword, and how to fail naming the line.
struct HeaderLine {
  std::vector<std::string_view> values;
  const ReadContext& context;
  const TextLine& line;
  [[noreturn]] void fail(const std::string& what) const {
    context.failAt(line.offset, "header line " + std::to_string(line.number) + ": " + what);
  }
  /// One value per field, after FIELDS.
  void requirePerField(const PcdHeader& header, const char* keyword) const {
    if (header.fields.empty()) fail(std::string(keyword) + " before FIELDS");
    if (values.size() != header.fields.size()) {
      fail(std::string(keyword) + " has " + std::to_string(values.size()) +
           " entries, FIELDS has " + std::to_string(header.fields.size()));
    }
  }
  uint64_t single(const char* keyword) const {
    uint64_t value = 0;
    if (values.size() != 1 || !parseCount(values[0], value)) {
      fail(std::string(keyword) + ": expected a count");
    }
    return value;
  }
};

void parseFields(const HeaderLine& l, PcdHeader& header) {
  if (l.values.empty()) l.fail("FIELDS lists no fields");
  header.fields.clear();
  for (std::string_view value : l.values) {
    PcdField field{.name = lowerCase(value)};
    for (const auto& existing : header.fields) {
      if (existing.name == field.name && field.name != "_") {
        l.fail("field '" + field.name + "' listed twice");
      }
    }
    header.fields.push_back(field);
  }
}

void parseSizes(const HeaderLine& l, PcdHeader& header) {
  l.requirePerField(header, "SIZE");
  for (size_t i = 0; i < l.values.size(); ++i) {
    if (!parseCount(l.values[i], header.fields[i].size)) l.fail("SIZE entry is not a number");
  }
  header.sawSize = true;
}

void parseTypes(const HeaderLine& l, PcdHeader& header) {
  l.requirePerField(header, "TYPE");
  for (size_t i = 0; i < l.values.size(); ++i) {
    const std::string_view type = l.values[i];
    if (type.size() != 1 || std::string_view("FIU").find(type[0]) == std::string_view::npos) {
      l.fail("TYPE entry '" + std::string(type) + "': expected F, I or U");
    }
    header.fields[i].type = type[0];
  }
}

void parseCounts(const HeaderLine& l, PcdHeader& header) {
  l.requirePerField(header, "COUNT");
  for (size_t i = 0; i < l.values.size(); ++i) {
    uint64_t& count = header.fields[i].count;
    if (!parseCount(l.values[i], count) || count == 0 || count > (1u << 20)) {
      l.fail("COUNT entry '" + std::string(l.values[i]) + "': expected 1 to 1048576");
    }
  }
}

void parseData(const HeaderLine& l, std::string_view text, PcdHeader& header) {
  if (l.values.size() != 1) l.fail("DATA: expected ascii, binary or binary_compressed");
  header.data = lowerCase(l.values[0]);
  if (header.data != "ascii" && header.data != "binary" && header.data != "binary_compressed") {
    l.fail("DATA '" + header.data + "': expected ascii, binary or binary_compressed");
  }
  // The body follows the line's "\n" even where the header's earlier lines ended in "\n" alone
  // and this one in "\r\n".
  header.bodyOffset = l.line.nextOffset;
  if (text.substr(header.bodyOffset - 1, 2) == "\r\n") ++header.bodyOffset;
  header.bodyLine = l.line.number + 1;
}

/// Applies one header line; returns true at DATA, the last one.
bool parseHeaderLine(std::string_view keyword, const HeaderLine& l, std::string_view text,
                     PcdHeader& header) {
  if (keyword == "version") {
    header.version = l.values.empty() ? "" : std::string(l.values[0]);
  } else if (keyword == "fields" || keyword == "columns") {
    parseFields(l, header);
  } else if (keyword == "size") {
    parseSizes(l, header);
  } else if (keyword == "type") {
    parseTypes(l, header);
  } else if (keyword == "count") {
    parseCounts(l, header);
  } else if (keyword == "width") {
    header.width = l.single("WIDTH");
    header.sawWidth = true;
  } else if (keyword == "height") {
    header.height = l.single("HEIGHT");
  } else if (keyword == "points") {
    header.points = l.single("POINTS");
    header.sawPoints = true;
  } else if (keyword == "viewpoint") {
    // The sensor pose; the points are already in the cloud's frame for viewing.
  } else if (keyword == "data") {
    parseData(l, text, header);
    return true;
  } else {
    l.fail("unknown header keyword '" + std::string(keyword) + "'");
  }
  return false;
}

/// Each field's scalar type from TYPE and SIZE.
void resolveFieldTypes(PcdHeader& header, const ReadContext& context) {
  static const ScalarType ints[] = {ScalarType::Int8, ScalarType::Int16, ScalarType::Int32,
                                    ScalarType::Int64};
  static const ScalarType uints[] = {ScalarType::UInt8, ScalarType::UInt16, ScalarType::UInt32,
                                     ScalarType::UInt64};
  for (PcdField& field : header.fields) {
    const uint64_t s = field.size;
    const bool ok = field.type == 'F' ? (s == 4 || s == 8) : (s == 1 || s == 2 || s == 4 || s == 8);
    if (!ok) {
      context.fail("field '" + field.name + "' has TYPE " + field.type + " with SIZE " +
                   std::to_string(s) + ": expected F with 4 or 8, I or U with 1, 2, 4 or 8");
    }
    const int index = s == 1 ? 0 : s == 2 ? 1 : s == 4 ? 2 : 3;
    field.scalar = field.type == 'F'   ? (s == 4 ? ScalarType::Float32 : ScalarType::Float64)
                   : field.type == 'I' ? ints[index]
                                       : uints[index];
  }
}

/// POINTS, or WIDTH x HEIGHT; both must agree when both are given.
void resolvePointCount(PcdHeader& header, const ReadContext& context) {
  uint64_t gridPoints = 0;
  if (header.sawWidth && __builtin_mul_overflow(header.width, header.height, &gridPoints)) {
    context.fail("WIDTH x HEIGHT overflows");
  }
  if (!header.sawPoints) {
    if (!header.sawWidth) context.fail("header has neither POINTS nor WIDTH");
    header.points = gridPoints;
  } else if (header.sawWidth && gridPoints != header.points) {
    context.fail("WIDTH x HEIGHT = " + std::to_string(gridPoints) +
                 " but POINTS = " + std::to_string(header.points) + "; expected them to agree");
  }
}

PcdHeader parseHeader(std::string_view text, const ReadContext& context) {
  PcdHeader header;
  LineReader lines(text);
  TextLine line;
  for (;;) {
    if (!lines.next(line)) context.failAt(text.size(), "header ends without a DATA line");
    if (line.hasNul) context.failAt(line.offset, "binary data inside the header (no DATA line?)");
    const auto words = splitWords(line.text);
    if (words.empty() || words[0].front() == '#') continue;
    const HeaderLine headerLine{{words.begin() + 1, words.end()}, context, line};
    if (parseHeaderLine(lowerCase(words[0]), headerLine, text, header)) break;
  }
  if (header.fields.empty()) context.fail("header has no FIELDS line");
  if (!header.sawSize && header.data != "ascii") context.fail("header has no SIZE line");
  resolveFieldTypes(header, context);
  resolvePointCount(header, context);
  return header;
}

/// What each field means: colours need red, green and blue, packed colours 4 bytes; fails
/// without x and y.
TextColumns fieldColumns(const PcdHeader& header, const ReadContext& context) {
  int channels = 0;
  for (const PcdField& f : header.fields) {
    channels += f.count == 1 && (f.name == "red" || f.name == "green" || f.name == "blue");
  }
  TextColumns columns;
  bool hasX = false, hasY = false;
  for (const PcdField& f : header.fields) {
    FieldRole role = FieldRole::Attribute;
    if (f.count != 1 || f.name == "_") {
      role = FieldRole::Ignore;  // histograms, padding
    } else if (f.name == "x" || f.name == "y" || f.name == "z") {
      role = FieldRole(int(FieldRole::X) + (f.name[0] - 'x'));
    } else if ((f.name == "rgb" || f.name == "rgba") && f.size == 4) {
      role = FieldRole::PackedRgb;
    } else if (channels == 3 && (f.name == "red" || f.name == "green" || f.name == "blue")) {
      role = f.name == "red"     ? FieldRole::Red
             : f.name == "green" ? FieldRole::Green
                                 : FieldRole::Blue;
    }
    hasX = hasX || role == FieldRole::X;
    hasY = hasY || role == FieldRole::Y;
    columns.roles.push_back(role);
    columns.types.push_back(f.scalar);
    columns.attributeOfColumn.push_back(
        role == FieldRole::Attribute ? int(columns.attributeNames.size()) : -1);
    if (role == FieldRole::Attribute) columns.attributeNames.push_back(f.name);
  }
  if (!hasX || !hasY) context.fail("FIELDS has no x and y");
  return columns;
}

/// Ascii rows hold every value of every field; only the first value of each field has a role.
TextColumns asciiColumns(const PcdHeader& header, const TextColumns& fields) {
  TextColumns columns{.attributeNames = fields.attributeNames};
  for (size_t i = 0; i < header.fields.size(); ++i) {
    for (uint64_t k = 0; k < header.fields[i].count; ++k) {
      columns.types.push_back(header.fields[i].scalar);
      columns.roles.push_back(k == 0 ? fields.roles[i] : FieldRole::Ignore);
      columns.attributeOfColumn.push_back(k == 0 ? fields.attributeOfColumn[i] : -1);
    }
  }
  return columns;
}

/// Parses one data line into `row` (values per row); false for a blank line.
bool parseAsciiRow(const TextLine& line, std::vector<double>& row, const ReadContext& context) {
  const auto tokens = splitWords(line.text);
  if (tokens.empty()) return false;
  if (tokens.size() < row.size()) {
    context.failAtLine(line.number, std::to_string(tokens.size()) + " values, expected " +
                                        std::to_string(row.size()));
  }
  for (size_t v = 0; v < row.size(); ++v) {
    if (!parseNumber(tokens[v], row[v])) {
      // Built with append: "'" + std::string(token) trips a false GCC 12 -Wrestrict warning.
      std::string message = "'";
      message.append(tokens[v]).append("' is not a number");
      context.failAtLine(line.number, message);
    }
  }
  return true;
}

void readAscii(std::string_view text, const PcdHeader& header, const TextColumns& fields,
               const ReadContext& context, ReadResult& result) {
  const uint64_t points = header.points;
  if (points > (text.size() - header.bodyOffset) / 2) {
    context.failAt(header.bodyOffset,
                   "header declares " + std::to_string(points) + " points, more than the " +
                       std::to_string(text.size() - header.bodyOffset) + " bytes left can hold");
  }
  TextColumns columns = asciiColumns(header, fields);
  context.requireMemoryForPoints(points, columns.attributeNames.size());
  std::vector<double> row(columns.roles.size());
  TextRowAssembler rows(std::move(columns));
  rows.reserve(points);
  LineReader lines(text, header.bodyOffset, header.bodyLine);
  TextLine line;
  while (rows.rows() < points) {
    if (!lines.next(line)) {
      context.failAtLine(lines.nextNumber(), "file ends after " + std::to_string(rows.rows()) +
                                                 " of " + std::to_string(points) + " points");
    }
    if (parseAsciiRow(line, row, context)) rows.addRow(row.data());
  }
  result.worldBounds = rows.worldBounds();
  result.cloud = rows.finish();
}

/// The LZF block of binary_compressed data, expanded; checked against the header first.
std::vector<uint8_t> decompressColumns(std::span<const uint8_t> bytes, const PcdHeader& header,
                                       const ReadContext& context) {
  const uint64_t at = header.bodyOffset, remaining = bytes.size() - at;
  const uint64_t recordBytes = header.recordBytes(), points = header.points;
  if (remaining < 8) context.failAt(at, "expected the 8-byte compressed sizes");
  const uint64_t compressed = loadLe<uint32_t>(bytes.data() + at);
  const uint64_t uncompressed = loadLe<uint32_t>(bytes.data() + at + 4);
  if (compressed > remaining - 8) {
    context.failAt(at, "compressed size " + std::to_string(compressed) + " is larger than the " +
                           std::to_string(remaining - 8) + " bytes that follow");
  }
  if (points > uncompressed / recordBytes || points * recordBytes != uncompressed) {
    context.failAt(at + 4, "uncompressed size " + std::to_string(uncompressed) + ": expected " +
                               std::to_string(points) + " points x " + std::to_string(recordBytes) +
                               " bytes");
  }
  if (uncompressed > lzfMaxExpansion(compressed)) {
    context.failAt(at + 4, "uncompressed size " + std::to_string(uncompressed) +
                               " is impossible for " + std::to_string(compressed) +
                               " compressed bytes");
  }
  std::vector<uint8_t> columns(uncompressed);
  if (!lzfDecompress(bytes.subspan(at + 8, compressed), columns)) {
    context.failAt(at + 8, "corrupt LZF data (expected " + std::to_string(compressed) +
                               " bytes that expand to " + std::to_string(uncompressed) + ")");
  }
  return columns;
}

/// Record-major (binary) or column-major (binary_compressed: all points' values of a field
/// together) fields.
RecordLayout binaryLayout(const PcdHeader& header, const TextColumns& columns) {
  const bool columnMajor = header.data == "binary_compressed";
  RecordLayout layout{.attributeNames = columns.attributeNames,
                      .bytesPerPoint = header.recordBytes()};
  uint64_t offset = 0;
  for (size_t i = 0; i < header.fields.size(); ++i) {
    const PcdField& f = header.fields[i];
    if (columns.roles[i] != FieldRole::Ignore) {
      layout.fields.push_back({.type = f.scalar,
                               .role = columns.roles[i],
                               .base = columnMajor ? offset * header.points : offset,
                               .stride = columnMajor ? f.bytes() : header.recordBytes(),
                               .attribute = columns.attributeOfColumn[i]});
    }
    offset += f.bytes();
  }
  return layout;
}

void readBinary(std::span<const uint8_t> bytes, const PcdHeader& header, const TextColumns& columns,
                const ReadContext& context, ReadResult& result) {
  const uint64_t recordBytes = header.recordBytes(), points = header.points;
  const uint64_t remaining = bytes.size() - header.bodyOffset;
  if (recordBytes == 0) context.fail("fields have zero size");
  RecordSource source{.data = bytes.data() + header.bodyOffset,  // bytes after the points ignored
                      .count = points,
                      .layout = binaryLayout(header, columns)};
  std::vector<uint8_t> decompressed;
  if (header.data == "binary") {
    if (points > remaining / recordBytes) {
      context.failAt(header.bodyOffset, "header declares " + std::to_string(points) +
                                            " points of " + std::to_string(recordBytes) +
                                            " bytes, but only " + std::to_string(remaining) +
                                            " bytes follow");
    }
  } else {
    decompressed = decompressColumns(bytes, header, context);
    source.data = decompressed.data();
  }
  result.cloud = decodeRecords(source, context, result.worldBounds);
}

}  // namespace

ReadResult readPcd(std::span<const uint8_t> bytes, const ReadContext& context) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const PcdHeader header = parseHeader(text, context);
  const TextColumns columns = fieldColumns(header, context);
  context.reachedByte(header.bodyOffset);
  ReadResult result{.format = "PCD",
                    .details = (header.version.empty() ? "" : header.version + ", ") + header.data +
                               ", " + std::to_string(header.width) + "x" +
                               std::to_string(header.height)};
  if (context.headerOnly()) {
    result.declared = ReadResult::Declared{.points = header.points};
    for (const std::string& name : columns.attributeNames) {
      result.cloud.attributes.push_back({name, {}});
    }
    result.cloud.hasColor = std::any_of(
        columns.roles.begin(), columns.roles.end(),
        [](FieldRole role) { return role == FieldRole::Red || role == FieldRole::PackedRgb; });
  } else if (header.data == "ascii") {
    readAscii(text, header, columns, context, result);
  } else {
    readBinary(bytes, header, columns, context, result);
  }
  return result;
}

}  // namespace pcv::io
