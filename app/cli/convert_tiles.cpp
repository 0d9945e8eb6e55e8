// Every rank plans the same jobs from the same inputs and takes its share (tilesOfRank); ranks
// talk only to agree that planning worked and, at the end, to hand rank 0 their tiles' outcomes
// as JSON, from which it writes the VPC and the report. A tile that fails does not stop the
// others; the run then ends with an error naming every failed tile and writes no VPC.
#include "convert_tiles.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "options/conversion_progress.hpp"
#include "options/interrupt_signals.hpp"
#include "options/progress_bar.hpp"
#include "options/run_report.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/core/stopwatch.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/session/tile_conversion.hpp"
#include "pcv/stream/tile_set.hpp"
#include "rank_group.hpp"

namespace pcv::app {
namespace {

struct Plan {
  std::vector<TileJob> jobs;
  std::filesystem::path vpc;
};

/// Without --overwrite, outputs already in the folder (an earlier run's) are not replaced: the
/// command stops before converting anything and says how many there are.
void refuseExistingOutputs(const Plan& plan) {
  std::vector<std::filesystem::path> existing;
  for (const TileJob& job : plan.jobs) {
    if (std::filesystem::exists(job.output)) existing.push_back(job.output);
  }
  if (std::filesystem::exists(plan.vpc)) existing.push_back(plan.vpc);
  if (existing.empty()) return;
  throw OutputExistsError(
      existing.front().string() +
      (existing.size() > 1 ? " and " + std::to_string(existing.size() - 1) + " more of the outputs"
                           : "") +
      " exist and would be replaced; give a new output folder, or pass "
      "--overwrite to replace them");
}

Plan planJobs(const ConvertTilesOptions& options) {
  if (options.paths.size() < 2) {
    throw InputError(
        "convert --tiles needs input tiles (files, folders or a .vpc), then the "
        "output folder");
  }
  const std::filesystem::path outputDir = options.paths.back();
  if (std::filesystem::exists(outputDir) && !std::filesystem::is_directory(outputDir)) {
    throw InputError(outputDir.string() +
                     ": convert --tiles writes into a folder, and this is a "
                     "file (give a folder as the last argument)");
  }
  const std::filesystem::path vpcName(options.vpcName);
  if (vpcName.filename() != vpcName || vpcName.extension() != ".vpc") {
    throw InputError("--vpc " + options.vpcName +
                     ": give a file name ending in .vpc; it is written in the output folder");
  }
  std::vector<std::string> inputs(options.paths.begin(), options.paths.end() - 1);
  Plan plan;
  plan.jobs = planTileJobs(expandTilePaths(inputs), outputDir);
  plan.vpc = outputDir / vpcName;
  if (!options.overwrite) refuseExistingOutputs(plan);
  return plan;
}

nlohmann::json boundsJson(const Box3d& box) {
  return {{"min", {box.min.x, box.min.y, box.min.z}}, {"max", {box.max.x, box.max.y, box.max.z}}};
}

Box3d boundsFrom(const nlohmann::json& json) {
  Box3d box;
  for (int a = 0; a < 3; ++a) {
    box.min[a] = json["min"][size_t(a)].get<double>();
    box.max[a] = json["max"][size_t(a)].get<double>();
  }
  return box;
}

/// A rank's outcomes and figures, for rank 0.
std::string rankSummary(const std::vector<TileOutcome>& outcomes, int rank, unsigned threads,
                        unsigned lanes, double seconds) {
  nlohmann::json tiles = nlohmann::json::array();
  for (const TileOutcome& o : outcomes) {
    nlohmann::json tile = {{"job", o.job},
                           {"done", o.done},
                           {"error", o.error},
                           {"seconds", o.seconds},
                           {"points", o.summary.pointCount},
                           {"nodes", o.summary.nodeCount}};
    if (o.done && o.description.pointCount > 0) {
      tile["bounds"] = boundsJson(o.description.nativeBounds);
      tile["crs"] = {{"wkt", o.description.crs.wkt},
                     {"epsg", o.description.crs.epsg},
                     {"verticalEpsg", o.description.crs.verticalEpsg}};
    }
    tiles.push_back(std::move(tile));
  }
  return nlohmann::json{{"rank", rank},
                        {"threads", threads},
                        {"lanes", lanes},
                        {"seconds", seconds},
                        {"tiles", std::move(tiles)}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// The outcome of a tile as a rank summary states it.
TileOutcome outcomeFrom(const nlohmann::json& tile, const std::vector<TileJob>& jobs) {
  TileOutcome o;
  o.job = tile["job"].get<size_t>();
  o.done = tile["done"].get<bool>();
  o.error = tile["error"].get<std::string>();
  o.seconds = tile["seconds"].get<double>();
  o.summary.pointCount = tile["points"].get<uint64_t>();
  o.summary.nodeCount = tile["nodes"].get<uint64_t>();
  o.description.file = jobs.at(o.job).output;
  o.description.pointCount = o.summary.pointCount;
  if (tile.contains("bounds")) {
    o.description.nativeBounds = boundsFrom(tile["bounds"]);
    o.description.crs = {.wkt = tile["crs"]["wkt"].get<std::string>(),
                         .epsg = tile["crs"]["epsg"].get<int>(),
                         .verticalEpsg = tile["crs"]["verticalEpsg"].get<int>()};
  }
  return o;
}

std::unique_ptr<ProgressBar> tilesBar(const TileConversionProgress& progress) {
  return std::make_unique<ProgressBar>(
      [&progress](double seconds) {
        const double total = double(std::max<uint64_t>(1, progress.bytesTotal));
        const uint64_t points = progress.pointsDone;
        return conversionState(double(progress.bytesDone) / total, double(points), seconds,
                               std::to_string(progress.tilesDone + progress.tilesFailed) + " of " +
                                   std::to_string(progress.tilesTotal) + " tiles, " +
                                   millions(points) + " points");
      },
      "converting tiles");
}

/// Rank 0: the VPC (when every tile is done), the report and the summary line; throws Error
/// naming the failed tiles.
void finishOnRoot(const Plan& plan, const std::vector<std::string>& summaries, int ranks,
                  double seconds) {
  std::vector<TileOutcome> outcomes;
  nlohmann::json perRank = nlohmann::json::array();
  std::vector<int> rankOf(plan.jobs.size(), 0);
  for (const std::string& text : summaries) {
    const nlohmann::json summary = nlohmann::json::parse(text);
    perRank.push_back({{"rank", summary["rank"]},
                       {"threads", summary["threads"]},
                       {"lanes", summary["lanes"]},
                       {"seconds", summary["seconds"]},
                       {"tiles", summary["tiles"].size()}});
    for (const nlohmann::json& tile : summary["tiles"]) {
      outcomes.push_back(outcomeFrom(tile, plan.jobs));
      rankOf[outcomes.back().job] = summary["rank"].get<int>();
    }
  }
  std::sort(outcomes.begin(), outcomes.end(),
            [](const TileOutcome& a, const TileOutcome& b) { return a.job < b.job; });
  uint64_t points = 0;
  nlohmann::json tiles = nlohmann::json::array();
  nlohmann::json failures = nlohmann::json::array();
  std::string failed;
  for (const TileOutcome& o : outcomes) {
    const TileJob& job = plan.jobs[o.job];
    nlohmann::json tile = {{"input", job.input},
                           {"output", job.output.string()},
                           {"done", o.done},
                           {"points", o.summary.pointCount},
                           {"nodes", o.summary.nodeCount},
                           {"seconds", o.seconds},
                           {"rank", rankOf[o.job]}};
    if (o.done) {
      points += o.summary.pointCount;
    } else {
      tile["error"] = o.error;
      failures.push_back({{"input", job.input}, {"error", o.error}});
      failed += (failed.empty() ? "" : ", ") + job.input;
    }
    tiles.push_back(std::move(tile));
  }
  const bool allDone = failures.empty();
  if (allDone) writeTileDatasetVpc(plan.vpc, outcomes);
  const double total = seconds;
  runReport()["convertTiles"] = {
      {"tiles", plan.jobs.size()},
      {"tilesDone", plan.jobs.size() - failures.size()},
      {"tilesFailed", failures.size()},
      {"points", points},
      {"seconds", total},
      {"pointsPerSecond", double(points) / std::max(total, 1e-9)},
      {"ranks", ranks},
      {"perRank", std::move(perRank)},
      {"vpc", allDone ? nlohmann::json(plan.vpc.string()) : nlohmann::json(nullptr)},
      {"outputs", std::move(tiles)},
      {"failures", failures}};
  if (!allDone) {
    writeRunReport();  // the failures are what a script wants to read
    throw Error(std::to_string(failures.size()) + " of " + std::to_string(plan.jobs.size()) +
                " tiles failed (" + failed + "); no VPC written");
  }
  if (!reportGoesToStdout()) {
    std::printf("%s: %zu tiles, %.1f M points in %.2f s (%.1f M points/s, %d rank%s)\n",
                plan.vpc.string().c_str(), plan.jobs.size(), double(points) / 1e6, total,
                double(points) / std::max(total, 1e-9) / 1e6, ranks, ranks == 1 ? "" : "s");
  }
}

}  // namespace

void runConvertTiles(const ConvertTilesOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<RankGroup> ranks = joinRankGroup();
  const int rank = ranks->rank();
  // One report, rank 0's; the others' would overwrite it.
  if (rank != 0) discardRunReport();
  const std::string who = ranks->size() > 1 ? "rank " + std::to_string(rank) + ": " : "";
  shareCoresWithLocalRanks(ranks->localSize(), who);

  // The same plan on every rank; they agree that it worked before any converts.
  Plan plan;
  std::string planError;
  try {
    plan = planJobs(options);
    if (rank == 0) std::filesystem::create_directories(plan.vpc.parent_path());
  } catch (const std::exception& error) {
    planError = error.what();
  }
  agreeThatPlanningWorked(*ranks, planError, who);
  std::error_code ignored;
  std::filesystem::create_directories(plan.vpc.parent_path(), ignored);

  const std::vector<size_t> mine = tilesOfRank(plan.jobs, rank, ranks->size());
  TileConversionProgress progress;
  std::vector<TileOutcome> outcomes;
  {
    InterruptSignals signals(progress.cancel);
    std::unique_ptr<ProgressBar> bar;
    if (!options.quiet && rank == 0) bar = tilesBar(progress);
    outcomes = runRankShare(
        *ranks, signals, who,
        [&] {
          return convertTiles(plan.jobs, mine,
                              {.memoryBytes = memoryOfRank(options.memoryBytes, ranks->localSize()),
                               .tempDirectory = options.temporaryDirectory,
                               .maxPointsPerNode = options.nodePoints,
                               .pointFormat = options.pointFormat},
                              &progress);
        },
        [&] { bar.reset(); });  // the bar's line ends before the process does
  }
  for (const TileOutcome& o : outcomes) {
    if (!o.done) std::fprintf(stderr, "pcv: %serror: %s\n", who.c_str(), o.error.c_str());
  }
  const std::vector<std::string> summaries = ranks->gatherToRoot(
      rankSummary(outcomes, rank, workerCount(), progress.lanes, secondsSince(start)));
  if (rank == 0) {
    finishOnRoot(plan, summaries, ranks->size(), secondsSince(start));
  } else if (progress.tilesFailed > 0) {
    throw Error(who + std::to_string(progress.tilesFailed.load()) + " tiles failed");
  }
}

}  // namespace pcv::app
