// Text point lists: .xyz .txt .csv .pts. Values separated by whitespace, commas or semicolons;
// leading non-numeric lines are headers (their names pick the columns when they match the column
// count); a line with a single integer is a point count (Leica PTS: one before each scan's
// rows). Without names the columns are guessed from their count and value ranges, and the guess
// is reported.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "pcv/core/host_memory.hpp"

#include "common/readers.hpp"
#include "text_rows.hpp"
#include "common/tokens.hpp"

namespace pcv::io {
namespace {

constexpr size_t kMaxColumns = 64;

/// The words of a line; quotes around names ("X","Y","Z") removed.
std::vector<std::string_view> splitTokens(std::string_view line) {
  std::vector<std::string_view> tokens = splitWords(line, " \t,;");
  for (std::string_view& token : tokens) {
    while (!token.empty() && (token.front() == '"' || token.front() == '\''))
      token.remove_prefix(1);
    while (!token.empty() && (token.back() == '"' || token.back() == '\'')) token.remove_suffix(1);
  }
  std::erase_if(tokens, [](std::string_view token) { return token.empty(); });
  return tokens;
}

/// A count line of PTS and the rows that followed it.
struct CountedBlock {
  uint64_t line = 0;
  uint64_t declared = 0;
  uint64_t rows = 0;
};

/// Every row of numbers, the last header line's names, and the count lines.
struct TextRows {
  size_t columns = 0;
  std::vector<double> values;            ///< rows of `columns` values
  std::vector<std::string> headerNames;  ///< lower case
  std::vector<CountedBlock> counts;
  uint64_t rows() const { return columns == 0 ? 0 : values.size() / columns; }
};

/// Lines of the text, counted without parsing (a header-only read's estimate of the rows).
uint64_t countLines(std::string_view text) {
  uint64_t lines = 0;
  for (const char *at = text.data(), *end = text.data() + text.size();
       (at = static_cast<const char*>(std::memchr(at, '\n', size_t(end - at)))) != nullptr; ++at) {
    ++lines;
  }
  return lines + (!text.empty() && text.back() != '\n');
}

/// Fails with the sizes before the rows' values outgrow the host memory (they are held whole
/// until the columns are known).
void requireRoomForMoreRows(const TextRows& rows, const ReadContext& context) {
  if (rows.values.size() < rows.values.capacity()) return;
  requireHostMemory(context.file + "'s values (8 bytes each, held until the columns are known)",
                    std::max<uint64_t>(rows.values.size() * 2, 1 << 20), sizeof(double));
}

/// Adds one non-blank line to `rows`: a header line, a count line or a row of numbers.
void addLine(const TextLine& line, const std::vector<std::string_view>& tokens, TextRows& rows,
             const ReadContext& context) {
  double parsed[kMaxColumns];
  bool numeric = tokens.size() <= kMaxColumns;
  for (size_t i = 0; numeric && i < tokens.size(); ++i) numeric = parseNumber(tokens[i], parsed[i]);
  if (!numeric && rows.columns == 0) {
    if (tokens.size() > kMaxColumns) context.failAtLine(line.number, "more than 64 columns");
    rows.headerNames.clear();
    for (auto token : tokens) rows.headerNames.push_back(lowerCase(token));
    return;
  }
  if (numeric && tokens.size() == 1 && parsed[0] >= 0 && parsed[0] == std::floor(parsed[0]) &&
      parsed[0] < 1.8e19) {
    rows.counts.push_back({.line = line.number, .declared = uint64_t(parsed[0])});
    return;
  }
  if (rows.columns == 0) {
    if (tokens.size() < 3) {
      context.failAtLine(line.number, std::to_string(tokens.size()) +
                                          " values, expected at least 3 columns (x y z)");
    }
    rows.columns = tokens.size();
  }
  if (!numeric) {
    // Built with append: "'" + std::string(...) trips a false GCC 12 -Wrestrict warning.
    std::string message = "'";
    message.append(line.text.substr(0, 80)).append("' is not a row of numbers");
    context.failAtLine(line.number, message);
  }
  if (tokens.size() != rows.columns) {
    context.failAtLine(line.number, std::to_string(tokens.size()) + " values, expected " +
                                        std::to_string(rows.columns) + " like the first row");
  }
  requireRoomForMoreRows(rows, context);
  rows.values.insert(rows.values.end(), parsed, parsed + rows.columns);
  if (!rows.counts.empty()) ++rows.counts.back().rows;
}

TextRows scanRows(std::string_view text, const ReadContext& context) {
  TextRows rows;
  LineReader lines(text);
  TextLine line;
  while (lines.next(line)) {
    if (line.hasNul) context.failAtLine(line.number, "binary data in a text point file");
    if ((line.number & 0xffff) == 0) context.reachedByte(line.offset);
    const auto tokens = splitTokens(line.text);
    if (tokens.empty() || tokens[0].front() == '#') continue;
    addLine(line, tokens, rows, context);
  }
  if (rows.columns == 0) context.fail("no rows of numbers (expected lines of x y z ...)");
  return rows;
}

/// "count 8 at line 1, but 9 rows follow" for each count line its rows disagree with.
std::vector<std::string> countWarnings(const TextRows& rows, const ReadContext& context) {
  std::vector<std::string> warnings;
  for (const CountedBlock& block : rows.counts) {
    if (block.rows == block.declared) continue;
    warnings.push_back(context.file + ": line " + std::to_string(block.line) + " declares " +
                       std::to_string(block.declared) + " points, but " +
                       std::to_string(block.rows) + " rows follow; read the rows");
  }
  return warnings;
}

FieldRole roleOfName(const std::string& name) {
  if (name == "x" || name == "//x") return FieldRole::X;
  if (name == "y") return FieldRole::Y;
  if (name == "z") return FieldRole::Z;
  if (name == "r" || name == "red") return FieldRole::Red;
  if (name == "g" || name == "green") return FieldRole::Green;
  if (name == "b" || name == "blue") return FieldRole::Blue;
  return FieldRole::Attribute;
}

/// Columns named by the header line; fails on repeated names or without x, y and z.
void columnsFromHeader(const TextRows& rows, std::vector<FieldRole>& roles,
                       std::vector<std::string>& names, const ReadContext& context) {
  bool has[3] = {false, false, false};
  std::string list;
  for (size_t c = 0; c < rows.columns; ++c) {
    const std::string& name = rows.headerNames[c];
    if (std::find(rows.headerNames.begin(), rows.headerNames.begin() + c, name) !=
        rows.headerNames.begin() + c) {
      context.fail("header names column '" + name +
                   "' twice; expected distinct names with x, y and z");
    }
    roles[c] = roleOfName(name);
    names[c] = name == "i" ? "intensity" : name;
    if (int(roles[c]) <= int(FieldRole::Z)) has[int(roles[c])] = true;
    list += (list.empty() ? "" : ", ") + name;
  }
  if (!has[0] || !has[1] || !has[2]) {
    context.fail("header has no x, y and z columns (it names: " + list + ")");
  }
}

/// No usable names: x y z first, then colours or intensity guessed from the count and ranges.
void guessColumns(const TextRows& rows, std::vector<FieldRole>& roles,
                  std::vector<std::string>& names) {
  const size_t columns = rows.columns;
  auto columnIs = [&](size_t c, auto predicate) {
    for (uint64_t r = 0; r < rows.rows(); ++r) {
      if (!predicate(rows.values[r * columns + c])) return false;
    }
    return true;
  };
  auto colorRange = [](double v) { return v >= 0.0 && v <= 255.0; };
  auto colors = [&](size_t first) {
    return first + 3 <= columns && columnIs(first, colorRange) && columnIs(first + 1, colorRange) &&
           columnIs(first + 2, colorRange);
  };
  auto constant = [&](size_t c) {
    return columnIs(c, [&](double v) { return v == rows.values[c]; });
  };
  roles[0] = FieldRole::X, roles[1] = FieldRole::Y, roles[2] = FieldRole::Z;
  names[0] = "x", names[1] = "y", names[2] = "z";
  for (size_t c = 3; c < columns; ++c) names[c] = "column" + std::to_string(c + 1);
  size_t rgb = 0;  // first colour column, 0 for none
  if (columns == 4) {
    names[3] = "intensity";
  } else if ((columns == 6 || (columns == 7 && constant(6))) && colors(3)) {
    rgb = 3;  // x y z r g b [a]
    if (columns == 7) roles[6] = FieldRole::Ignore, names[6] = "alpha";
  } else if (columns == 7 && colors(4)) {
    rgb = 4;  // PTS: x y z intensity r g b
    names[3] = "intensity";
  }
  if (rgb) {
    for (int c = 0; c < 3; ++c) roles[rgb + c] = FieldRole(int(FieldRole::Red) + c);
  }
}

/// "x y z r g b" as the columns were understood.
std::string describeColumns(const std::vector<FieldRole>& roles,
                            const std::vector<std::string>& names) {
  static const char* shortName[] = {"x", "y", "z", "r", "g", "b"};
  std::string layout;
  for (size_t c = 0; c < roles.size(); ++c) {
    layout +=
        (c ? " " : "") +
        (int(roles[c]) <= int(FieldRole::Blue) ? std::string(shortName[int(roles[c])]) : names[c]);
  }
  return layout;
}

}  // namespace

ReadResult readText(std::span<const uint8_t> bytes, const ReadContext& context,
                    const std::string& extension) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (context.headerOnly()) {
    // Text has no header to declare a count: the lines are counted, not parsed.
    ReadResult result{.format = "Text",
                      .details = extension.substr(extension.empty() ? 0 : 1) + ", " +
                                 std::to_string(countLines(text)) + " lines (rows not parsed)"};
    result.declared = ReadResult::Declared{.pointsKnown = false};
    return result;
  }
  const TextRows rows = scanRows(text, context);
  const size_t columns = rows.columns;
  std::vector<FieldRole> roles(columns, FieldRole::Attribute);
  std::vector<std::string> names(columns);
  const bool named = rows.headerNames.size() == columns;
  if (named) {
    columnsFromHeader(rows, roles, names, context);
  } else {
    guessColumns(rows, roles, names);
  }
  TextColumns layout{.roles = roles,
                     .types = std::vector<ScalarType>(columns, ScalarType::Float64),
                     .attributeOfColumn = std::vector<int>(columns, -1)};
  for (size_t c = 0; c < columns; ++c) {
    if (roles[c] != FieldRole::Attribute) continue;
    layout.attributeOfColumn[c] = int(layout.attributeNames.size());
    layout.attributeNames.push_back(names[c]);
  }
  TextRowAssembler assembler(std::move(layout));
  assembler.reserve(rows.rows());
  for (uint64_t r = 0; r < rows.rows(); ++r) assembler.addRow(&rows.values[r * columns]);
  context.reachedByte(bytes.size());
  const std::string how =
      named ? "columns named by the header"
            : "guessed from " + std::to_string(columns) + " columns and their value ranges";
  ReadResult result{.format = "Text",
                    .details = extension.substr(extension.empty() ? 0 : 1) + ", " +
                               std::to_string(columns) +
                               " columns: " + describeColumns(roles, names) + " (" + how + ")",
                    .worldBounds = assembler.worldBounds(),
                    .warnings = countWarnings(rows, context)};
  result.cloud = assembler.finish();
  return result;
}

}  // namespace pcv::io
