/// @brief Checks that an output file can be created before a command reads its inputs, so that a
/// typo in --out fails in a moment rather than after minutes of reading, naming the path as typed.
#pragma once

#include <string>

namespace pcv::app {

/// Throws InputError naming `path` as the user typed it and why it cannot be written: its folder
/// does not exist or is not a folder, permission is denied, or `path` is a folder itself.
void requireWritableOutput(const std::string& path);

}  // namespace pcv::app
