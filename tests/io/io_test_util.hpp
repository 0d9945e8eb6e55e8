/// @brief Helpers for the loader tests: a temp dir that cleans up (temp_dir.hpp), and file
/// writers.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "pcv/io/point_cloud_reader.hpp"
#include "synthetic_point_files.hpp"
#include "temp_dir.hpp"

namespace pcv::test {

/// `count` bytes from a generator seeded with `seed`: a file's contents that repeat nothing.
inline std::vector<uint8_t> randomBytes(size_t count, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<uint8_t> bytes(count);
  for (uint8_t& byte : bytes) byte = uint8_t(random());
  return bytes;
}

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
