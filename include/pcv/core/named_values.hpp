/// @brief Enums that people type by name (on the command line, in Python, in a copied view): one
/// table per enum, read and written through it, and an error that carries the known names, so
/// every front end accepts the same names and refuses a wrong one with the same message.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pcv/core/error.hpp"

namespace pcv {

/// A name typed for a value that has none by that name. The message is
/// "unknown <what> '<given>' (known: a, b, c)"; the names are also kept as data.
class UnknownNameError : public InputError {
 public:
  UnknownNameError(std::string_view what, std::string_view given,
                   std::vector<std::string> knownNames);
  /// The names that would have been accepted, in the table's order (aliases left out).
  const std::vector<std::string>& knownNames() const noexcept { return knownNames_; }

 private:
  std::vector<std::string> knownNames_;
};

/// One row of a name table: `name` (a string literal) means `value`.
template <typename Enum>
struct NamedValue {
  const char* name;
  Enum value;
};

/// An enum's names. The first row of a value gives its name; a later row of the same value is
/// an alias that reads but is never written ("gray" for "grey").
template <typename Enum>
struct NameTable {
  const char* what;  ///< what a name names, for messages: "eye-dome lighting mode"
  std::span<const NamedValue<Enum>> rows;

  /// Every value's name, in the table's order, without aliases.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (isAlias(i)) continue;
      out.emplace_back(rows[i].name);
    }
    return out;
  }

  /// The value named `name` (exactly, aliases included); throws UnknownNameError otherwise.
  Enum parse(std::string_view name) const {
    for (const NamedValue<Enum>& row : rows) {
      if (name == row.name) return row.value;
    }
    throw UnknownNameError(what, name, names());
  }

  /// The name of `value`; "?" for a value the table lacks (a table test sees to it that none
  /// is lacking).
  const char* name(Enum value) const {
    for (const NamedValue<Enum>& row : rows) {
      if (row.value == value) return row.name;
    }
    return "?";
  }

 private:
  bool isAlias(size_t row) const {
    for (size_t earlier = 0; earlier < row; ++earlier) {
      if (rows[earlier].value == rows[row].value) return true;
    }
    return false;
  }
};

}  // namespace pcv
