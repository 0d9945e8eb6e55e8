/// @brief Lines, words and numbers of text formats (PLY and PCD headers and ascii bodies, text
/// point lists): one line splitter, one word splitter and one number parser for all of them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pcv/core/text_case.hpp"

namespace pcv::io {

/// Parses a whole token as a number (decimal, exponent, inf, nan); false when it is not one.
bool parseNumber(std::string_view token, double& value);

/// Parses a whole token as a non-negative integer below 1.8e19 (counts in headers).
bool parseCount(std::string_view token, uint64_t& value);

/// The words of `line` between runs of any of `separators`.
std::vector<std::string_view> splitWords(std::string_view line,
                                         std::string_view separators = " \t");

/// One line of a text: its characters without the line break, where it starts, its number.
struct TextLine {
  std::string_view text;
  uint64_t offset = 0;      ///< byte offset of its first character
  uint64_t number = 0;      ///< 1-based
  bool hasNul = false;      ///< it holds a NUL byte: binary data, not text
  uint64_t nextOffset = 0;  ///< byte offset just after its line break
};

/// Splits a text into lines ending in "\n", "\r\n" or "\r". "\r\n" is one break unless the
/// text's first break was a lone "\r" or "\n": then each character breaks a line on its own, so
/// a header's break style decides where a binary body begins (PLY, PCD).
class LineReader {
 public:
  explicit LineReader(std::string_view text, uint64_t offset = 0, uint64_t firstLine = 1)
      : text_(text), pos_(offset), nextNumber_(firstLine) {}
  /// The next line, or false at the end of the text.
  bool next(TextLine& line);
  /// Byte offset of the next line's first character.
  uint64_t offset() const { return pos_; }
  /// The number the next line will have.
  uint64_t nextNumber() const { return nextNumber_; }

 private:
  std::string_view text_;
  uint64_t pos_;
  uint64_t nextNumber_;
  enum class Breaks { Unknown, CrLf, Single } breaks_ = Breaks::Unknown;
};

/// Whitespace-separated tokens across lines (PLY ascii bodies), with the line of each token.
class TokenCursor {
 public:
  TokenCursor(std::string_view text, uint64_t offset, uint64_t line)
      : text_(text), pos_(offset), line_(line), tokenLine_(line) {}
  /// The next token, or empty at the end.
  std::string_view next();
  /// Whether only whitespace is left.
  bool atEnd();
  /// Line of the last non-empty token next() returned (the first line before any): at the end
  /// of the text, the line of the last value, which is where a short row is.
  uint64_t tokenLine() const { return tokenLine_; }
  /// Line the cursor is on (after the last token, before skipping to the next).
  uint64_t line() const { return line_; }

 private:
  void skipSpace();
  std::string_view text_;
  uint64_t pos_;
  uint64_t line_;
  uint64_t tokenLine_;
};

}  // namespace pcv::io
