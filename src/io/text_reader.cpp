// Text point lists: .xyz .txt .csv .pts. Values separated by whitespace, commas or semicolons;
// leading non-numeric lines are headers (their names pick the columns when they match the column
// count); a leading line with a single integer is a point count (Leica PTS). Without names the
// columns are guessed from their count and value ranges, and the guess is reported.
#include <algorithm>
#include <cmath>

#include "reader_common.hpp"

namespace pcv::io {
namespace {

bool isSeparator(char c) {
  return c == ' ' || c == '\t' || c == ',' || c == ';';
}

std::vector<std::string_view> splitTokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSeparator(line[i])) ++i;
    const size_t start = i;
    while (i < line.size() && !isSeparator(line[i])) ++i;
    std::string_view token = line.substr(start, i - start);
    // Quoted names: "X","Y","Z".
    while (!token.empty() && (token.front() == '"' || token.front() == '\''))
      token.remove_prefix(1);
    while (!token.empty() && (token.back() == '"' || token.back() == '\'')) token.remove_suffix(1);
    if (!token.empty()) tokens.push_back(token);
  }
  return tokens;
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

}  // namespace

ReadResult readText(std::span<const uint8_t> bytes, const ReadContext& context,
                    const std::string& extension) {
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  std::vector<std::string> headerNames;  // names of the last header line
  std::vector<double> values;            // rows of `columns` values
  size_t columns = 0;
  bool sawCount = false;
  uint64_t pos = 0, line = 0;
  while (pos < text.size()) {
    ++line;
    const uint64_t start = pos;
    while (pos < text.size() && text[pos] != '\n' && text[pos] != '\r') {
      if (text[pos] == '\0') context.failAtLine(line, "binary data in a text point file");
      ++pos;
    }
    const std::string_view lineText = text.substr(start, pos - start);
    if (pos < text.size() && text[pos] == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n')
      ++pos;
    if (pos < text.size()) ++pos;
    const auto tokens = splitTokens(lineText);
    if (tokens.empty() || tokens[0].front() == '#') continue;
    if ((line & 0xffff) == 0) {
      if (context.progress) context.progress->bytesDone = pos;
      context.advance(0);
    }
    double parsed[64];
    bool numeric = tokens.size() <= 64;
    for (size_t i = 0; numeric && i < tokens.size(); ++i)
      numeric = parseNumber(tokens[i], parsed[i]);
    if (columns == 0) {
      if (!numeric) {
        if (tokens.size() > 64) context.failAtLine(line, "more than 64 columns");
        headerNames.clear();
        for (auto token : tokens) headerNames.push_back(lowerCase(token));
        continue;
      }
      if (tokens.size() == 1 && !sawCount && parsed[0] >= 0 && parsed[0] == std::floor(parsed[0])) {
        sawCount = true;  // PTS: the number of points that follow
        continue;
      }
      if (tokens.size() < 3) {
        context.failAtLine(
            line, std::to_string(tokens.size()) + " values, expected at least 3 columns (x y z)");
      }
      columns = tokens.size();
    }
    if (!numeric) {
      context.failAtLine(line,
                         "'" + std::string(lineText.substr(0, 80)) + "' is not a row of numbers");
    }
    if (tokens.size() != columns) {
      context.failAtLine(line, std::to_string(tokens.size()) + " values, expected " +
                                   std::to_string(columns) + " like the first row");
    }
    values.insert(values.end(), parsed, parsed + columns);
  }
  if (columns == 0) context.fail("no rows of numbers (expected lines of x y z ...)");
  const uint64_t rows = values.size() / columns;

  std::vector<FieldRole> roles(columns, FieldRole::Attribute);
  std::vector<std::string> names(columns);
  std::string how;
  if (headerNames.size() == columns) {
    bool has[3] = {false, false, false};
    for (size_t c = 0; c < columns; ++c) {
      for (size_t d = 0; d < c; ++d) {
        if (headerNames[d] == headerNames[c]) {
          context.fail("header names column '" + headerNames[c] +
                       "' twice; expected distinct "
                       "names with x, y and z");
        }
      }
      roles[c] = roleOfName(headerNames[c]);
      names[c] = headerNames[c] == "i" ? "intensity" : headerNames[c];
      if (int(roles[c]) <= int(FieldRole::Z)) has[int(roles[c])] = true;
    }
    if (!has[0] || !has[1] || !has[2]) {
      context.fail("header has no x, y and z columns (it names: " + [&] {
        std::string list;
        for (const auto& n : headerNames) list += (list.empty() ? "" : ", ") + n;
        return list;
      }() + ")");
    }
    how = "columns named by the header";
  } else {
    // No usable names: x y z first, then guess from the count and the value ranges.
    auto columnIs = [&](size_t c, auto predicate) {
      for (uint64_t r = 0; r < rows; ++r) {
        if (!predicate(values[r * columns + c])) return false;
      }
      return true;
    };
    auto colourRange = [](double v) { return v >= 0.0 && v <= 255.0; };
    auto colours = [&](size_t first) {
      return first + 3 <= columns && columnIs(first, colourRange) &&
             columnIs(first + 1, colourRange) && columnIs(first + 2, colourRange);
    };
    auto constant = [&](size_t c) { return columnIs(c, [&](double v) { return v == values[c]; }); };
    roles[0] = FieldRole::X, roles[1] = FieldRole::Y, roles[2] = FieldRole::Z;
    names[0] = "x", names[1] = "y", names[2] = "z";
    for (size_t c = 3; c < columns; ++c) names[c] = "column" + std::to_string(c + 1);
    size_t rgb = 0;  // first colour column, 0 for none
    if (columns == 4) {
      names[3] = "intensity";
    } else if ((columns == 6 || (columns == 7 && constant(6))) && colours(3)) {
      rgb = 3;  // x y z r g b [a]
      if (columns == 7) roles[6] = FieldRole::Ignore, names[6] = "alpha";
    } else if (columns == 7 && colours(4)) {
      rgb = 4;  // PTS: x y z intensity r g b
      names[3] = "intensity";
    }
    if (rgb) {
      roles[rgb] = FieldRole::Red, roles[rgb + 1] = FieldRole::Green,
      roles[rgb + 2] = FieldRole::Blue;
    }
    how = "guessed from " + std::to_string(columns) + " columns and their value ranges";
  }
  std::vector<std::string> attributes;
  std::vector<int> attributeOf(columns, -1);
  for (size_t c = 0; c < columns; ++c) {
    if (roles[c] == FieldRole::Attribute) {
      attributeOf[c] = int(attributes.size());
      attributes.push_back(names[c]);
    }
  }
  std::string layout;
  for (size_t c = 0; c < columns; ++c) {
    const char* shortName[] = {"x", "y", "z", "r", "g", "b"};
    layout +=
        (c ? " " : "") +
        (int(roles[c]) <= int(FieldRole::Blue) ? std::string(shortName[int(roles[c])]) : names[c]);
  }
  TextRowAssembler assembler(roles, std::vector<ScalarType>(columns, ScalarType::Float64),
                             attributeOf, attributes);
  assembler.reserve(rows);
  for (uint64_t r = 0; r < rows; ++r) assembler.addRow(&values[r * columns]);
  if (context.progress) context.progress->bytesDone = bytes.size();
  return {assembler.finish(), "Text",
          extension.substr(extension.empty() ? 0 : 1) + ", " + std::to_string(columns) +
              " columns: " + layout + " (" + how + ")"};
}

}  // namespace pcv::io
