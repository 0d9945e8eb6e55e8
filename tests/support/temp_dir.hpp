/// @brief A fresh folder per test, removed with its files at the end, for tests that write.
#pragma once

#include <filesystem>
#include <random>
#include <string>

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
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path file(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace pcv::test
