// prepareScene() on a thread, its conversion cancellable, a dataset's forest opened beside.
#include "pcv/session/scene_opening.hpp"

#include <algorithm>

#include "pcv/core/error.hpp"
#include "pcv/session/copc_conversion.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {

std::optional<ScenePlan> planAtOnce(const std::vector<std::string>& files,
                                    const StreamLimits& limits) {
  const bool tiles = files.size() > 1 && std::all_of(files.begin(), files.end(), hasTileExtension);
  // Headers of thousands of tiles, their hierarchies and the overview's samples, or a COPC cache
  // to convert, take seconds: those are planned on a thread.
  if (!limits.inCore && (tiles || namesDataset(files))) return std::nullopt;
  ScenePlan plan;
  try {
    plan = planScene({.files = files}, limits);
  } catch (const Error&) {
    plan.kind = SceneKind::InCore;  // the reader says what is wrong with the file
  }
  if (plan.kind == SceneKind::Streamed && plan.cacheMissing) return std::nullopt;
  return plan;
}

SceneOpening::SceneOpening(std::vector<std::string> files, const ReadOptions& read,
                           const StreamLimits& limits)
    : files_(std::move(files)), read_(read) {
  label_ = files_.empty()       ? std::string()
           : files_.size() == 1 ? files_[0]
                                : files_[0] + " and " + std::to_string(files_.size() - 1) + " more";
  thread_ = std::thread([this, limits] { run(limits); });
}

SceneOpening::~SceneOpening() {
  conversion_.cancel = true;
  wait();
}

void SceneOpening::wait() {
  if (thread_.joinable()) thread_.join();
}

double SceneOpening::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void SceneOpening::run(const StreamLimits& limits) {
  try {
    SceneOptions options{.stream = limits};
    options.report.note = [this](const std::string& line) { notes_.push_back(line); };
    // The conversion takes its own default memory (half of RAM, out of core beyond that), not
    // the streaming budget, as the command line's does.
    options.convertToCopc = [this](const std::vector<std::string>& inputs,
                                   const std::string& output) {
      convertFilesToCopc(inputs, output, {}, &conversion_);
    };
    plan_ = prepareScene({.files = files_}, options);
    if (plan_.tiles) forest_ = openTileForest(*plan_.tiles, {.read = read_});
  } catch (const ConversionCancelled&) {
    error_ = "opening " + label_ + " was cancelled";
  } catch (const std::exception& error) {
    error_ = error.what();
  }
  done_.store(true, std::memory_order_release);
}

}  // namespace pcv
