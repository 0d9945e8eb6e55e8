// Two passes over the records: the first reads the positions alone and classifies them; the
// second copies the records through the record sink, each class rewritten on the way, so no
// field but the classification is ever decoded and re-encoded.
#include "pcv/session/file_classification.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/stopwatch.hpp"
#include "pcv/io/record_classes.hpp"
#include "pcv/session/copc_conversion.hpp"
#include "pcv/session/declared_crs.hpp"
#include "pcv/session/tiled_classification.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {
namespace {

/// The positions of every input's records, one after the other, and where each input's begin.
struct InputPoints {
  std::vector<glm::dvec3> positions;
  std::vector<uint64_t> firsts;  ///< index of each input's first point
};

InputPoints readInputPoints(const std::vector<std::string>& inputs) {
  InputPoints points;
  if (inputs.size() == 1) {  // the file's records decoded on all cores
    points.firsts.push_back(0);
    points.positions = recordPositions(*pointFileRecords(inputs)());
    return points;
  }
  // Several files: their counts from the headers, then each file decoded on one core into its
  // place, the files on all cores at once (a dataset's tiles read as fast as the cores decode).
  std::vector<uint64_t> counts;
  uint64_t total = 0;
  for (const std::string& input : inputs) {
    counts.push_back(pointFileRecords({input})()->pointCount());
    points.firsts.push_back(total);
    total += counts.back();
  }
  requireHostMemory("the positions of the points to classify", total, sizeof(glm::dvec3));
  points.positions.resize(total);
  parallelForEachDynamic(inputs.size(), [&](size_t i) {
    const WorkerLimit oneCore(1);
    const std::vector<glm::dvec3> positions = recordPositions(*pointFileRecords({inputs[i]})());
    if (positions.size() != counts[i]) {
      throw InputError("classify: " + inputs[i] + " holds " + std::to_string(positions.size()) +
                       " points where its header says " + std::to_string(counts[i]) +
                       "; was it changed meanwhile?");
    }
    std::copy(positions.begin(), positions.end(), points.positions.begin() + points.firsts[i]);
  });
  return points;
}

void countClasses(const std::vector<uint8_t>& classes, FileClassificationSummary& summary) {
  summary.points = classes.size();
  summary.ground = uint64_t(std::count(classes.begin(), classes.end(), kClassGround));
  summary.noise = uint64_t(std::count(classes.begin(), classes.end(), kClassNoise));
}

/// The bounds the ground grid covers: the inputs' header bounds, as a tile-by-tile run of the
/// same files sees them (a header's bounds rounded off the points' by a hair then shape both
/// runs' edge cells alike). Headers of all zeros (some writers leave them so) say nothing, and a
/// header whose points lie a cell or more outside it is stale: the points' extent counts there.
Box3d gridBounds(const std::vector<std::string>& inputs, const std::vector<glm::dvec3>& positions,
                 double cell) {
  Box3d declared = declaredBounds(describeTiles(inputs)), extent;
  for (const glm::dvec3& p : positions) {
    if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) extent.extend(p);
  }
  if (declared.empty()) return extent;
  const glm::dvec3 slack(cell);
  const bool stale = glm::any(glm::lessThan(extent.min, declared.min - slack)) ||
                     glm::any(glm::greaterThan(extent.max, declared.max + slack));
  if (stale) declared.extend(extent);
  return declared;
}

/// The classes of the inputs' points, found by `classifier` (null: the CPU's); `summary` gets
/// the counts, where the filters ran and the seconds of reading and classifying.
std::shared_ptr<const std::vector<uint8_t>> classify(
    const std::vector<std::string>& inputs, const ClassifySettings& settings,
    const std::shared_ptr<const PointClassifier>& classifier, FileClassificationSummary& summary,
    std::vector<uint64_t>* firsts = nullptr) {
  if (inputs.empty()) throw InputError("classify: no input files");
  const SteadyClock::time_point readStart = SteadyClock::now();
  InputPoints points = readInputPoints(inputs);
  summary.readSeconds = secondsSince(readStart);
  if (points.positions.empty()) {
    std::string names;
    for (const std::string& input : inputs) names += (names.empty() ? "" : ", ") + input;
    throw InputError("classify: no points to classify in " + names);
  }
  // The ground grid of the inputs as a dataset: the cells and heights a tile-by-tile run of the
  // same points uses (tiled_classification.hpp), so both give each point the same class.
  std::optional<GroundGridWindow> window;
  if (settings.ground) {
    const Box3d bounds = gridBounds(inputs, points.positions, settings.groundFilter.cell);
    if (!bounds.empty()) {  // empty: no point has finite coordinates, and none is ground
      window = groundGridWindow(bounds.min, bounds.max, glm::dvec2(bounds.min),
                                glm::dvec2(bounds.max), settings.groundFilter.cell);
    }
  }
  const SteadyClock::time_point classifyStart = SteadyClock::now();
  auto classes = std::make_shared<const std::vector<uint8_t>>(
      (classifier ? classifier : cpuPointClassifier())
          ->classify(points.positions, settings, window ? &*window : nullptr, &summary.device));
  summary.classifySeconds = secondsSince(classifyStart);
  countClasses(*classes, summary);
  if (firsts) *firsts = points.firsts;
  return classes;
}

}  // namespace

PointRecordSource classifiedRecords(PointRecordSource source,
                                    std::shared_ptr<const std::vector<uint8_t>> classes,
                                    uint64_t first, const ClassifySettings& settings) {
  return [=] {
    return reclassifyRecords(source(), [=](uint8_t previous, uint64_t index) {
      // A file that grew between the two passes (rewritten meanwhile) has records no class
      // was found for: an error, never a read past the classes.
      if (first + index >= classes->size()) {
        throw Error(
            "classify: an input holds more points than when it was read first; was it "
            "changed meanwhile?");
      }
      return mergedClass(previous, (*classes)[first + index], settings);
    });
  };
}

ClassifySettings settingsForFiles(const std::vector<std::string>& inputs,
                                  const ClassifySettings& settings, const GivenLengths& given,
                                  LengthUnit* unit) {
  const LengthUnit declared = declaredCoordinateSystem(inputs).lengthUnit();
  if (unit) *unit = declared;
  if (declared.angular()) {
    throw InputError("classify: " + (inputs.empty() ? std::string() : inputs.front()) +
                     " has geographic coordinates (" + declared.name +
                     "): expected projected coordinates in a unit of length (reproject first)");
  }
  return withDefaultLengthsIn(settings, declared.metres, given);
}

FileClassificationSummary classifyFilesTo(const std::vector<std::string>& inputs,
                                          const std::string& output,
                                          const ClassifySettings& settings, RecordSinkOptions sink,
                                          std::shared_ptr<const PointClassifier> classifier) {
  checkClassifySettings(settings);
  sink.output.inputs.assign(inputs.begin(), inputs.end());
  checkRecordOutput(output, sink);
  FileClassificationSummary summary;
  const auto classes = classify(inputs, settings, classifier, summary);
  const SteadyClock::time_point writeStart = SteadyClock::now();
  writePointRecords(classifiedRecords(pointFileRecords(inputs), classes, 0, settings), output,
                    sink);
  summary.writeSeconds = secondsSince(writeStart);
  summary.outputs.push_back(output);
  return summary;
}

FileClassificationSummary classifyFilesInPlace(const std::vector<std::string>& inputs,
                                               const ClassifySettings& settings,
                                               std::shared_ptr<const PointClassifier> classifier) {
  checkClassifySettings(settings);
  // Each input replaces itself: the rules name no input, and replacing is the point.
  RecordSinkOptions sink{.output = {.existing = ExistingOutput::Replace}};
  for (const std::string& input : inputs) checkRecordOutput(input, sink);
  std::vector<uint64_t> firsts;
  FileClassificationSummary summary;
  const auto classes = classify(inputs, settings, classifier, summary, &firsts);
  const SteadyClock::time_point writeStart = SteadyClock::now();
  for (size_t i = 0; i < inputs.size(); ++i) {
    // The record sink writes NAME.partial-PID beside the input and renames it over the input
    // once complete; the input stays open for reading until then.
    writePointRecords(
        classifiedRecords(pointFileRecords({inputs[i]}), classes, firsts[i], settings), inputs[i],
        sink);
    summary.outputs.push_back(inputs[i]);
  }
  summary.writeSeconds = secondsSince(writeStart);
  return summary;
}

}  // namespace pcv
