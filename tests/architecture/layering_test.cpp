// The layers of pcv (tests/architecture/layer_map.hpp) checked on the source tree: a file that
// includes a header of a layer above it, or a system header its layer may not use, fails here
// with the file and the line; so does a folder that belongs to no layer. Each rule is also run on
// a planted violation, so that a check that sees nothing cannot pass.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "layer_map.hpp"

namespace pcv::architecture {
namespace {

std::string lines(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += item + "\n";
  return text;
}

/// A scratch source tree, removed at the end of the test.
class PlantedTree : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("pcv_layering_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  /// Writes `text` to `relative` under the tree and returns its path.
  std::filesystem::path plant(const std::string& relative, const std::string& text) {
    const std::filesystem::path file = root_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }
  std::filesystem::path root_;
};

TEST(Layering, NoLayerIncludesWhatItMayNot) {
  const std::filesystem::path root = PCV_SOURCE_DIR;
  std::vector<std::string> found;
  uint64_t appFiles = 0;
  const auto files = layerFiles(root);
  for (const auto& [file, layer] : files) {
    if (layer == "options" || layer == "cli" || layer == "main" || layer.starts_with("viewer")) {
      ++appFiles;
    }
    for (std::string& v : includeViolations(file, layer)) found.push_back(std::move(v));
  }
  EXPECT_GT(files.size(), 200u) << "the layers' folders were not found under " << root;
  EXPECT_GT(appFiles, 50u) << "app/ was not found under " << root;
  EXPECT_TRUE(found.empty()) << "includes a layer may not use:\n" << lines(found);
}

TEST(Layering, TheCodeLayoutPageNamesEveryLayer) {
  std::ifstream page(std::filesystem::path(PCV_SOURCE_DIR) / "docs" / "code-layout.md");
  ASSERT_TRUE(page) << "docs/code-layout.md is missing";
  const std::string text(std::istreambuf_iterator<char>(page), {});
  const std::vector<std::string> missing = foldersMissingFromPage(text);
  EXPECT_TRUE(missing.empty()) << "folders docs/code-layout.md does not name:\n"
                               << lines(missing);
}

TEST(Layering, AFolderLeftOutOfTheCodeLayoutPageIsSeen) {
  const std::vector<std::string> missing =
      foldersMissingFromPage("| `include/pcv/core`, `src/core` | core |\n");
  EXPECT_EQ(std::count(missing.begin(), missing.end(), "src/core"), 0);
  EXPECT_EQ(std::count(missing.begin(), missing.end(), "src/session"), 1);
  EXPECT_EQ(std::count(missing.begin(), missing.end(), "app/viewer"), 1);
}

TEST(Layering, EveryFolderBelongsToALayer) {
  const std::vector<std::string> unknown = unknownFolders(PCV_SOURCE_DIR);
  EXPECT_TRUE(unknown.empty()) << "folders of no layer (add them to tests/architecture/"
                                  "layer_map.cpp):\n"
                               << lines(unknown);
}

TEST_F(PlantedTree, ProjectIncludeFromALayerAboveIsSeen) {
  const auto raster = plant("src/raster/probe.hpp", "#include \"pcv/demo/cylinders.hpp\"\n");
  EXPECT_EQ(includeViolations(raster, "raster").size(), 1u);
  EXPECT_TRUE(includeViolations(raster, "demo").empty());
  // The library layers never include the session above them; app does.
  const auto io = plant("src/io/probe.cpp", "#include \"pcv/session/scene.hpp\"\n");
  EXPECT_EQ(includeViolations(io, "io").size(), 1u);
  EXPECT_TRUE(includeViolations(io, "cli").empty());
}

TEST_F(PlantedTree, HeadlessCommandsIncludingTheViewerAreSeen) {
  const auto cli = plant("app/cli/probe.cpp", "#include \"viewer/viewer.hpp\"\n");
  EXPECT_EQ(includeViolations(cli, "cli").size(), 1u);
  const auto main = plant("app/main.cpp", "#include \"viewer/view_command.hpp\"\n");
  EXPECT_EQ(includeViolations(main, "main").size(), 1u);
}

TEST_F(PlantedTree, PanelsIncludingAToolsFolderAreSeen) {
  const auto panel = plant("app/viewer/panels/probe.cpp",
                           "#include \"viewer/panels/panels.hpp\"\n"            // its own layer
                           "#include \"viewer/tools/tool_list.hpp\"\n"          // the plumbing
                           "#include \"viewer/tools/clip/clip_section.hpp\"\n"  // a tool's own
                           "#include \"viewer/tools/views/bookmarks.hpp\"\n");
  const std::vector<std::string> found = includeViolations(panel, "viewer_panels");
  ASSERT_EQ(found.size(), 2u) << lines(found);
  EXPECT_NE(found[0].find(":3:"), std::string::npos) << found[0];
  EXPECT_NE(found[1].find(":4:"), std::string::npos) << found[1];
  // The window plugs the tools in through the plumbing, never a tool's folder.
  const auto window = plant("app/viewer/probe.cpp",
                            "#include \"viewer/tools/standard_tools.hpp\"\n"
                            "#include \"viewer/tools/measure/measure_tool.hpp\"\n");
  EXPECT_EQ(includeViolations(window, "viewer").size(), 1u);
}

TEST_F(PlantedTree, ToolsIncludingThePanelsAreSeen) {
  const auto tool = plant("app/viewer/tools/clip/probe.cpp",
                          "#include \"viewer/tools/clip/clip_tool.hpp\"\n"  // its own folder
                          "#include \"viewer/tools/tool_host.hpp\"\n"       // the plumbing
                          "#include \"camera/camera_rig.hpp\"\n"      // the rig, below
                          "#include \"viewer/panels/panels.hpp\"\n");
  const std::vector<std::string> found = includeViolations(tool, "viewer_tools");
  ASSERT_EQ(found.size(), 1u) << lines(found);
  EXPECT_NE(found[0].find(":4:"), std::string::npos) << found[0];
  const auto plumbing =
      plant("app/viewer/tools/probe.cpp", "#include \"viewer/panels/panels.hpp\"\n");
  EXPECT_EQ(includeViolations(plumbing, "viewer_tools").size(), 1u);
}

TEST_F(PlantedTree, ToolsIncludingTheWindowAreSeen) {
  // The window includes the tools' plumbing: a tool including the window's files back would
  // close a folder cycle. What both drive the view with lies below them, in viewer/input/ and
  // camera/.
  const auto tool = plant("app/viewer/tools/views/probe.cpp",
                          "#include \"camera/camera_rig.hpp\"\n"
                          "#include \"viewer/input/input_script.hpp\"\n"
                          "#include \"viewer/viewer_window.hpp\"\n");
  const std::vector<std::string> found = includeViolations(tool, "viewer_tools");
  ASSERT_EQ(found.size(), 1u) << lines(found);
  EXPECT_NE(found[0].find(":3:"), std::string::npos) << found[0];
  const auto plumbing =
      plant("app/viewer/tools/probe.cpp", "#include \"viewer/input_router.hpp\"\n");
  EXPECT_EQ(includeViolations(plumbing, "viewer_tools").size(), 1u);
  // The input includes none of the layers above it; the window and the panels use it.
  const auto input = plant("app/viewer/input/probe.cpp",
                           "#include \"camera/motion_keys.hpp\"\n"
                           "#include \"viewer/tools/tool_list.hpp\"\n"
                           "#include \"viewer/tools/clip/clip_tool.hpp\"\n"
                           "#include \"viewer/panels/panels.hpp\"\n"
                           "#include \"viewer/viewer_window.hpp\"\n");
  const std::vector<std::string> fromInput = includeViolations(input, "viewer_input");
  EXPECT_EQ(fromInput.size(), 4u) << lines(fromInput);
  const auto window = plant("app/viewer/probe.cpp", "#include \"camera/camera_rig.hpp\"\n");
  EXPECT_TRUE(includeViolations(window, "viewer").empty());
  const auto panel =
      plant("app/viewer/panels/probe.cpp", "#include \"viewer/input/input_script.hpp\"\n");
  EXPECT_TRUE(includeViolations(panel, "viewer_panels").empty());
}

TEST_F(PlantedTree, PrivateHeadersOfAnotherLayerAreAttributedToIt) {
  plant("src/io/laz/chunk_decoder.hpp", "#pragma once\n");
  plant("src/raster/own/stage.hpp", "#pragma once\n");
  // io_cuda decodes io's chunks on the GPU: io's private headers are io's, which it may use.
  const auto ioCuda = plant("src/io_cuda/probe.cu",
                            "#include \"laz/chunk_decoder.hpp\"\n"
                            "#include \"own/stage.hpp\"\n");
  const std::vector<std::string> found = includeViolations(ioCuda, "io_cuda");
  ASSERT_EQ(found.size(), 1u) << lines(found);
  EXPECT_NE(found[0].find("the raster layer"), std::string::npos) << found[0];
  // The renderer knows no file format, private or public.
  const auto raster = plant("src/raster/probe.cpp", "#include \"laz/chunk_decoder.hpp\"\n");
  EXPECT_EQ(includeViolations(raster, "raster").size(), 1u);
  // A layer's own private headers, from anywhere in its folder, are its own.
  const auto io = plant("src/io/copc/probe.cpp", "#include \"laz/chunk_decoder.hpp\"\n");
  EXPECT_TRUE(includeViolations(io, "io").empty());
}

TEST_F(PlantedTree, VideoWriterOutsideTheHeadlessSideIsSeen) {
  const auto viewer = plant("app/viewer/probe.cpp", "#include \"pcv/video/video_writer.hpp\"\n");
  EXPECT_EQ(includeViolations(viewer, "viewer").size(), 1u);
  EXPECT_TRUE(includeViolations(viewer, "cli").empty());
  const auto video = plant("src/video/probe.cpp", "#include \"pcv/raster/renderer.hpp\"\n");
  EXPECT_EQ(includeViolations(video, "video").size(), 1u);
}

TEST_F(PlantedTree, ViewerIncludingTheHeadlessCommandsIsSeen) {
  plant("app/viewer/own.hpp", "#pragma once\n");
  const auto viewer = plant("app/viewer/probe.cpp",
                            "#include \"own.hpp\"\n"                    // beside it: its own
                            "#include \"options/option_groups.hpp\"\n"  // shared: allowed
                            "#include \"option_groups.hpp\"\n"          // bare: a CLI header
                            "#include \"cli/render_command.hpp\"\n");   // a CLI command
  const std::vector<std::string> found = includeViolations(viewer, "viewer");
  ASSERT_EQ(found.size(), 2u) << lines(found);
  EXPECT_NE(found[0].find(":3:"), std::string::npos) << found[0];
  EXPECT_NE(found[1].find(":4:"), std::string::npos) << found[1];
}

TEST_F(PlantedTree, SharedOptionsIncludingAFrontEndAreSeen) {
  const auto options = plant("app/options/probe.cpp",
                             "#include \"options/run_report.hpp\"\n"  // its own layer
                             "#include \"pcv/session/scene.hpp\"\n"   // a library layer
                             "#include \"viewer/viewer.hpp\"\n"
                             "#include \"cli/render_command.hpp\"\n");
  const std::vector<std::string> found = includeViolations(options, "options");
  ASSERT_EQ(found.size(), 2u) << lines(found);
  EXPECT_NE(found[0].find(":3:"), std::string::npos) << found[0];
  EXPECT_NE(found[1].find(":4:"), std::string::npos) << found[1];
  const auto cli = plant("app/cli/probe.cpp", "#include \"options/run_report.hpp\"\n");
  EXPECT_TRUE(includeViolations(cli, "cli").empty());
}

TEST_F(PlantedTree, SystemHeadersOutsideTheirLayersAreSeen) {
  struct Case {
    const char* header;
    const char* forbiddenIn;
    const char* allowedIn;
  };
  for (const Case& c :
       {Case{"epoxy/gl.h", "raster", "gl"}, Case{"GLFW/glfw3.h", "cli", "viewer"},
        Case{"imgui.h", "main", "viewer"}, Case{"EGL/egl.h", "stream", "gl"},
        Case{"cuda_runtime.h", "io", "raster"}, Case{"cub/cub.cuh", "stream", "cuda"},
        Case{"thrust/sort.h", "core", "octree"}, Case{"cuda_gl_interop.h", "session", "gl"},
        Case{"CLI/CLI.hpp", "io", "cli"}, Case{"CLI/CLI.hpp", "session", "main"},
        Case{"CLI/CLI.hpp", "gl", "options"}, Case{"mpi.h", "viewer", "cli"},
        Case{"mpi.h", "session", "cli"}, Case{"mpi.h", "options", "cli"},
        Case{"libavcodec/avcodec.h", "cli", "video"},
        Case{"libswscale/swscale.h", "core", "video"}}) {
    SCOPED_TRACE(c.header);
    const auto file = plant("probe.cpp", std::string("#include <") + c.header + ">\n");
    EXPECT_EQ(includeViolations(file, c.forbiddenIn).size(), 1u) << c.forbiddenIn;
    EXPECT_TRUE(includeViolations(file, c.allowedIn).empty()) << c.allowedIn;
  }
  // Headers that merely look alike are not caught: GLM is maths, <cmath> is not CUDA.
  const auto alike = plant("alike.cpp", "#include <glm/glm.hpp>\n#include <cmath>\n");
  EXPECT_TRUE(includeViolations(alike, "core").empty());
}

TEST_F(PlantedTree, UnknownFoldersAreSeen) {
  plant("include/pcv/core/a.hpp", "");
  plant("src/core/a.cpp", "");
  plant("app/viewer/a.cpp", "");
  plant("app/viewer/input/a.cpp", "");
  plant("app/viewer/tools/clip/a.cpp", "");
  plant("app/main.cpp", "");
  EXPECT_TRUE(unknownFolders(root_).empty()) << lines(unknownFolders(root_));
  plant("include/pcv/widgets/a.hpp", "");
  plant("src/misc/a.cpp", "");
  plant("app/tools/a.cpp", "");
  plant("app/viewer/widgets/a.cpp", "");  // a sub-layer of the viewer's left out of the map
  EXPECT_EQ(unknownFolders(root_).size(), 4u) << lines(unknownFolders(root_));
}

}  // namespace
}  // namespace pcv::architecture
