/// @brief A small JSON reader and string quoting, for the bookmarks file (Debian 12 ships no JSON
/// library pcv uses, and the file is a few objects of numbers and strings).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pcv::app {

struct JsonValue {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  double number = 0.0;
  std::string string;
  std::vector<JsonValue> array;
  std::vector<std::pair<std::string, JsonValue>> object;  ///< in the file's order

  /// The member named `key` of an object, or null when there is none (or this is no object).
  const JsonValue* find(std::string_view key) const;
};

/// Parses one JSON document; throws InputError "`sourceName`: byte N: expected ..." otherwise.
JsonValue parseJson(std::string_view text, const std::string& sourceName);

/// `text` as a JSON string literal, quotes included.
std::string jsonQuoted(std::string_view text);

}  // namespace pcv::app
