/// @brief A COPC cache folder of a test's own: PCV_CACHE_DIR set for the test, put back after.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include "temp_dir.hpp"

namespace pcv::test {

/// Points the COPC cache at a folder of its own for one test.
class CacheFolder {
 public:
  CacheFolder() {
    if (const char* old = std::getenv("PCV_CACHE_DIR")) old_ = old;
    ::setenv("PCV_CACHE_DIR", dir_.file("cache").c_str(), 1);
  }
  ~CacheFolder() {
    if (old_.empty()) {
      ::unsetenv("PCV_CACHE_DIR");
    } else {
      ::setenv("PCV_CACHE_DIR", old_.c_str(), 1);
    }
  }
  CacheFolder(const CacheFolder&) = delete;
  CacheFolder& operator=(const CacheFolder&) = delete;
  std::filesystem::path path() const { return dir_.file("cache"); }

 private:
  TempDir dir_;
  std::string old_;
};

}  // namespace pcv::test
