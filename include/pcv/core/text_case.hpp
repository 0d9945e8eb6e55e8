/// @brief Case-insensitive text helpers for names users type: file suffixes (".LAZ"), option
/// values ("Cuda"), HTTP header names. ASCII only, as those names are.
#pragma once

#include <string>
#include <string_view>

namespace pcv {

/// `text` with A-Z turned into a-z; every other byte as it was.
std::string lowerCase(std::string_view text);

/// Whether `text` ends in `suffix`, ignoring ASCII case: "TILE.LAZ" ends in ".laz".
bool endsWithIgnoringCase(std::string_view text, std::string_view suffix);

/// Whether `text` begins with `prefix`, ignoring ASCII case: "HTTPS://..." begins with "https://".
bool startsWithIgnoringCase(std::string_view text, std::string_view prefix);

/// Whether `a` and `b` are equal ignoring ASCII case.
bool equalsIgnoringCase(std::string_view a, std::string_view b);

}  // namespace pcv
