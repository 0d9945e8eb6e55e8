// The viewer end to end in a virtual X display (Xvfb with Mesa; the GPU draws where there is one):
// scripted input, images read back from the framebuffer. Skipped, with the reason, where Xvfb is
// missing.
#include <filesystem>
#include <regex>

#include "json_report.hpp"
#include "pcv/io/png_writer.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

using test::sharedFile;
using test::ViewerXvfb;

TEST_F(ViewerXvfb, CylindersAreVisibleInTheWindow) {
  std::string output;
  ASSERT_EQ(runViewer("0.1 window_shot " + path("window.png") + "\n0.1 screenshot " +
                          path("scene.png") + "\n0.2 quit\n",
                      &output),
            0)
      << output;
  const Image window = readPng(path("window.png"));
  const Image scene = readPng(path("scene.png"));
  EXPECT_EQ(window.width, 1280);
  EXPECT_EQ(window.height, 720);
  // The blit to the window is 1:1 here, so the window shows exactly the rendered scene.
  EXPECT_EQ(test::countDifferentPixels(window, scene), 0u);
  EXPECT_GT(test::countLitPixels(window, kOpaqueBlack), 20000u);
  // With a GPU the CUDA backend draws; without one the viewer says why it uses the CPU.
  std::string whyNotCuda;
  if (cudaAvailable(&whyNotCuda)) {
    EXPECT_NE(output.find("pcv: cuda backend"), std::string::npos) << output;
    if (output.find("Mesa") != std::string::npos) {
      // CUDA cannot register Mesa's GL objects: the fallback chain ends at the host upload, and
      // says why at each step.
      EXPECT_NE(output.find("interop path 'surface' unavailable"), std::string::npos) << output;
      EXPECT_NE(output.find("interop path 'pbo' unavailable"), std::string::npos) << output;
      EXPECT_NE(output.find("frames reached GL by the host path"), std::string::npos) << output;
    }
  } else {
    EXPECT_NE(output.find(whyNotCuda + "; using the CPU backend"), std::string::npos) << output;
  }
}

TEST_F(ViewerXvfb, AnEglContextDrawsTheWindowToo) {
  // --gl-context egl: the GPU driver's GL on an X server without its GLX. Where CUDA can share
  // that context's objects the frame goes by the surface or PBO path, else by the host upload.
  std::string output;
  const int status = runViewer("0.1 window_shot " + path("window.png") + "\n0.2 quit\n", &output,
                               "--gl-context egl");
  if (status != 0 && output.find("Failed to get EGL display") != std::string::npos) {
    // NVIDIA's EGL, for one, has no X11 display on an X server without NVIDIA's driver.
    GTEST_SKIP() << "no EGL display on this X server: " << output;
  }
  ASSERT_EQ(status, 0) << output;
  EXPECT_GT(test::countLitPixels(readPng(path("window.png")), kOpaqueBlack), 20000u) << output;
  EXPECT_NE(output.find("frames reached GL by the "), std::string::npos) << output;
  std::printf("%s", output.substr(0, output.find('\n') + 1).c_str());  // the GL it got
  std::smatch path;
  if (std::regex_search(output, path, std::regex("frames reached GL by the [^\n]+"))) {
    std::printf("%s\n", path[0].str().c_str());
  }
}

TEST_F(ViewerXvfb, HoldingWForHalfASecondMovesOnePointFiveUnitsForward) {
  std::string output;
  ASSERT_EQ(runViewer("0.1 screenshot " + path("before.png") +
                          "\n0.1 key_down W\n0.6 key_up W\n0.7 screenshot " + path("after.png") +
                          "\n0.8 quit\n",
                      &output),
            0)
      << output;
  const std::vector<double> camera = finalCamera(output);
  ASSERT_EQ(camera.size(), 5u) << output;
  EXPECT_NEAR(camera[0], -1.5, 0.05);
  EXPECT_NEAR(camera[1], 0.0, 1e-6);
  EXPECT_NEAR(camera[2], 0.0, 1e-6);
  const Image before = readPng(path("before.png"));
  const Image after = readPng(path("after.png"));
  EXPECT_GT(test::countDifferentPixels(before, after), 10000u);
  // Closer: the cylinders cover more of the image.
  EXPECT_GT(test::countLitPixels(after, kOpaqueBlack), test::countLitPixels(before, kOpaqueBlack));
}

TEST_F(ViewerXvfb, EscapeTogglesMouselook) {
  std::string output;
  ASSERT_EQ(runViewer("0.1 key_press Escape\n0.2 mouse_move 100 100\n0.3 mouse_move 172 100\n"
                      "0.4 key_press Escape\n0.5 mouse_move 400 300\n0.6 mouse_move 10 10\n"
                      "0.7 quit\n",
                      &output, "--report " + path("report.json")),
            0)
      << output;
  const nlohmann::json report = test::readJsonReport(path("report.json"));
  // No tool has anything to cancel: the seed's toggle, on and off.
  EXPECT_EQ(report.value("escapes", nlohmann::json::array()),
            nlohmann::json::parse(R"([{"mouselook": true}, {"mouselook": false}])"))
      << output;
  ASSERT_TRUE(report.contains("camera")) << output;
  // Only the 72 px moved while looking count: 3 radians per 720 px window height.
  EXPECT_NEAR(report["camera"]["yaw"].get<double>(), -0.3, 1e-3);
}

TEST_F(ViewerXvfb, ResizeKeepsRenderingAtTheNewSize) {
  std::string output;
  ASSERT_EQ(runViewer("0.1 resize 640 400\n0.5 screenshot " + path("small.png") +
                          "\n0.5 window_shot " + path("window.png") + "\n0.6 quit\n",
                      &output),
            0)
      << output;
  EXPECT_NE(output.find("rendering at 640x400"), std::string::npos) << output;
  const Image small = readPng(path("small.png"));
  EXPECT_EQ(small.width, 640);
  EXPECT_EQ(small.height, 400);
  EXPECT_GT(test::countLitPixels(small, kOpaqueBlack), 5000u);
  const Image window = readPng(path("window.png"));
  EXPECT_EQ(test::countDifferentPixels(window, small), 0u);
}

TEST_F(ViewerXvfb, F12SavesAScreenshotAndSaysWhere) {
  std::string output;
  ASSERT_EQ(
      runViewer("0.1 key_press F12\n0.2 quit\n", &output, "--screenshot-dir " + dir_.string()), 0)
      << output;
  const std::regex saved(R"(saved screenshot 1280x720 to (\S+\.png))");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(output, match, saved)) << output;
  EXPECT_EQ(std::filesystem::path(match[1].str()).parent_path(), std::filesystem::absolute(dir_));
  EXPECT_EQ(readPng(match[1].str()).width, 1280);
}

TEST_F(ViewerXvfb, OrbitDragTurnsAroundTheTargetAndDoubleClickFocuses) {
  std::string output;
  ASSERT_EQ(runViewer("0.1 mode orbit\n0.1 screenshot " + path("before.png") +
                          "\n0.2 mouse_move 640 360\n0.2 mouse_down left\n0.3 mouse_move 700 360\n"
                          "0.4 mouse_up left\n0.5 screenshot " +
                          path("after.png") + "\n0.6 double_click 640 360\n0.7 quit\n",
                      &output),
            0)
      << output;
  EXPECT_NE(output.find("orbit mode"), std::string::npos) << output;
  const std::vector<double> camera = finalCamera(output);
  ASSERT_EQ(camera.size(), 5u) << output;
  EXPECT_GT(test::countDifferentPixels(readPng(path("before.png")), readPng(path("after.png"))),
            10000u);
  // Either a point was under the centre and the camera turned to it, or none was; both say so.
  EXPECT_TRUE(output.find("focus on") != std::string::npos ||
              output.find("no point under the cursor") != std::string::npos)
      << output;
}

TEST_F(ViewerXvfb, BadScriptIsOneClearError) {
  std::string output;
  EXPECT_EQ(runViewer("0.1 key_down Hyper\n", &output), 1);
  EXPECT_NE(output.find("script.txt:1"), std::string::npos) << output;
}

TEST_F(ViewerXvfb, LasFileIsFramedAndColorModesSwitchWithoutLoss) {
  const std::string las = sharedFile("las/autzen_trim.las");
  if (las.empty()) GTEST_SKIP() << "shared test data not found";
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 screenshot " + path("rgb.png") +
                          "\n0.2 color classification\n0.3 screenshot " + path("class.png") +
                          "\n0.4 color attribute intensity\n0.5 screenshot " +
                          path("intensity.png") + "\n0.6 color rgb\n0.7 screenshot " +
                          path("rgb-again.png") + "\n0.8 double_click 640 250\n0.9 quit\n",
                      &output, las),
            0)
      << output;
  EXPECT_NE(output.find("loaded " + las + ": 110000 points"), std::string::npos) << output;
  // Framed: the Autzen tile (UTM, ~1.2 km wide) is in view, not off at the world origin.
  EXPECT_NE(output.find("framed 1177.460 x 562.700"), std::string::npos) << output;
  const Image rgb = readPng(path("rgb.png"));
  const uint64_t lit = test::countLitPixels(rgb, kOpaqueBlack);
  EXPECT_GT(lit, 20000u);
  EXPECT_LT(lit, uint64_t(rgb.width) * rgb.height / 2) << "framed, not filling the window";
  const Image byClass = readPng(path("class.png"));
  EXPECT_GT(test::countDifferentPixels(rgb, byClass), 10000u);
  EXPECT_GT(test::countDifferentPixels(byClass, readPng(path("intensity.png"))), 10000u);
  // Back to the file's colours: the host copy kept them, so the image is the same.
  EXPECT_EQ(test::countDifferentPixels(rgb, readPng(path("rgb-again.png"))), 0u);
  // The picked point is reported in world coordinates (UTM), not as a float offset. (The click
  // is above the window's centre: framed by its bounds' corners, the tile's empty near corner
  // is there.)
  const std::regex focus(R"(focus on \((63[5-7]\d{3}\.\d+), (84[89]\d{3}\.\d+), )");
  EXPECT_TRUE(std::regex_search(output, focus)) << output;
}

TEST_F(ViewerXvfb, MalformedFileShowsItsErrorAndTheViewerKeepsRendering) {
  const std::string good = sharedFile("las/autzen_trim.las");
  const std::string bad = sharedFile("las/1.2-with-color-clipped.las");
  if (good.empty() || bad.empty()) GTEST_SKIP() << "shared test data not found";
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 screenshot " + path("before.png") + "\n0.2 open " + bad +
                          "\n0.2 wait_load\n0.3 screenshot " + path("after.png") + "\n0.4 quit\n",
                      &output, "--strict --report " + path("report.json") + " " + good + " " + bad),
            0)
      << output;
  // Read strictly, the file cut short is refused (by default its whole records are read).
  // Given on the command line and opened at run time: both times the message names the file,
  // the byte and what was expected, and the scene keeps the good file.
  const std::vector<std::string> errors =
      test::readJsonReport(path("report.json")).value("errors", std::vector<std::string>{});
  ASSERT_EQ(errors.size(), 2u) << output;
  EXPECT_EQ(errors[0], errors[1]);
  EXPECT_NE(errors[0].find(bad + ": byte 229"), std::string::npos) << errors[0];
  const Image before = readPng(path("before.png"));
  EXPECT_GT(test::countLitPixels(before, kOpaqueBlack), 20000u);
  EXPECT_EQ(test::countDifferentPixels(before, readPng(path("after.png"))), 0u);
}

TEST_F(ViewerXvfb, AFileAddedBesideAStreamIsDrawnWithIt) {
  const std::string copc = sharedFile("laz-corpus/1.2-with-color.copc.laz");
  const std::string las = sharedFile("las/autzen_trim.las");
  if (copc.empty() || las.empty()) GTEST_SKIP() << "shared test data not found";
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 screenshot " + path("stream.png") + "\n0.2 add " + las +
                          "\n0.2 wait_load\n0.3 screenshot " + path("both.png") +
                          "\n0.4 close_stream\n0.5 screenshot " + path("file.png") + "\n0.6 quit\n",
                      &output, copc),
            0)
      << output;
  EXPECT_NE(output.find("streaming " + copc), std::string::npos) << output;
  EXPECT_NE(output.find("loaded " + las + ": 110000 points"), std::string::npos) << output;
  EXPECT_EQ(output.find("error:"), std::string::npos) << output;
  // Both Autzen files, one streamed (its 1 065 points) and one read whole, in one frame: the
  // added tile's 110 000 points light many more pixels.
  const uint64_t streamLit = test::countLitPixels(readPng(path("stream.png")), kOpaqueBlack);
  const uint64_t bothLit = test::countLitPixels(readPng(path("both.png")), kOpaqueBlack);
  EXPECT_GT(streamLit, 500u);
  EXPECT_GT(bothLit, streamLit + 10000u);
  // The stream closed: the tile stays, in the same view, without the streamed points.
  const Image both = readPng(path("both.png"));
  const Image file = readPng(path("file.png"));
  EXPECT_GT(test::countLitPixels(file, kOpaqueBlack), 10000u);
  EXPECT_GT(test::countDifferentPixels(both, file), 100u);
}

TEST_F(ViewerXvfb, TheVulkanBackendShowsTheCpuBackendsPixelsInTheWindow) {
  PCV_REQUIRE_VULKAN();
  // The same script and scene on both backends, and on Vulkan by both paths to GL (memory GL
  // imports, and the host copy): the window shows the same pixels. Under Xvfb GL is Mesa's, so
  // with Mesa's Vulkan device (lavapipe) the memory path must work; with another vendor's
  // device GL may refuse its memory, and the record says why it fell back.
  struct Run {
    const char* arguments;
    const char* backend;
    const char* interop;
  };
  const Run runs[] = {{"--backend cpu", "cpu", "host"},
                      {"--backend vulkan", "vulkan", "memory"},
                      {"--backend vulkan --interop host", "vulkan", "host"}};
  Image reference;
  for (const Run& run : runs) {
    std::string output;
    const std::string shot = path(std::string(run.interop) + run.backend + ".png");
    const std::string report = path(std::string(run.interop) + run.backend + ".json");
    ASSERT_EQ(runViewer("0.1 window_shot " + shot + "\n0.2 resize 640 360\n0.3 window_shot " +
                            shot + ".small.png\n0.4 quit\n",
                        &output, std::string(run.arguments) + " --report " + report),
              0)
        << output;
    const nlohmann::json record = test::readJsonReport(report);
    EXPECT_EQ(record.value("backend", ""), run.backend) << record;
    EXPECT_FALSE(record.value("device", "").empty()) << record;
    const std::string interop = record.value("interop", "");
    const bool mesaDevice = record.value("device", "").find("software") != std::string::npos;
    if (std::string(run.interop) == "memory" && interop == "host" && !mesaDevice) {
      EXPECT_FALSE(record.value("interopFallback", "").empty()) << record;
      std::printf("[ memory ] fell back to the host path: %s\n",
                  record.value("interopFallback", "").c_str());
    } else {
      EXPECT_EQ(interop, run.interop) << record << output;
    }
    const Image window = readPng(shot);
    EXPECT_GT(test::countLitPixels(window, kOpaqueBlack), 20000u);
    EXPECT_GT(test::countLitPixels(readPng(shot + ".small.png"), kOpaqueBlack), 5000u);
    if (reference.pixels.empty()) {
      reference = window;
    } else {
      EXPECT_EQ(test::countDifferentPixels(window, reference), 0u) << run.arguments;
    }
  }
}

}  // namespace
}  // namespace pcv
