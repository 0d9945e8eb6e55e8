// One mistake, one answer: a bad value of an option the library parses (an enum's name, an
// image size, a camera) is an option error of pcv render (a usage mistake) with the library's
// own message, the one pcv.render gives for the same value; every name the library knows is
// accepted, and the `pcv render` command of a view (the viewer's Copy view) reads back.
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "options/render_arguments.hpp"
#include "pcv/core/camera_options.hpp"
#include "pcv/core/color_map.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/image_size.hpp"
#include "pcv/raster/backend_choice.hpp"
#include "pcv/raster/quality_settings.hpp"
#include "pcv/raster/raster_method.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

class OptionValuesCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pcv_option_values_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  /// `pcv render` of a few cylinder points into a small image, with `arguments` after it; the
  /// backend is the CPU's unless the arguments name one.
  int render(const std::string& arguments, std::string* output) const {
    std::string command = test::pcvExecutable().string() + " render --points 2000 --out " +
                          (dir_ / "out.png").string() + " ";
    if (arguments.find("--backend") == std::string::npos) command += "--backend cpu ";
    if (arguments.find("--size") == std::string::npos) command += "--size 64x48 ";
    return test::runCommand(command + arguments, output);
  }
  std::filesystem::path dir_;
};

/// What the library says when `call` refuses its value.
std::string libraryMessage(const std::function<void()>& call) {
  try {
    call();
  } catch (const InputError& error) {
    return error.what();
  }
  ADD_FAILURE() << "the library accepted the value";
  return "(accepted)";
}

TEST_F(OptionValuesCli, BadValuesAreOptionErrorsWithTheLibrarysMessage) {
  const std::vector<std::pair<std::string, std::function<void()>>> cases = {
      {"--edl sometimes", [] { parseEdlMode("sometimes"); }},
      {"--point-shape star", [] { parsePointShape("star"); }},
      {"--up x", [] { parseUpAxis("x"); }},
      {"--backend metal", [] { parseBackend("metal"); }},
      {"--method fastest", [] { parseMethod("fastest"); }},
      {"--color rainbow", [] { parseColorMode("rainbow"); }},
      {"--color-map jet", [] { parseColorMap("jet"); }},
      {"--size 0x10", [] { parseImageSize("0x10"); }},
      {"--size 640by480", [] { parseImageSize("640by480"); }},
      {"--near 2 --far 1", [] { cameraFromOptions({.nearPlane = 2.0f, .farPlane = 1.0f}); }},
      {"--ortho-width 10", [] { cameraFromOptions({.orthoWidth = 10.0}); }},
  };
  // The status of an option error CLI11 finds by itself (a name outside a fixed list): 2, the
  // shell's "misused", where pcv gives every option error one status; neither success nor the
  // 1 of bad data.
  const int optionErrorStatus = render("--ortho sideways", nullptr);
  EXPECT_NE(optionErrorStatus, 0);
  EXPECT_NE(optionErrorStatus, 1);
  for (const auto& [arguments, call] : cases) {
    std::string output;
    EXPECT_EQ(render(arguments, &output), optionErrorStatus) << arguments << ": " << output;
    const std::string message = libraryMessage(call);
    EXPECT_NE(output.find(message), std::string::npos)
        << arguments << ": '" << message << "' not in: " << output;
  }
}

TEST_F(OptionValuesCli, EveryNameTheLibraryKnowsIsAccepted) {
  std::vector<std::string> arguments;
  for (const std::string& name : edlModeNames()) arguments.push_back("--edl " + name);
  for (const std::string& name : pointShapeNames()) arguments.push_back("--point-shape " + name);
  for (const std::string& name : upAxisNames()) arguments.push_back("--up " + name);
  for (const std::string& name : colorMapTable().names()) {
    arguments.push_back("--color-map " + name);
  }
  arguments.push_back("--color-map gray");  // the alias
  for (const std::string& argument : arguments) {
    std::string output;
    EXPECT_EQ(render(argument, &output), 0) << argument << ": " << output;
  }
}

TEST_F(OptionValuesCli, TheCommandOfAViewReadsBackWithEveryName) {
  for (const EdlMode edl : {EdlMode::Off, EdlMode::On, EdlMode::Auto}) {
    for (const PointShape shape : {PointShape::Square, PointShape::Round}) {
      app::ViewDescription view{.demoPoints = 2000, .demoSeed = 1, .widthPx = 64, .heightPx = 48};
      view.camera.upAxis = edl == EdlMode::On ? UpAxis::Y : UpAxis::Z;
      view.settings.quality.edl = edl;
      view.settings.quality.shape = shape;
      view.settings.quality.pointSizePx = 3;
      std::string command = app::renderCommand(view);
      // "pcv render ... --out pcv-view.png": this pcv, and the image into the test's folder.
      command.replace(0, 3, test::pcvExecutable().string());
      command.replace(command.rfind("pcv-view.png"), 12, (dir_ / "view.png").string());
      std::string output;
      EXPECT_EQ(test::runCommand(command + " --backend cpu", &output), 0)
          << command << ": " << output;
    }
  }
}

}  // namespace
}  // namespace pcv
