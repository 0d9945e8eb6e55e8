// The layers of pcv and which may use which (dependencies point down): a header or source of a
// layer that includes one of a layer above it fails here, naming the file and the line.
//   core  <- cuda, scene, octree, io <- raster <- stream, gl <- app
// scene and io sit on core (scene may use the cuda helpers; io the octree layer, whose GPU part
// uses them too); the renderer knows neither; stream draws io's octrees through the renderer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace pcv {
namespace {

const std::map<std::string, std::set<std::string>> kMayInclude = {
    {"core", {"core"}},
    {"cuda", {"core", "cuda"}},
    {"scene", {"core", "cuda", "scene"}},
    {"octree", {"core", "cuda", "octree"}},
    {"io", {"core", "octree", "io"}},
    {"raster", {"core", "cuda", "raster"}},
    {"stream", {"core", "cuda", "io", "raster", "stream"}},
    {"gl", {"core", "cuda", "raster", "gl"}},
};

/// "include "pcv/<layer>/..."" lines of `file` whose layer is not allowed, as "file:line: text".
std::vector<std::string> violations(const std::filesystem::path& file, const std::string& layer) {
  static const std::regex include(R"(^\s*#\s*include\s*["<]pcv/([a-z_]+)/)");
  std::vector<std::string> found;
  std::ifstream in(file);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::smatch match;
    if (std::regex_search(line, match, include) && !kMayInclude.at(layer).contains(match[1])) {
      found.push_back(file.string() + ":" + std::to_string(number) + ": " + line);
    }
  }
  return found;
}

TEST(Layering, NoLayerIncludesOneAboveIt) {
  const std::filesystem::path root = PCV_SOURCE_DIR;
  std::vector<std::string> found;
  uint64_t files = 0;
  for (const auto& [layer, allowed] : kMayInclude) {
    for (const auto& dir : {root / "include" / "pcv" / layer, root / "src" / layer}) {
      if (!std::filesystem::is_directory(dir)) continue;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        ++files;
        for (std::string& v : violations(entry.path(), layer)) found.push_back(std::move(v));
      }
    }
  }
  EXPECT_GT(files, 50u) << "the layers' folders were not found under " << root;
  std::string report;
  for (const std::string& v : found) report += v + "\n";
  EXPECT_TRUE(found.empty()) << "includes from a layer above:\n" << report;
}

TEST(Layering, TheCheckSeesAViolation) {
  // The check itself: a raster file that includes the scene must be reported.
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "pcv_layering_probe.hpp";
  std::ofstream(file) << "#pragma once\n#include \"pcv/scene/cylinders.hpp\"\n";
  EXPECT_EQ(violations(file, "raster").size(), 1u);
  EXPECT_TRUE(violations(file, "scene").empty());
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace pcv
