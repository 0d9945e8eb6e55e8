// PCD (Point Cloud Library), versions 0.5-0.7: DATA ascii, binary (records one after another)
// and binary_compressed (LZF-compressed, one column per field).
#include <algorithm>
#include <cmath>

#include "lzf.hpp"
#include "reader_common.hpp"

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
  bool sawPoints = false, sawWidth = false;
  std::string data;  ///< ascii, binary or binary_compressed
  uint64_t bodyOffset = 0;
  uint64_t bodyLine = 0;
};

bool parseUnsigned(std::string_view token, uint64_t& value) {
  double number = 0;
  if (!parseNumber(token, number) || number < 0 || number != std::floor(number) ||
      number > 1.8e19) {
    return false;
  }
  value = uint64_t(number);
  return true;
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> result;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) result.push_back(line.substr(start, i - start));
  }
  return result;
}

PcdHeader parseHeader(std::string_view text, const ReadContext& context) {
  PcdHeader header;
  uint64_t pos = 0, line = 0;
  bool sawSize = false, sawType = false, sawCount = false;
  for (;;) {
    ++line;
    if (pos >= text.size()) context.failAt(pos, "header ends without a DATA line");
    const uint64_t lineStart = pos;
    while (pos < text.size() && text[pos] != '\n') {
      if (text[pos] == '\0') context.failAt(pos, "binary data inside the header (no DATA line?)");
      ++pos;
    }
    std::string_view lineText = text.substr(lineStart, pos - lineStart);
    if (pos < text.size()) ++pos;  // the '\n'
    if (!lineText.empty() && lineText.back() == '\r') lineText.remove_suffix(1);
    const auto w = words(lineText);
    if (w.empty() || w[0].front() == '#') continue;
    const std::string keyword = lowerCase(w[0]);
    auto fail = [&](const std::string& what) {
      context.failAt(lineStart, "header line " + std::to_string(line) + ": " + what);
    };
    const size_t n = w.size() - 1;
    auto needFields = [&](const char* what) {
      if (header.fields.empty()) fail(std::string(what) + " before FIELDS");
      if (n != header.fields.size()) {
        fail(std::string(what) + " has " + std::to_string(n) + " entries, FIELDS has " +
             std::to_string(header.fields.size()));
      }
    };
    if (keyword == "version") {
      header.version = n >= 1 ? std::string(w[1]) : "";
    } else if (keyword == "fields" || keyword == "columns") {
      if (n == 0) fail("FIELDS lists no fields");
      header.fields.clear();
      for (size_t i = 1; i <= n; ++i) {
        PcdField field;
        field.name = lowerCase(w[i]);
        for (const auto& existing : header.fields) {
          if (existing.name == field.name && field.name != "_") {
            fail("field '" + field.name + "' listed twice");
          }
        }
        header.fields.push_back(field);
      }
    } else if (keyword == "size") {
      needFields("SIZE");
      for (size_t i = 0; i < n; ++i) {
        if (!parseUnsigned(w[i + 1], header.fields[i].size)) fail("SIZE entry is not a number");
      }
      sawSize = true;
    } else if (keyword == "type") {
      needFields("TYPE");
      for (size_t i = 0; i < n; ++i) {
        if (w[i + 1].size() != 1 ||
            std::string_view("FIU").find(w[i + 1][0]) == std::string_view::npos) {
          fail("TYPE entry '" + std::string(w[i + 1]) + "': expected F, I or U");
        }
        header.fields[i].type = w[i + 1][0];
      }
      sawType = true;
    } else if (keyword == "count") {
      needFields("COUNT");
      for (size_t i = 0; i < n; ++i) {
        if (!parseUnsigned(w[i + 1], header.fields[i].count) || header.fields[i].count == 0 ||
            header.fields[i].count > (1u << 20)) {
          fail("COUNT entry '" + std::string(w[i + 1]) + "': expected 1 to 1048576");
        }
      }
      sawCount = true;
    } else if (keyword == "width") {
      if (n != 1 || !parseUnsigned(w[1], header.width)) fail("WIDTH: expected a count");
      header.sawWidth = true;
    } else if (keyword == "height") {
      if (n != 1 || !parseUnsigned(w[1], header.height)) fail("HEIGHT: expected a count");
    } else if (keyword == "points") {
      if (n != 1 || !parseUnsigned(w[1], header.points)) fail("POINTS: expected a count");
      header.sawPoints = true;
    } else if (keyword == "viewpoint") {
      continue;  // sensor pose; the points are already in the cloud's frame for viewing
    } else if (keyword == "data") {
      if (n != 1) fail("DATA: expected ascii, binary or binary_compressed");
      header.data = lowerCase(w[1]);
      if (header.data != "ascii" && header.data != "binary" && header.data != "binary_compressed") {
        fail("DATA '" + header.data + "': expected ascii, binary or binary_compressed");
      }
      header.bodyOffset = pos;
      header.bodyLine = line + 1;
      break;
    } else {
      fail("unknown header keyword '" + std::string(w[0]) + "'");
    }
  }
  if (header.fields.empty()) context.fail("header has no FIELDS line");
  if (!sawSize && header.data != "ascii") context.fail("header has no SIZE line");
  (void)sawType;
  (void)sawCount;
  for (PcdField& field : header.fields) {
    const uint64_t s = field.size;
    const bool ok = field.type == 'F' ? (s == 4 || s == 8) : (s == 1 || s == 2 || s == 4 || s == 8);
    if (!ok) {
      context.fail("field '" + field.name + "' has TYPE " + field.type + " with SIZE " +
                   std::to_string(s) + ": expected F with 4 or 8, I or U with 1, 2, 4 or 8");
    }
    static const ScalarType ints[] = {ScalarType::Int8, ScalarType::Int16, ScalarType::Int32,
                                      ScalarType::Int64};
    static const ScalarType uints[] = {ScalarType::UInt8, ScalarType::UInt16, ScalarType::UInt32,
                                       ScalarType::UInt64};
    const int index = s == 1 ? 0 : s == 2 ? 1 : s == 4 ? 2 : 3;
    field.scalar = field.type == 'F'   ? (s == 4 ? ScalarType::Float32 : ScalarType::Float64)
                   : field.type == 'I' ? ints[index]
                                       : uints[index];
  }
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
  return header;
}

/// Roles by field name; colours need red, green and blue, packed colours 4 bytes.
void assignRoles(const PcdHeader& header, std::vector<FieldRole>& roles,
                 std::vector<int>& attributeOf, std::vector<std::string>& attributes) {
  int channels = 0;
  for (const PcdField& f : header.fields) {
    channels += f.count == 1 && (f.name == "red" || f.name == "green" || f.name == "blue");
  }
  for (const PcdField& f : header.fields) {
    FieldRole role = FieldRole::Attribute;
    if (f.count != 1 || f.name == "_")
      role = FieldRole::Ignore;  // histograms, padding
    else if (f.name == "x")
      role = FieldRole::X;
    else if (f.name == "y")
      role = FieldRole::Y;
    else if (f.name == "z")
      role = FieldRole::Z;
    else if ((f.name == "rgb" || f.name == "rgba") && f.size == 4)
      role = FieldRole::PackedRgb;
    else if (channels == 3 && f.name == "red")
      role = FieldRole::Red;
    else if (channels == 3 && f.name == "green")
      role = FieldRole::Green;
    else if (channels == 3 && f.name == "blue")
      role = FieldRole::Blue;
    roles.push_back(role);
    attributeOf.push_back(role == FieldRole::Attribute ? int(attributes.size()) : -1);
    if (role == FieldRole::Attribute) attributes.push_back(f.name);
  }
}

}  // namespace

ReadResult readPcd(std::span<const uint8_t> bytes, const ReadContext& context) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const PcdHeader header = parseHeader(text, context);
  std::vector<FieldRole> roles;
  std::vector<int> attributeOf;
  std::vector<std::string> attributes;
  assignRoles(header, roles, attributeOf, attributes);
  if (std::find(roles.begin(), roles.end(), FieldRole::X) == roles.end() ||
      std::find(roles.begin(), roles.end(), FieldRole::Y) == roles.end()) {
    context.fail("FIELDS has no x and y");
  }
  uint64_t recordBytes = 0;
  for (const auto& f : header.fields) recordBytes += f.bytes();
  const uint64_t remaining = bytes.size() - header.bodyOffset;
  const uint64_t points = header.points;
  if (context.progress) context.progress->bytesDone = header.bodyOffset;
  ReadResult result{{},
                    "PCD",
                    (header.version.empty() ? "" : header.version + ", ") + header.data + ", " +
                        std::to_string(header.width) + "x" + std::to_string(header.height)};

  if (header.data == "ascii") {
    if (points > remaining / 2) {
      context.failAt(header.bodyOffset, "header declares " + std::to_string(points) +
                                            " points, more than the " + std::to_string(remaining) +
                                            " bytes left can hold");
    }
    uint64_t values = 0;
    for (const auto& f : header.fields) values += f.count;
    std::vector<ScalarType> types;
    std::vector<FieldRole> columnRoles;
    std::vector<int> columnAttribute;
    for (size_t i = 0; i < header.fields.size(); ++i) {
      for (uint64_t k = 0; k < header.fields[i].count; ++k) {
        types.push_back(header.fields[i].scalar);
        columnRoles.push_back(k == 0 ? roles[i] : FieldRole::Ignore);
        columnAttribute.push_back(k == 0 ? attributeOf[i] : -1);
      }
    }
    TextRowAssembler rows(columnRoles, types, columnAttribute, attributes);
    rows.reserve(points);
    std::vector<double> row(values);
    uint64_t pos = header.bodyOffset, line = header.bodyLine;
    while (rows.rows() < points) {
      if (pos >= text.size()) {
        context.failAtLine(line, "file ends after " + std::to_string(rows.rows()) + " of " +
                                     std::to_string(points) + " points");
      }
      const uint64_t start = pos;
      while (pos < text.size() && text[pos] != '\n') ++pos;
      const auto tokens = words(text.substr(start, pos - start));
      ++pos;
      if (tokens.empty() || (tokens.size() == 1 && tokens[0] == "\r")) {
        ++line;
        continue;
      }
      if (tokens.size() < values) {
        context.failAtLine(
            line, std::to_string(tokens.size()) + " values, expected " + std::to_string(values));
      }
      for (uint64_t v = 0; v < values; ++v) {
        std::string_view token = tokens[v];
        if (!token.empty() && token.back() == '\r') token.remove_suffix(1);
        if (!parseNumber(token, row[v])) {
          // Built with append: "'" + std::string(token) trips a false GCC 12 -Wrestrict warning.
          std::string message = "'";
          message.append(token).append("' is not a number");
          context.failAtLine(line, message);
        }
      }
      rows.addRow(row.data());
      ++line;
    }
    result.cloud = rows.finish();
    return result;
  }

  RecordSource source;
  source.count = points;
  source.bytesPerPoint = recordBytes;
  source.attributeNames = attributes;
  std::vector<uint8_t> decompressed;
  if (recordBytes == 0) context.fail("fields have zero size");
  if (header.data == "binary") {
    if (points > remaining / recordBytes) {
      context.failAt(header.bodyOffset, "header declares " + std::to_string(points) +
                                            " points of " + std::to_string(recordBytes) +
                                            " bytes, but only " + std::to_string(remaining) +
                                            " bytes follow");
    }
    source.data = bytes.data() + header.bodyOffset;  // bytes after the points are ignored
  } else {
    if (remaining < 8) context.failAt(header.bodyOffset, "expected the 8-byte compressed sizes");
    const uint64_t compressed = loadUnaligned<uint32_t>(bytes.data() + header.bodyOffset);
    const uint64_t uncompressed = loadUnaligned<uint32_t>(bytes.data() + header.bodyOffset + 4);
    if (compressed > remaining - 8) {
      context.failAt(header.bodyOffset, "compressed size " + std::to_string(compressed) +
                                            " is larger than the " + std::to_string(remaining - 8) +
                                            " bytes that follow");
    }
    if (points > uncompressed / recordBytes || points * recordBytes != uncompressed) {
      context.failAt(header.bodyOffset + 4, "uncompressed size " + std::to_string(uncompressed) +
                                                ": expected " + std::to_string(points) +
                                                " points x " + std::to_string(recordBytes) +
                                                " bytes");
    }
    if (uncompressed > lzfMaxExpansion(compressed)) {
      context.failAt(header.bodyOffset + 4, "uncompressed size " + std::to_string(uncompressed) +
                                                " is impossible for " + std::to_string(compressed) +
                                                " compressed bytes");
    }
    decompressed.resize(uncompressed);
    if (!lzfDecompress(bytes.subspan(header.bodyOffset + 8, compressed), decompressed)) {
      context.failAt(header.bodyOffset + 8,
                     "corrupt LZF data (expected " + std::to_string(compressed) +
                         " bytes that expand to " + std::to_string(uncompressed) + ")");
    }
    source.data = decompressed.data();
  }
  uint64_t offset = 0;
  for (size_t i = 0; i < header.fields.size(); ++i) {
    const PcdField& f = header.fields[i];
    FieldLayout layout;
    layout.type = f.scalar;
    layout.role = roles[i];
    layout.attribute = attributeOf[i];
    if (header.data == "binary") {
      layout.base = offset;
      layout.stride = recordBytes;
    } else {
      // binary_compressed stores each field as one column: all points' values together.
      layout.base = offset * points;
      layout.stride = f.bytes();
    }
    offset += f.bytes();
    if (layout.role != FieldRole::Ignore) source.fields.push_back(layout);
  }
  result.cloud = decodeRecords(source, context);
  return result;
}

}  // namespace pcv::io
