#include "xvfb_viewer_fixture.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <regex>

namespace pcv::test {

XvfbServer::XvfbServer() {
  const char* candidates[] = {"/usr/bin/Xvfb", "/usr/local/bin/Xvfb"};
  std::string binary;
  for (const char* path : candidates) {
    if (access(path, X_OK) == 0) binary = path;
  }
  if (binary.empty()) {
    whyNot_ = "Xvfb is not installed (apt-get install xvfb)";
    return;
  }
  int pipeFds[2];
  if (pipe(pipeFds) != 0) {
    whyNot_ = "pipe() failed";
    return;
  }
  pid_ = fork();
  if (pid_ == 0) {
    close(pipeFds[0]);
    const int devNull = open("/dev/null", O_WRONLY);
    dup2(devNull, STDOUT_FILENO);
    dup2(devNull, STDERR_FILENO);
    const std::string fd = std::to_string(pipeFds[1]);
    execl(binary.c_str(), "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1600x1000x24",
          "-nolisten", "tcp", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(pipeFds[1]);
  // Xvfb writes the display number once it accepts connections.
  std::string number;
  char c;
  while (read(pipeFds[0], &c, 1) == 1 && c != '\n') number += c;
  close(pipeFds[0]);
  if (number.empty()) {
    whyNot_ = "Xvfb did not start";
    return;
  }
  display_ = ":" + number;
}

XvfbServer::~XvfbServer() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }
}

XvfbServer* ViewerXvfb::server_ = nullptr;

void ViewerXvfb::SetUpTestSuite() {
  server_ = new XvfbServer();
}

void ViewerXvfb::TearDownTestSuite() {
  delete server_;
  server_ = nullptr;
}

void ViewerXvfb::SetUp() {
  if (server_->display().empty()) GTEST_SKIP() << server_->whyNot();
  dir_ = std::filesystem::temp_directory_path() /
         ("pcv_viewer_" + std::to_string(getpid()) + "_" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::create_directories(dir_);
}

void ViewerXvfb::TearDown() {
  if (!dir_.empty() && !HasFailure()) std::filesystem::remove_all(dir_);
}

int ViewerXvfb::runViewer(const std::string& script, std::string* output, const std::string& extra,
                          const std::string& environment) {
  const auto scriptPath = dir_ / "script.txt";
  std::ofstream(scriptPath) << script;
  // Bookmarks go to the test's folder unless the test says otherwise.
  const std::string config = "XDG_CONFIG_HOME=" + (dir_ / "config").string() + " ";
  // auto unless the test names a backend among its arguments.
  const std::string backend = extra.find("--backend ") == std::string::npos ? " --backend auto" : "";
  return runCommand(config + environment + " DISPLAY=" + server_->display() + " " +
                        pcvExecutable().string() + " view" + backend +
                        " --points 200000 --frame-dt 0.02 --frames 400"
                        " --script " +
                        scriptPath.string() + " " + extra,
                    output);
}

std::vector<double> ViewerXvfb::finalCamera(const std::string& output) {
  const std::regex pattern(
      R"(camera eye \(([-0-9.]+), ([-0-9.]+), ([-0-9.]+)\) yaw ([-0-9.]+) pitch ([-0-9.]+))");
  std::smatch match;
  if (!std::regex_search(output, match, pattern)) return {};
  std::vector<double> values;
  for (size_t i = 1; i < match.size(); ++i) values.push_back(std::stod(match[i]));
  return values;
}

std::string sharedFile(const std::string& name) {
  const std::filesystem::path file = testDataDir() / name;
  return std::filesystem::exists(file) ? file.string() : std::string();
}

}  // namespace pcv::test
