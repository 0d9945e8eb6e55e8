#include "viewer/views/json_value.hpp"

#include <cstdio>
#include <cstdlib>

#include "pcv/core/error.hpp"

namespace pcv::app {
namespace {

/// Nesting deeper than this is refused: the bookmarks need three levels.
constexpr int kMaxDepth = 64;

class JsonParser {
 public:
  JsonParser(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  JsonValue document() {
    JsonValue value = parseValue(0);
    skipSpace();
    if (at_ != text_.size()) fail("the end of the document");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& expected) const {
    throw InputError(source_ + ": byte " + std::to_string(at_) + ": expected " + expected);
  }
  void skipSpace() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\r' || text_[at_] == '\t')) {
      ++at_;
    }
  }
  bool take(char c) {
    skipSpace();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("'") + c + "'");
  }
  bool takeWord(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  JsonValue parseValue(int depth) {
    if (depth > kMaxDepth) fail("less nesting");
    skipSpace();
    if (at_ >= text_.size()) fail("a value");
    JsonValue value;
    const char c = text_[at_];
    if (c == '{') {
      value.type = JsonValue::Type::Object;
      ++at_;
      if (take('}')) return value;
      do {
        skipSpace();
        std::string key = parseString();
        expect(':');
        value.object.emplace_back(std::move(key), parseValue(depth + 1));
      } while (take(','));
      expect('}');
    } else if (c == '[') {
      value.type = JsonValue::Type::Array;
      ++at_;
      if (take(']')) return value;
      do {
        value.array.push_back(parseValue(depth + 1));
      } while (take(','));
      expect(']');
    } else if (c == '"') {
      value.type = JsonValue::Type::String;
      value.string = parseString();
    } else if (takeWord("true")) {
      value.type = JsonValue::Type::Bool;
      value.boolean = true;
    } else if (takeWord("false")) {
      value.type = JsonValue::Type::Bool;
    } else if (takeWord("null")) {
      value.type = JsonValue::Type::Null;
    } else {
      value.type = JsonValue::Type::Number;
      value.number = parseNumber();
    }
    return value;
  }

  double parseNumber() {
    const size_t begin = at_;
    while (at_ < text_.size() &&
           std::string_view("+-0123456789.eE").find(text_[at_]) != std::string_view::npos) {
      ++at_;
    }
    const std::string digits(text_.substr(begin, at_ - begin));
    char* end = nullptr;
    const double number = std::strtod(digits.c_str(), &end);
    if (digits.empty() || end != digits.c_str() + digits.size()) {
      at_ = begin;
      fail("a value (object, array, string, number, true, false or null)");
    }
    return number;
  }

  std::string parseString() {
    if (at_ >= text_.size() || text_[at_] != '"') fail("a string");
    ++at_;
    std::string out;
    while (at_ < text_.size() && text_[at_] != '"') {
      char c = text_[at_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= text_.size()) break;
      c = text_[at_++];
      switch (c) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u':
          out += parseEscapedCodePoint();
          break;
        default:
          out += c;  // \" \\ \/
      }
    }
    if (at_ >= text_.size()) fail("the end of a string ('\"')");
    ++at_;
    return out;
  }

  /// \uXXXX as UTF-8 (code points of the basic plane; the file's own strings are paths).
  std::string parseEscapedCodePoint() {
    if (at_ + 4 > text_.size()) fail("four hex digits after \\u");
    const std::string hex(text_.substr(at_, 4));
    char* end = nullptr;
    const unsigned long code = std::strtoul(hex.c_str(), &end, 16);
    if (end != hex.c_str() + 4) fail("four hex digits after \\u");
    at_ += 4;
    std::string out;
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xc0 | (code >> 6));
      out += char(0x80 | (code & 0x3f));
    } else {
      out += char(0xe0 | (code >> 12));
      out += char(0x80 | ((code >> 6) & 0x3f));
      out += char(0x80 | (code & 0x3f));
    }
    return out;
  }

  std::string_view text_;
  const std::string& source_;
  size_t at_ = 0;
};

}  // namespace

const JsonValue* JsonValue::find(std::string_view key) const {
  for (const auto& [name, value] : object) {
    if (name == key) return &value;
  }
  return nullptr;
}

JsonValue parseJson(std::string_view text, const std::string& sourceName) {
  return JsonParser(text, sourceName).document();
}

std::string jsonQuoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace pcv::app
