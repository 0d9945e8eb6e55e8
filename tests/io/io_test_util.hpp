/// @brief Helpers for the loader tests: a temp dir that cleans up, and file writers.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "pcv/io/point_cloud_reader.hpp"
#include "synthetic_point_files.hpp"

namespace pcv::test {

/// A fresh directory under the system temp dir, removed with its files on destruction.
class TempDir {
 public:
  TempDir() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("pcv-io-test-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::filesystem::path file(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

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
