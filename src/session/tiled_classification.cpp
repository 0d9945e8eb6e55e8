// A tile's run: its own records' positions (all of them, in file order, so that the classes line
// up with the records written back), then the positions of its neighbours' records that fall in
// the window: the ground grid's cells over the tile and its buffer (whole cells, so each cell of
// the window holds every point the dataset's cell holds), or the buffered rectangle when only
// noise is asked for. The filters see nothing of the tile's position in the dataset but the
// grid window, which is why a tile's classes do not depend on who classifies it or with what.
//
// In place, a tile may be rewritten while another tile's run reads it as a neighbour: the record
// sink renames a complete file over it (a reader holds the old file or the new one, never part
// of either), and only classes change, so the neighbour's positions are the same either way.
//
// Lanes as in convertTiles: threads that each take the next tile with their share of the cores
// and of the memory; as many as cores, tiles and the memory (one tile's run each) allow.
#include "pcv/core/host_memory.hpp"
#include "pcv/session/tiled_classification.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/io/record_classes.hpp"
#include "pcv/session/copc_conversion.hpp"
#include "pcv/session/file_classification.hpp"
#include "pcv/session/record_sink.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {
namespace {

/// Cells beyond twice the window that the surface's slope (central differences) and the
/// bilinear interpolation of surface and slope reach, with one to spare.
constexpr double kEdgeCells = 4.0;

/// Bytes a point costs in a tile's run: its position (24), class, noise and ground flags, the
/// noise filter's sorted entry (16) and cube keys, with room for the vectors' growth.
constexpr uint64_t kBytesPerPoint = 72;
/// Bytes a ground grid cell costs: the filter's float grids (minimum, filled, negated, two
/// openings, surfaces, slope) and flags.
constexpr uint64_t kBytesPerCell = 60;

/// Records read at a time from a neighbour.
constexpr uint64_t kRecordBatch = 1 << 16;

std::string text(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

/// The tile's header bounds grown by `buffer` in x and y.
Box3d buffered(const Box3d& bounds, double buffer) {
  Box3d box = bounds;
  box.min.x -= buffer, box.min.y -= buffer;
  box.max.x += buffer, box.max.y += buffer;
  return box;
}

/// Area of the x-y overlap of two boxes.
double overlapArea(const Box3d& a, const Box3d& b) {
  const double w = std::min(a.max.x, b.max.x) - std::max(a.min.x, b.min.x);
  const double h = std::min(a.max.y, b.max.y) - std::max(a.min.y, b.min.y);
  return w > 0.0 && h > 0.0 ? w * h : 0.0;
}

bool meetsInPlane(const Box3d& a, const Box3d& b) {
  return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y;
}

/// The message of a failed tile, naming it once.
std::string tileError(const std::string& input, const std::string& what) {
  return what.find(input) == std::string::npos ? input + ": " + what : what;
}

/// Which points a tile's run holds besides its own: those in the ground grid's window, or in
/// the buffered rectangle.
struct RunArea {
  Box3d rectangle;  ///< x-y: the buffered tile; z unbounded (for the COPC node test)
  std::optional<GroundGridWindow> grid;
  double cell = 1.0;

  bool holds(const glm::dvec3& p) const {
    if (grid) return grid->holds(p.x, p.y, cell);
    return p.x >= rectangle.min.x && p.x <= rectangle.max.x && p.y >= rectangle.min.y &&
           p.y <= rectangle.max.y;
  }
};

RunArea runArea(const TiledClassificationPlan& plan, const TileClassificationJob& job,
                const ClassifySettings& settings) {
  RunArea area;
  area.rectangle = buffered(job.bounds, plan.buffer);
  area.rectangle.min.z = -std::numeric_limits<double>::max();
  area.rectangle.max.z = std::numeric_limits<double>::max();
  if (settings.ground) {
    area.cell = settings.groundFilter.cell;
    area.grid =
        groundGridWindow(plan.datasetBounds.min, plan.datasetBounds.max,
                         glm::dvec2(area.rectangle.min), glm::dvec2(area.rectangle.max), area.cell);
    // The rectangle grows to the window's whole cells, for the COPC node test.
    const GroundGridWindow& g = *area.grid;
    area.rectangle.min.x = g.origin.x + double(g.firstColumn) * area.cell;
    area.rectangle.min.y = g.origin.y + double(g.firstRow) * area.cell;
    area.rectangle.max.x = g.origin.x + double(g.firstColumn + g.columns) * area.cell;
    area.rectangle.max.y = g.origin.y + double(g.firstRow + g.rows) * area.cell;
  }
  return area;
}

/// A record's X, Y or Z: a little-endian int32.
int32_t recordCoordinate(const uint8_t* bytes) {
  return int32_t(uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 | uint32_t(bytes[2]) << 16 |
                 uint32_t(bytes[3]) << 24);
}

/// Appends the positions of `path`'s records that `area` holds (decoded as recordPositions
/// decodes them, so a point has the same coordinates in every run that reads it).
uint64_t appendNeighbourPoints(const std::string& path, const RunArea& area,
                               std::vector<glm::dvec3>& positions) {
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path, area.rectangle);
  const LasWriteFormat& format = stream->format();
  const uint64_t length = format.recordLength;
  uint64_t added = 0;
  const uint8_t* batch = nullptr;
  for (uint64_t count; (count = stream->next(kRecordBatch, batch)) > 0;) {
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t* record = batch + i * length;
      glm::dvec3 p;
      for (int a = 0; a < 3; ++a) {
        p[a] = double(recordCoordinate(record + 4 * a)) * format.scale[a] + format.offset[a];
      }
      if (area.holds(p)) positions.push_back(p), ++added;
    }
  }
  return added;
}

/// The classes of job `index`'s own records, found with its neighbours' points within the
/// buffer on the dataset's grid.
std::vector<uint8_t> classifyOwnRecords(const TiledClassificationPlan& plan, size_t index,
                                        const ClassifySettings& settings,
                                        const PointClassifier& classifier,
                                        const std::atomic<bool>* cancel,
                                        TileClassificationOutcome& outcome) {
  const TileClassificationJob& job = plan.jobs[index];
  std::vector<glm::dvec3> positions;
  {
    const std::unique_ptr<PointRecordStream> stream = pointFileRecords({job.file.input})();
    positions = recordPositions(*stream);
  }
  const uint64_t ownCount = positions.size();
  std::vector<uint8_t> classes;
  if (ownCount > 0) {
    const RunArea area = runArea(plan, job, settings);
    for (const size_t n : job.neighbours) {
      if (cancel && cancel->load()) throw ConversionCancelled("classification cancelled");
      outcome.bufferPoints += appendNeighbourPoints(plan.jobs[n].file.input, area, positions);
    }
    if (cancel && cancel->load()) throw ConversionCancelled("classification cancelled");
    classes = classifier.classify(positions, settings, area.grid ? &*area.grid : nullptr,
                                  &outcome.device);
    classes.resize(size_t(ownCount));
  }
  outcome.points = ownCount;
  outcome.ground = uint64_t(std::count(classes.begin(), classes.end(), kClassGround));
  outcome.noise = uint64_t(std::count(classes.begin(), classes.end(), kClassNoise));
  return classes;
}

void classifyTile(const TiledClassificationPlan& plan, size_t index,
                  const ClassifySettings& settings, const PointClassifier& classifier,
                  uint64_t laneBytes, CopcWriteProgress& writing,
                  TileClassificationOutcome& outcome) {
  const TileClassificationJob& job = plan.jobs[index];
  const PointRecordSource own = pointFileRecords({job.file.input});
  auto classes = std::make_shared<std::vector<uint8_t>>(
      classifyOwnRecords(plan, index, settings, classifier, &writing.cancel, outcome));

  const bool inPlace = job.file.output == std::filesystem::path(job.file.input);
  // In place the tile replaces itself; else the outputs were checked when planning (--overwrite
  // or none there), and no input tile is ever written.
  RecordSinkOptions sink{.output = {.existing = ExistingOutput::Replace}};
  if (!inPlace) {
    for (const TileClassificationJob& other : plan.jobs) {
      sink.output.inputs.push_back(other.file.input);
    }
  }
  sink.copcOptions.memoryBytes = laneBytes;
  if (writing.cancel) throw ConversionCancelled("classification cancelled");
  writePointRecords(classifiedRecords(own, classes, 0, settings), job.file.output, sink, &writing);
}

}  // namespace

bool declaresBounds(const Box3d& bounds) {
  return !bounds.empty() && (bounds.min != glm::dvec3(0.0) || bounds.max != glm::dvec3(0.0));
}

Box3d declaredBounds(const TileSet& set) {
  Box3d bounds;
  for (const Tile& tile : set.tiles) {
    if (tile.pointCount > 0 && declaresBounds(tile.bounds)) bounds.extend(tile.bounds);
  }
  return bounds;
}

double defaultClassificationBuffer(const ClassifySettings& settings) {
  double buffer = 0.0;
  if (settings.noise) buffer = std::max(buffer, settings.noiseFilter.radius);
  if (settings.ground) {
    buffer = std::max(buffer,
                      2.0 * settings.groundFilter.window + kEdgeCells * settings.groundFilter.cell);
  }
  return buffer;
}

void checkClassificationBuffer(double buffer) {
  if (!std::isfinite(buffer) || buffer < 0.0) {
    throw InputError("classify: buffer " + text(buffer) +
                     ": expected a length >= 0 in map units (the neighbours' points around "
                     "each tile)");
  }
}

TiledClassificationPlan planTiledClassification(const std::vector<std::string>& files,
                                                const std::filesystem::path& outputDir,
                                                double buffer, bool overwrite) {
  checkClassificationBuffer(buffer);
  if (files.empty()) throw InputError("classify: no input tiles");
  const TileSet set = readTileSet(files);
  TiledClassificationPlan plan;
  plan.buffer = buffer;
  plan.datasetBounds = declaredBounds(set);
  std::map<std::string, size_t> byName;  // lowercased, as case-insensitive disks compare
  for (const Tile& tile : set.tiles) {
    if (!declaresBounds(tile.bounds) && tile.pointCount > 0) {
      throw InputError(tile.path +
                       ": its header declares no bounds (all zero), and a dataset's tiles find "
                       "their neighbours by their header bounds: rewrite it (pcv convert) first");
    }
    TileClassificationJob job;
    job.file.input = tile.path;
    job.bounds = tile.bounds;
    job.pointCount = tile.pointCount;
    if (outputDir.empty()) {
      job.file.output = tile.path;
    } else {
      const std::string name = std::filesystem::path(tile.path).filename().string();
      const auto [at, fresh] = byName.emplace(lowerCase(name), plan.jobs.size());
      if (!fresh) {
        throw InputError(tile.path + " and " + plan.jobs[at->second].file.input +
                         " would both be written as " + (outputDir / name).string() +
                         ": tiles of the same name from different folders need different "
                         "output folders");
      }
      job.file.output = outputDir / name;
      OutputRules rules{.existing = overwrite ? ExistingOutput::Replace : ExistingOutput::Refuse};
      for (const Tile& input : set.tiles) rules.inputs.push_back(input.path);
      if (namesAnInput(job.file.output, rules)) {
        throw InputError(job.file.output.string() +
                         " is an input tile and would be overwritten: give another output "
                         "folder, or --in-place to rewrite the tiles");
      }
      if (!overwrite && std::filesystem::exists(job.file.output)) {
        throw OutputExistsError(job.file.output.string() +
                                " exists and would be replaced; give a new output folder, or "
                                "pass --overwrite to replace it");
      }
    }
    plan.jobs.push_back(std::move(job));
  }
  // Neighbours by header bounds; each tile's run reads about its own points and the neighbours'
  // share inside its buffer (points spread evenly over a neighbour's bounds).
  for (size_t i = 0; i < plan.jobs.size(); ++i) {
    TileClassificationJob& job = plan.jobs[i];
    const Box3d area = buffered(job.bounds, buffer);
    double points = double(job.pointCount);
    for (size_t j = 0; j < plan.jobs.size(); ++j) {
      if (j == i || !meetsInPlane(area, plan.jobs[j].bounds)) continue;
      job.neighbours.push_back(j);
      const Box3d& other = plan.jobs[j].bounds;
      const double otherArea = overlapArea(other, other);
      points += otherArea > 0.0 ? double(plan.jobs[j].pointCount) *
                                      std::min(1.0, overlapArea(area, other) / otherArea)
                                : double(plan.jobs[j].pointCount);
    }
    job.windowPoints = uint64_t(points);
    job.file.inputBytes = job.windowPoints;
  }
  return plan;
}

std::vector<TileJob> rankWeights(const TiledClassificationPlan& plan) {
  std::vector<TileJob> jobs;
  for (const TileClassificationJob& job : plan.jobs) jobs.push_back(job.file);
  return jobs;
}

uint64_t classificationBytes(uint64_t points, const Box3d& bounds,
                             const ClassifySettings& settings) {
  uint64_t bytes = points * kBytesPerPoint;
  if (settings.ground && !bounds.empty()) {
    const double cell = settings.groundFilter.cell;
    const double cells = (std::ceil((bounds.max.x - bounds.min.x) / cell) + 2.0) *
                         (std::ceil((bounds.max.y - bounds.min.y) / cell) + 2.0);
    bytes += uint64_t(cells) * kBytesPerCell;
  }
  return bytes;
}

uint64_t tileClassificationBytes(const TileClassificationJob& job, const ClassifySettings& settings,
                                 double buffer) {
  return classificationBytes(job.windowPoints, buffered(job.bounds, buffer), settings);
}

std::optional<std::vector<uint8_t>> classifyDatasetTile(const TiledClassificationPlan& plan,
                                                        const std::string& tile,
                                                        const ClassifySettings& settings,
                                                        const PointClassifier& classifier,
                                                        const std::atomic<bool>* cancel) {
  checkClassifySettings(settings);
  // The plan's inputs are usually the very strings its callers name tiles by: those compare
  // as they are, and a file named otherwise (relative, with "..") by its absolute normal path.
  const auto& jobs = plan.jobs;
  auto at = std::find_if(jobs.begin(), jobs.end(),
                         [&](const TileClassificationJob& job) { return job.file.input == tile; });
  if (at == jobs.end()) {
    const auto normal = [](const std::string& path) {
      return std::filesystem::absolute(path).lexically_normal();
    };
    const std::filesystem::path wanted = normal(tile);
    at = std::find_if(jobs.begin(), jobs.end(), [&](const TileClassificationJob& job) {
      return normal(job.file.input) == wanted;
    });
  }
  if (at == jobs.end()) return std::nullopt;
  TileClassificationOutcome outcome;
  return classifyOwnRecords(plan, size_t(at - jobs.begin()), settings, classifier, cancel, outcome);
}

std::vector<TileClassificationOutcome> classifyTiles(const TiledClassificationPlan& plan,
                                                     std::span<const size_t> which,
                                                     const ClassifySettings& settings,
                                                     const TiledClassificationOptions& options) {
  checkClassifySettings(settings);
  const size_t count = which.size();
  std::vector<TileClassificationOutcome> outcomes(count);
  if (count == 0) return outcomes;

  const unsigned cores = workerCount();
  const uint64_t budget = options.memoryBytes ? options.memoryBytes : machineMemoryBytes() / 2;
  uint64_t largest = 1;
  for (const size_t job : which) {
    largest = std::max(largest, tileClassificationBytes(plan.jobs[job], settings, plan.buffer));
  }
  // One tile's run each; a budget below one run still classifies, one tile at a time.
  const uint64_t lanesByMemory = std::max<uint64_t>(1, budget / largest);
  const unsigned lanes = unsigned(std::min<uint64_t>({cores, count, lanesByMemory}));
  const uint64_t laneBytes = budget / lanes;

  std::atomic<size_t> next{0};
  std::atomic<size_t> finished{0};
  std::atomic<unsigned> lanesRunning{lanes};
  // Each lane's write, so that a cancel reaches the record sink (which then leaves no file).
  std::vector<std::unique_ptr<CopcWriteProgress>> writing(lanes);
  for (auto& w : writing) w = std::make_unique<CopcWriteProgress>();
  const auto cancelled = [&] { return options.cancel && options.cancel->load(); };
  const PointClassifier& classifier =
      options.classifier ? *options.classifier : *cpuPointClassifier();
  const unsigned callerLimit = WorkerLimit::current();
  auto lane = [&](unsigned laneIndex) {
    const WorkerLimit inherited(callerLimit);
    for (;;) {
      if (cancelled()) break;
      const size_t slot = next.fetch_add(1);
      if (slot >= count) break;
      TileClassificationOutcome& outcome = outcomes[slot];
      outcome.job = which[slot];
      // The cores of the tiles still to finish, shared among them (at most one lane each).
      const size_t unfinished = count - finished.load();
      const WorkerLimit limit(
          std::max<unsigned>(1, cores / unsigned(std::min<size_t>(lanes, unfinished))));
      const auto start = std::chrono::steady_clock::now();
      try {
        classifyTile(plan, outcome.job, settings, classifier, laneBytes, *writing[laneIndex],
                     outcome);
        outcome.done = true;
      } catch (const ConversionCancelled&) {
        outcome.error = plan.jobs[outcome.job].file.input + ": cancelled";
      } catch (const std::exception& error) {
        outcome.error = tileError(plan.jobs[outcome.job].file.input, error.what());
      }
      outcome.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ++finished;
    }
    --lanesRunning;
  };
  std::vector<std::thread> threads;
  threads.reserve(lanes);
  for (unsigned l = 0; l < lanes; ++l) threads.emplace_back(lane, l);
  // The caller's thread hands a cancel to the running writes.
  while (lanesRunning > 0) {
    if (cancelled()) {
      for (auto& w : writing) w->cancel = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (std::thread& thread : threads) thread.join();
  if (cancelled()) throw ConversionCancelled("classification cancelled");
  return outcomes;
}

}  // namespace pcv
