/// @brief `pcv rendr f.las`: a first word that is neither a command nor a file is a mistyped
/// command, answered with the closest command's name rather than handed to the viewer as a file.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace pcv::app {

/// Edits (insertions, deletions, substitutions, swaps of neighbours) that turn `from` into `to`.
size_t editDistance(const std::string& from, const std::string& to);

/// The name of `names` closest to `word`, when a typo away from it (at most 2 edits, 1 for
/// words of up to 4 letters); none otherwise.
std::optional<std::string> closestName(const std::string& word,
                                       const std::vector<std::string>& names);

/// True when `word`, pcv's first argument, can only be a command: not an option, not an existing
/// file or folder, not a URL, and with neither a dot nor a slash, which file names have.
bool looksLikeCommand(const std::string& word);

/// "unknown command 'rendr', did you mean 'render'?" or, with no close name, the list of them.
std::string unknownCommandMessage(const std::string& word, const std::vector<std::string>& names);

}  // namespace pcv::app
