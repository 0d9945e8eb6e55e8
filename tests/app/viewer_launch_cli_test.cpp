// The headless pcv hands `pcv`, `pcv view ...`, `pcv FILE` and `pcv [viewer options]` to
// pcv-view beside it, and says clearly, with exit status 127, when pcv-view is not there; its own
// commands run either way.
#include <unistd.h>

#include <filesystem>

#include "test_support.hpp"

namespace pcv {
namespace {

bool viewerBuilt() {
  return std::filesystem::exists(test::pcvExecutable().parent_path() / "pcv-view");
}

TEST(ViewerLaunch, ViewAndViewerOptionsReachTheViewer) {
  if (!viewerBuilt()) GTEST_SKIP() << "pcv was built without the viewer";
  const std::string pcv = test::pcvExecutable().string();
  // --help of the view command: only pcv-view knows --script and --frame-dt.
  for (const std::string& arguments : {" view --help", " --frames 1 --help", " a.las --help"}) {
    std::string text;
    ASSERT_EQ(test::runCommand(pcv + arguments, &text), 0) << arguments << "\n" << text;
    EXPECT_NE(text.find("--script"), std::string::npos) << arguments << "\n" << text;
    EXPECT_NE(text.find("--frame-dt"), std::string::npos) << arguments << "\n" << text;
  }
  // The headless commands' help has none of them.
  std::string text;
  ASSERT_EQ(test::runCommand(pcv + " render --help", &text), 0) << text;
  EXPECT_EQ(text.find("--frame-dt"), std::string::npos) << text;
}

TEST(ViewerLaunch, WithoutTheViewerTheWindowIsRefusedAndTheCommandsRun) {
  // A copy of pcv alone in a folder: no pcv-view beside it.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pcv_no_viewer_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path pcv = dir / "pcv";
  std::filesystem::copy_file(test::pcvExecutable(), pcv,
                             std::filesystem::copy_options::overwrite_existing);
  for (const std::string& arguments :
       {"", " view", " view --frames 1", " cloud.las", " --size 64x48"}) {
    std::string text;
    EXPECT_EQ(test::runCommand(pcv.string() + arguments, &text), 127) << arguments << "\n" << text;
  }
  std::string text;
  EXPECT_EQ(
      test::runCommand(pcv.string() + " render --backend cpu --points 100 --size 16x16 --out " +
                           (dir / "a.png").string(),
                       &text),
      0)
      << text;
  EXPECT_TRUE(std::filesystem::exists(dir / "a.png"));
  EXPECT_EQ(test::runCommand(pcv.string() + " --help", &text), 0) << text;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pcv
