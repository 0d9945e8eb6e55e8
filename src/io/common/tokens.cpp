#include "tokens.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace pcv::io {

bool parseNumber(std::string_view token, double& value) {
  if (token.empty()) return false;
  if (token.front() == '+') token.remove_prefix(1);
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (ec == std::errc::result_out_of_range) {
    // Like strtod: overflowing literals ("1e999") read as infinity, underflowing ones as 0.
    const bool tiny =
        token.find("e-") != std::string_view::npos || token.find("E-") != std::string_view::npos;
    const double magnitude = tiny ? 0.0 : std::numeric_limits<double>::infinity();
    value = token.front() == '-' ? -magnitude : magnitude;
    return true;
  }
  return ec == std::errc() && ptr == end;
}

bool parseCount(std::string_view token, uint64_t& value) {
  double number = 0;
  if (!parseNumber(token, number) || !(number >= 0) || number != std::floor(number) ||
      number > 1.8e19) {
    return false;
  }
  value = uint64_t(number);
  return true;
}

std::vector<std::string_view> splitWords(std::string_view line, std::string_view separators) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && separators.find(line[i]) != std::string_view::npos) ++i;
    const size_t start = i;
    while (i < line.size() && separators.find(line[i]) == std::string_view::npos) ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

bool LineReader::next(TextLine& line) {
  if (pos_ >= text_.size()) return false;
  line.offset = pos_;
  line.number = nextNumber_++;
  line.hasNul = false;
  while (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '\r') {
    line.hasNul = line.hasNul || text_[pos_] == '\0';
    ++pos_;
  }
  line.text = text_.substr(line.offset, pos_ - line.offset);
  if (pos_ < text_.size()) {
    const bool crLf = text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n';
    if (breaks_ == Breaks::Unknown) breaks_ = crLf ? Breaks::CrLf : Breaks::Single;
    pos_ += crLf && breaks_ == Breaks::CrLf ? 2 : 1;
  }
  line.nextOffset = pos_;
  return true;
}

namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
}

}  // namespace

void TokenCursor::skipSpace() {
  while (pos_ < text_.size() && isSpace(text_[pos_])) {
    const bool lineBreak =
        text_[pos_] == '\n' ||
        (text_[pos_] == '\r' && (pos_ + 1 >= text_.size() || text_[pos_ + 1] != '\n'));
    if (lineBreak) ++line_;
    ++pos_;
  }
}

std::string_view TokenCursor::next() {
  skipSpace();
  const size_t start = pos_;
  while (pos_ < text_.size() && !isSpace(text_[pos_])) ++pos_;
  if (pos_ > start) tokenLine_ = line_;
  return text_.substr(start, pos_ - start);
}

bool TokenCursor::atEnd() {
  skipSpace();
  return pos_ >= text_.size();
}

}  // namespace pcv::io
