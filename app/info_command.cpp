#include "info_command.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/number_text.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "option_groups.hpp"

namespace pcv::app {
namespace {

void printSummary(const std::string& path, const FileSummary& s) {
  std::printf("%s\n", path.c_str());
  std::printf("  format:     %s %s\n", s.format.c_str(), s.details.c_str());
  std::printf("  points:     %llu", static_cast<unsigned long long>(s.pointCount));
  if (s.droppedPoints) {
    std::printf(" (%llu with NaN/inf coordinates dropped)",
                static_cast<unsigned long long>(s.droppedPoints));
  }
  std::printf("\n");
  if (s.worldBounds.empty()) {
    std::printf("  bounds:     (none)\n");
  } else {
    const auto& b = s.worldBounds;
    // fixedText: a coordinate that rounds to zero reads 0.000, never -0.000.
    std::printf("  bounds:     min %s\n              max %s\n", fixedText(b.min, 3).c_str(),
                fixedText(b.max, 3).c_str());
    std::printf("  origin:     %s\n", fixedText(s.origin, 3).c_str());
  }
  std::printf("  colour:     %s\n", s.hasColor ? "rgb from the file" : "none");
  std::string names;
  for (const auto& name : s.attributes) names += (names.empty() ? "" : ", ") + name;
  std::printf("  attributes: %s\n", names.empty() ? "(none)" : names.c_str());
  for (const auto& note : s.notes) std::printf("  %s\n", note.c_str());
  for (const auto& warning : s.warnings) std::printf("  warning:    %s\n", warning.c_str());
}

}  // namespace

void addInfoCommand(CLI::App& cli) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto read = std::make_shared<ReadFlags>();
  CLI::App* info =
      cli.add_subcommand("info", "Describe point cloud files (PLY, LAS, PCD, E57, text)");
  info->add_option("files", *files, "Files to describe")->required();
  addReadFlags(*info, *read);
  info->callback([files, read] {
    const ReadOptions options = readOptionsFrom(*read);
    int failures = 0;
    for (const std::string& path : *files) {
      try {
        FileSummary summary;
        readPointCloud(path, options, nullptr, &summary);
        printSummary(path, summary);
      } catch (const Error& error) {
        std::fprintf(stderr, "pcv: error: %s\n", error.what());
        ++failures;
      }
    }
    if (failures > 0) {
      throw InputError(std::to_string(failures) + " of " + std::to_string(files->size()) +
                       " files could not be read");
    }
  });
}

}  // namespace pcv::app
