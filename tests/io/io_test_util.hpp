/// @brief Helpers for the loader tests: a temp dir that cleans up (temp_dir.hpp), and file
/// writers.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "pcv/io/point_cloud_reader.hpp"
#include "synthetic_point_files.hpp"
#include "temp_dir.hpp"

namespace pcv::test {

/// The InputError message of reading `path`, or a failure when it loads or throws otherwise.
inline std::string inputErrorOf(const std::filesystem::path& path) {
  try {
    readPointCloud(path);
  } catch (const InputError& error) {
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << path << ": threw something other than InputError: " << error.what();
    return {};
  }
  ADD_FAILURE() << path << ": loaded, expected an InputError";
  return {};
}

}  // namespace pcv::test
