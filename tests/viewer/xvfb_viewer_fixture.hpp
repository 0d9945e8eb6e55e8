/// @brief The fixture of the viewer's end-to-end tests: an Xvfb server (Mesa llvmpipe, no GPU)
/// shared by a test suite, a folder per test, and the viewer run on the cpu backend with a
/// script. Tests skip, with the reason, where Xvfb is missing.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace pcv::test {

/// An Xvfb server on a display number it picks itself (-displayfd), stopped when destroyed.
class XvfbServer {
 public:
  XvfbServer();
  ~XvfbServer();
  XvfbServer(const XvfbServer&) = delete;
  XvfbServer& operator=(const XvfbServer&) = delete;
  const std::string& display() const { return display_; }
  const std::string& whyNot() const { return whyNot_; }

 private:
  pid_t pid_ = -1;
  std::string display_;
  std::string whyNot_;
};

class ViewerXvfb : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  void SetUp() override;
  void TearDown() override;

  /// Runs the viewer on the cpu backend (what Mesa allows) with a script; 50 frames per second
  /// of simulated time, so motion is exact whatever the real frame rate. `extra` are more
  /// arguments (files, flags); `environment` is prefixed to the command ("XDG_CONFIG_HOME=...").
  int runViewer(const std::string& script, std::string* output, const std::string& extra = "",
                const std::string& environment = "");
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  /// The final camera the viewer prints: eye x, y, z, yaw, pitch.
  static std::vector<double> finalCamera(const std::string& output);

  static XvfbServer* server_;
  std::filesystem::path dir_;
};

/// A file of the shared test data, or empty (the test skips) where that folder is absent.
std::string sharedFile(const std::string& name);

}  // namespace pcv::test
