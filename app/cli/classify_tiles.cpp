// Every rank plans the same tiles from the same headers and takes its share (tilesOfRank, by the
// points each tile's run reads); ranks talk only to agree that planning worked and, at the end,
// to hand rank 0 their tiles' outcomes as JSON. A tile that fails does not stop the others.
#include "classify_tiles.hpp"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>

#include <nlohmann/json.hpp>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/session/classifier_choice.hpp"
#include "pcv/session/tiled_classification.hpp"
#include "pcv/stream/tile_set.hpp"
#include "rank_group.hpp"
#include "options/interrupt_signals.hpp"
#include "options/run_report.hpp"

namespace pcv::app {
namespace {

std::string rankSummary(const std::vector<TileClassificationOutcome>& outcomes, int rank) {
  nlohmann::json tiles = nlohmann::json::array();
  for (const TileClassificationOutcome& o : outcomes) {
    tiles.push_back({{"job", o.job},
                     {"done", o.done},
                     {"error", o.error},
                     {"points", o.points},
                     {"ground", o.ground},
                     {"noise", o.noise},
                     {"bufferPoints", o.bufferPoints},
                     {"device", o.device},
                     {"seconds", o.seconds}});
  }
  return nlohmann::json{{"rank", rank}, {"threads", workerCount()}, {"tiles", std::move(tiles)}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// Rank 0: the figures of every rank's tiles, in the order of the plan; throws Error naming the
/// tiles that failed.
ClassifyTilesSummary gatherOnRoot(const TiledClassificationPlan& plan,
                                  const std::vector<std::string>& summaries, int ranks) {
  std::vector<nlohmann::json> byJob(plan.jobs.size());
  for (const std::string& text : summaries) {
    const nlohmann::json summary = nlohmann::json::parse(text);
    for (nlohmann::json tile : summary["tiles"]) {
      tile["rank"] = summary["rank"];
      const size_t job = tile["job"].get<size_t>();
      byJob.at(job) = std::move(tile);
    }
  }
  ClassifyTilesSummary result;
  result.tiles = plan.jobs.size();
  result.ranks = ranks;
  nlohmann::json perTile = nlohmann::json::array();
  std::string failed;
  size_t failures = 0;
  for (size_t j = 0; j < plan.jobs.size(); ++j) {
    const nlohmann::json& tile = byJob[j];
    const TileClassificationJob& job = plan.jobs[j];
    nlohmann::json entry = {{"input", job.file.input},
                            {"output", job.file.output.string()},
                            {"neighbours", job.neighbours.size()},
                            {"done", tile.value("done", false)},
                            {"points", tile.value("points", uint64_t(0))},
                            {"ground", tile.value("ground", uint64_t(0))},
                            {"noise", tile.value("noise", uint64_t(0))},
                            {"bufferPoints", tile.value("bufferPoints", uint64_t(0))},
                            {"device", tile.value("device", std::string())},
                            {"seconds", tile.value("seconds", 0.0)},
                            {"rank", tile.value("rank", 0)}};
    if (entry["done"].get<bool>()) {
      result.points += entry["points"].get<uint64_t>();
      result.ground += entry["ground"].get<uint64_t>();
      result.noise += entry["noise"].get<uint64_t>();
      result.bufferPoints += entry["bufferPoints"].get<uint64_t>();
      result.outputs.push_back(job.file.output.string());
    } else {
      entry["error"] = tile.value("error", std::string("not classified"));
      failed += (failed.empty() ? "" : ", ") + job.file.input;
      ++failures;
    }
    perTile.push_back(std::move(entry));
  }
  result.perTile = perTile.dump();
  if (failures > 0) {
    runReport()["classify"] = {
        {"tiles", result.tiles}, {"tilesFailed", failures}, {"perTile", std::move(perTile)}};
    writeRunReport();  // the failures are what a script wants to read
    throw Error(std::to_string(failures) + " of " + std::to_string(plan.jobs.size()) +
                " tiles failed to classify (" + failed + ")");
  }
  return result;
}

}  // namespace

std::optional<ClassifyTilesSummary> runClassifyTiles(const ClassifyTilesRun& run) {
  std::unique_ptr<RankGroup> ranks = joinRankGroup();
  const int rank = ranks->rank();
  if (rank != 0) discardRunReport();  // one report, rank 0's
  const std::string who = ranks->size() > 1 ? "rank " + std::to_string(rank) + ": " : "";
  shareCoresWithLocalRanks(ranks->localSize(), who);

  // The same plan on every rank; they agree that it worked before any classifies.
  TiledClassificationPlan plan;
  std::string planError;
  try {
    checkClassifySettings(run.settings);
    // A name like a point file's, not there yet, is taken for a file meant, not a folder.
    if (!run.outputDir.empty() &&
        (std::filesystem::exists(run.outputDir) ? !std::filesystem::is_directory(run.outputDir)
                                                : hasTileExtension(run.outputDir))) {
      throw InputError(run.outputDir +
                       ": a dataset is classified into a folder, one file per tile, and this is "
                       "a file (give a folder, or --in-place)");
    }
    plan = planTiledClassification(run.tiles, run.outputDir, run.buffer, run.overwrite);
    if (rank == 0 && !run.outputDir.empty()) std::filesystem::create_directories(run.outputDir);
  } catch (const std::exception& error) {
    planError = error.what();
  }
  agreeThatPlanningWorked(*ranks, planError, who);
  if (!run.outputDir.empty()) {
    std::error_code ignored;
    std::filesystem::create_directories(run.outputDir, ignored);
  }

  const std::vector<size_t> mine = tilesOfRank(rankWeights(plan), rank, ranks->size());
  std::vector<TileClassificationOutcome> outcomes;
  std::atomic<bool> stop{false};
  {
    // Ctrl+C stops the tiles being written (no temporary file left) and ends the run as the
    // signal would; tiles written before stay written.
    InterruptSignals signals(stop);
    outcomes = runRankShare(*ranks, signals, who, [&] {
      return classifyTiles(plan, mine, run.settings,
                           {.memoryBytes = memoryOfRank(run.memoryBytes, ranks->localSize()),
                            .cancel = &stop,
                            .classifier = choosePointClassifier(run.device)});
    });
  }
  size_t failures = 0;
  for (const TileClassificationOutcome& o : outcomes) {
    if (!o.done)
      std::fprintf(stderr, "pcv: %serror: %s\n", who.c_str(), o.error.c_str()), ++failures;
  }
  const std::vector<std::string> summaries = ranks->gatherToRoot(rankSummary(outcomes, rank));
  if (rank != 0) {
    if (failures > 0) throw Error(who + std::to_string(failures) + " tiles failed");
    return std::nullopt;
  }
  return gatherOnRoot(plan, summaries, ranks->size());
}

}  // namespace pcv::app
