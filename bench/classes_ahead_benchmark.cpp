// The Edit tool's Classify on a streamed scene, timed without the window: the classes of a
// Classify edit of every point found ahead in the files as the viewer finds them
// (planClassesAhead, then findClassesAhead: several files at once, a dataset's tiles with their
// neighbours' points), the median of several runs, then one decode of every node of the files
// with the edit shown (EditedNodeSource over the COPC files' nodes), as a stream decodes them
// after the classification.
//   pcv_classes_ahead_benchmark FILES|DIR|VPC... [--runs 3]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "pcv/core/parallel.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/session/classes_ahead.hpp"
#include "pcv/session/classifier_choice.hpp"
#include "pcv/session/edited_node_source.hpp"
#include "pcv/stream/copc_node_source.hpp"

namespace {

using namespace pcv;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Time the viewer's classification of a streamed scene's files"};
  std::vector<std::string> inputs;
  int runs = 3;
  app.add_option("inputs", inputs, "LAS, LAZ or COPC files, folders or VPCs")->required();
  app.add_option("--runs", runs, "Runs timed")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::vector<PointEdit> edits(1);
  edits[0].action = EditAction::Classify;  // ground and noise, airborne defaults (metres)
  std::string device;
  choosePointClassifier("auto", &device);
  try {
    const Clock::time_point checkStart = Clock::now();
    const ClassesAheadPlan plan = planClassesAhead(inputs, edits);
    const double checkSeconds = secondsSince(checkStart);
    const std::vector<std::string>& files = plan.files;
    std::printf("%zu files, %.1f MiB held at most; planned in %.3f s; %s\n", files.size(),
                double(plan.bytes()) / double(1 << 20), checkSeconds, device.c_str());
    std::vector<double> times;
    std::shared_ptr<const FoundFileClasses> found;
    for (int run = 0; run < runs; ++run) {
      const Clock::time_point start = Clock::now();
      found = findClassesAhead(plan, edits);
      times.push_back(secondsSince(start));
    }
    std::sort(times.begin(), times.end());
    uint64_t points = 0;
    for (const std::string& file : files) points += found->of(file)->indices.size();
    std::printf(
        "classes found: median %.3f s (min %.3f, max %.3f, %d runs), %llu points, "
        "%.1f M points/s\n",
        times[times.size() / 2], times.front(), times.back(), runs,
        static_cast<unsigned long long>(points), double(points) / times[times.size() / 2] / 1e6);
    // Every node of the COPC files decoded with the edit shown, as a stream decodes them.
    edits[0].found = found;
    const Clock::time_point decodeStart = Clock::now();
    uint64_t decoded = 0, nodes = 0;
    for (const std::string& file : files) {
      if (file.size() < 9 || file.compare(file.size() - 9, 9, ".copc.laz") != 0) continue;
      const EditedNodeSource source(
          std::make_shared<CopcNodeSource>(std::make_shared<const CopcFile>(file)), edits);
      std::vector<uint64_t> counts(source.forest().nodes.size(), 0);
      parallelForEachDynamic(counts.size(),
                             [&](size_t node) { counts[node] = source.decodeNode(node).size(); });
      for (const uint64_t count : counts) decoded += count;
      nodes += counts.size();
    }
    if (nodes > 0) {
      std::printf("every node decoded with the classes shown: %llu nodes, %llu points in %.3f s\n",
                  static_cast<unsigned long long>(nodes), static_cast<unsigned long long>(decoded),
                  secondsSince(decodeStart));
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "pcv_classes_ahead_benchmark: %s\n", error.what());
    return 1;
  }
  return 0;
}
