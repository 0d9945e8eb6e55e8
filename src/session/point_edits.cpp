// Edits evaluated in one pass over a file's records: each record is copied, the edits run on
// the copy in order (each one's selection tests the record as the edits before it left it), and
// a record whose class or withheld flag ends up different from the file's becomes a change.
#include "pcv/session/point_edits.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <numeric>
#include <optional>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/uninitialized_vector.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/io/record_selection.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/process/point_classes.hpp"
#include "pcv/session/classifier_choice.hpp"

namespace pcv {
namespace {

/// Records read at a time: a stream of LAZ or COPC decodes a batch's whole chunks on all cores
/// at once, so a batch holds a chunk of up to 128 Ki points for every worker (a COPC node holds
/// up to 100 000 by default); smaller batches left most cores idle.
uint64_t editBatch() {
  return std::max<uint64_t>(uint64_t(1) << 18, uint64_t(workerCount()) << 17);
}
/// Sorts after every real index: "no change" in a batch's slot.
constexpr uint64_t kNoChange = ~0ull;

/// The record's class and withheld flag as its format stores them.
uint32_t classOf(const uint8_t* record, bool extended) {
  return extended ? record[16] : record[kRecordFlagsByte] & 0x1Fu;
}
bool withheldOf(const uint8_t* record, bool extended) {
  return (record[kRecordFlagsByte] >> (extended ? 2 : 7)) & 1;
}

RecordChange actionChange(const PointEdit& edit) {
  switch (edit.action) {
    case EditAction::Classify:
      return {};  // the class found for each point (EditPass)
    case EditAction::SetClass:
      return {.classification = int16_t(edit.classification)};
    case EditAction::Delete:
      return {.withheld = 1};
    case EditAction::Restore:
      return {.withheld = 0};
  }
  return {};
}

}  // namespace

void validateEdit(const PointEdit& edit) {
  if (edit.action == EditAction::SetClass && edit.classification > 255) {
    throw InputError("class " + std::to_string(edit.classification) +
                     " is not a LAS class: expected 0-255 (point formats 0-5 hold 0-31)");
  }
  if (edit.action == EditAction::Classify) checkClassifySettings(edit.classify);
  selectionPredicate(edit.selection);  // throws for a bad region or range
}

void checkEditsFit(const std::string& file, int pointFormat, std::span<const PointEdit> edits) {
  for (const PointEdit& edit : edits) {
    if (edit.action == EditAction::SetClass && edit.classification > maxClassOf(pointFormat)) {
      throw InputError(file + ": class " + std::to_string(edit.classification) +
                       " does not fit LAS point format " + std::to_string(pointFormat) +
                       ", which holds classes 0-" + std::to_string(maxClassOf(pointFormat)) +
                       " (formats 6-10 hold 0-255)");
    }
  }
}

std::span<const RecordChange> FileChanges::in(uint64_t first, uint64_t count) const {
  const auto byIndex = [](const RecordChange& change, uint64_t index) {
    return change.index < index;
  };
  const auto begin = std::lower_bound(changes_.begin(), changes_.end(), first, byIndex);
  const auto end = std::lower_bound(begin, changes_.end(), first + count, byIndex);
  return {begin, end};
}

void FileChanges::merge(std::span<const RecordChange> newer) {
  if (newer.empty()) return;
  if (changes_.empty() || changes_.back().index < newer.front().index) {
    changes_.insert(changes_.end(), newer.begin(), newer.end());
    return;
  }
  std::vector<RecordChange> merged;
  merged.reserve(changes_.size() + newer.size());
  size_t a = 0, b = 0;
  while (a < changes_.size() || b < newer.size()) {
    if (b == newer.size() || (a < changes_.size() && changes_[a].index < newer[b].index)) {
      merged.push_back(changes_[a++]);
    } else if (a == changes_.size() || newer[b].index < changes_[a].index) {
      merged.push_back(newer[b++]);
    } else {
      RecordChange both = changes_[a++];
      const RecordChange& over = newer[b++];
      if (over.classification >= 0) both.classification = over.classification;
      if (over.withheld >= 0) both.withheld = over.withheld;
      merged.push_back(both);
    }
  }
  changes_ = std::move(merged);
}

/// What all the edits' selections may meet: of a COPC file only those nodes are read, of a
/// dataset's tile nothing when its bounds miss them. Empty when an edit may select anywhere.
RegionTest editsRegion(std::span<const PointEdit> edits) {
  std::vector<RegionTest> tests;
  for (const PointEdit& edit : edits) {
    RegionTest test = selectionRegionTest(edit.selection);
    if (!test) return {};
    tests.push_back(std::move(test));
  }
  if (tests.empty()) return {};
  return [tests](const Box3d& box) {
    for (const RegionTest& test : tests) {
      if (test(box)) return true;
    }
    return false;
  };
}

namespace {

/// One pass over a file's records with the first `editCount` edits applied to a copy of each, in
/// order. The visitor hears each batch begin (beginBatch(count)), every record of it on several
/// threads at once (record(position in the batch, index in the file, edited, original, format)),
/// and the batch end (endBatch()).
class EditPass {
 public:
  EditPass(const std::filesystem::path& path, std::span<const PointEdit> edits,
           std::span<const FoundClasses* const> found, const std::atomic<bool>* cancel)
      : path_(path), edits_(edits), found_(found), cancel_(cancel) {
    for (const PointEdit& edit : edits) {
      selects_.push_back(edit.selection.active() ? selectionPredicate(edit.selection)
                                                 : RecordPredicate{});
      actions_.push_back(actionChange(edit));
    }
  }

  /// Returns the records read; `format` receives the file's. The visitor sees the edits
  /// [0, editCount) applied; `selected[e]` counts the records edit e selected.
  template <typename Visitor>
  uint64_t run(size_t editCount, Visitor& visitor, LasWriteFormat& format, RecordRuns& runs,
               std::vector<uint64_t>& selected) const {
    runs = {};
    const std::unique_ptr<PointRecordStream> stream =
        openLasRecords(path_, editsRegion(edits_), runs);
    format = stream->format();
    checkEditsFit(path_.string(), format.pointFormat, edits_);
    const int pointFormat = format.pointFormat;
    const bool extended = pointFormat >= 6;
    const uint64_t length = format.recordLength;
    std::vector<std::atomic<uint64_t>> counts(editCount);
    UninitializedVector<uint64_t> indices;
    size_t run = 0;
    uint64_t inRun = 0, read = 0;
    const uint8_t* batch = nullptr;
    for (uint64_t count; (count = stream->next(editBatch(), batch)) > 0;) {
      if (cancel_ && cancel_->load()) {
        throw ConversionCancelled("the edit of " + path_.string() + " was interrupted");
      }
      // The batch's records as pieces of the runs ({first in the batch, first in the file}),
      // then each record's index in the file, on all cores.
      std::vector<std::pair<uint64_t, uint64_t>> pieces;
      for (uint64_t placed = 0; placed < count;) {
        while (run < runs.runs.size() && inRun == runs.runs[run].second) {
          ++run;
          inRun = 0;
        }
        if (run == runs.runs.size()) throw Error(path_.string() + ": more records than its runs");
        const uint64_t taken = std::min(count - placed, runs.runs[run].second - inRun);
        pieces.emplace_back(placed, runs.runs[run].first + inRun);
        placed += taken;
        inRun += taken;
      }
      indices.resize(count);
      parallelFor(count, [&](uint64_t begin, uint64_t end) {
        size_t piece =
            size_t(std::upper_bound(pieces.begin(), pieces.end(), std::pair{begin, ~uint64_t(0)}) -
                   pieces.begin()) -
            1;
        for (uint64_t i = begin; i < end; ++i) {
          if (piece + 1 < pieces.size() && i == pieces[piece + 1].first) ++piece;
          indices[i] = pieces[piece].second + (i - pieces[piece].first);
        }
      });
      const LasWriteFormat& f = format;
      visitor.beginBatch(count);
      parallelFor(
          count,
          [&](uint64_t begin, uint64_t end) {
            std::vector<uint8_t> record(length);
            std::vector<uint64_t> mine(editCount, 0);
            for (uint64_t i = begin; i < end; ++i) {
              const uint8_t* original = batch + i * length;
              std::memcpy(record.data(), original, length);
              for (size_t e = 0; e < editCount; ++e) {
                if (selects_[e] && !selects_[e](decodeRecordPoint(record.data(), f))) continue;
                ++mine[e];
                if (edits_[e].action == EditAction::Classify) {
                  const std::optional<uint8_t> found = found_[e]->of(indices[i]);
                  if (!found) {
                    throw Error(path_.string() +
                                ": the file changed while its edits were evaluated");
                  }
                  const uint8_t merged = mergedClass(uint8_t(classOf(record.data(), extended)),
                                                     *found, edits_[e].classify);
                  applyRecordChange(record.data(), pointFormat,
                                    {.classification = int16_t(merged)});
                } else {
                  applyRecordChange(record.data(), pointFormat, actions_[e]);
                }
              }
              visitor.record(i, indices[i], record.data(), original, f);
            }
            for (size_t e = 0; e < editCount; ++e) counts[e] += mine[e];
          },
          1 << 12);
      visitor.endBatch();
      read += count;
    }
    selected.assign(counts.begin(), counts.end());
    return read;
  }

 private:
  std::filesystem::path path_;
  std::span<const PointEdit> edits_;
  std::span<const FoundClasses* const> found_;  ///< by edit: a Classify edit's
  const std::atomic<bool>* cancel_;
  std::vector<RecordPredicate> selects_;
  std::vector<RecordChange> actions_;
};

/// Gathers the world positions of the records an edit selects (a Classify edit's points).
class SelectedPositions {
 public:
  explicit SelectedPositions(const PointEdit& edit)
      : selects_(edit.selection.active() ? selectionPredicate(edit.selection) : RecordPredicate{}) {
  }
  void beginBatch(uint64_t count) { batch_.assign(count, std::nullopt); }
  void record(uint64_t i, uint64_t index, const uint8_t* record, const uint8_t*,
              const LasWriteFormat& format) {
    const RecordPoint point = decodeRecordPoint(record, format);
    if (!selects_ || selects_(point)) batch_[i] = std::pair{index, point.world};
  }
  void endBatch() {
    for (const auto& entry : batch_) {
      if (entry) points.push_back(*entry);
    }
  }
  std::vector<std::pair<uint64_t, glm::dvec3>> points;

 private:
  RecordPredicate selects_;
  std::vector<std::optional<std::pair<uint64_t, glm::dvec3>>> batch_;
};

/// Gathers the records whose class or withheld flag the edits changed.
class ChangedRecords {
 public:
  void beginBatch(uint64_t count) { batch_.resize(count); }  // record() writes every slot
  void record(uint64_t i, uint64_t index, const uint8_t* record, const uint8_t* original,
              const LasWriteFormat& format) {
    const bool extended = format.pointFormat >= 6;
    RecordChange change{.index = index};
    if (classOf(record, extended) != classOf(original, extended)) {
      change.classification = int16_t(classOf(record, extended));
    }
    if (withheldOf(record, extended) != withheldOf(original, extended)) {
      change.withheld = int8_t(withheldOf(record, extended));
    }
    if (change.classification < 0 && change.withheld < 0) change.index = kNoChange;
    batch_[i] = change;
  }
  void endBatch() {
    // The changes kept in batch order, on all cores.
    parallelKeepInOrder(
        batch_.size(), [&](uint64_t i) { return batch_[i].index != kNoChange; },
        [&](uint64_t total) { batchChanges_.resize(total); },
        [&](uint64_t i, uint64_t rank) { batchChanges_[rank] = batch_[i]; });
    // In file order already where the stream reads its chunks in file order (it does); sorted
    // where not.
    const auto byIndex = [](const RecordChange& a, const RecordChange& b) {
      return a.index < b.index;
    };
    if (!std::is_sorted(batchChanges_.begin(), batchChanges_.end(), byIndex)) {
      std::sort(batchChanges_.begin(), batchChanges_.end(), byIndex);
    }
    changes.merge(batchChanges_);
  }
  FileChanges changes;

 private:
  UninitializedVector<RecordChange> batch_, batchChanges_;
};

/// Classifies the points edits[k] selects with the edits before it applied (`pass` runs them);
/// every point of a tile of `dataset` (may be null) with its neighbours' points.
FoundClasses findClasses(const EditPass& pass, std::span<const PointEdit> edits, size_t k,
                         const std::filesystem::path& path, const std::atomic<bool>* cancel,
                         const TiledClassificationPlan* dataset) {
  if (dataset && !edits[k].selection.active()) {
    // Every record, whatever the edits before left (a selection of every point holds all).
    std::optional<std::vector<uint8_t>> classes = classifyDatasetTile(
        *dataset, path.string(), edits[k].classify, *choosePointClassifier("auto"), cancel);
    if (classes) {
      FoundClasses found;
      found.indices.resize(classes->size());
      std::iota(found.indices.begin(), found.indices.end(), uint64_t(0));
      found.classes = std::move(*classes);
      return found;
    }
  }
  LasWriteFormat format;
  RecordRuns runs;
  std::vector<uint64_t> selected;
  SelectedPositions gathered(edits[k]);
  pass.run(k, gathered, format, runs, selected);
  std::sort(gathered.points.begin(), gathered.points.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  FoundClasses found;
  std::vector<glm::dvec3> positions;
  positions.reserve(gathered.points.size());
  found.indices.reserve(gathered.points.size());
  for (const auto& [index, world] : gathered.points) {
    found.indices.push_back(index);
    positions.push_back(world);
  }
  // No point selected in this file: nothing to classify (and no error).
  if (!positions.empty()) {
    found.classes = choosePointClassifier("auto")->classify(positions, edits[k].classify);
  }
  return found;
}

std::string fileKey(const std::string& file) {
  return std::filesystem::absolute(file).lexically_normal().string();
}

}  // namespace

std::optional<uint8_t> FoundClasses::of(uint64_t index) const {
  const auto at = std::lower_bound(indices.begin(), indices.end(), index);
  if (at == indices.end() || *at != index) return std::nullopt;
  return classes[size_t(at - indices.begin())];
}

void FoundFileClasses::add(const std::string& file, FoundClasses found) {
  byFile_[fileKey(file)] = std::move(found);
}

const FoundClasses* FoundFileClasses::of(const std::string& file) const {
  const auto at = byFile_.find(fileKey(file));
  return at == byFile_.end() ? nullptr : &at->second;
}

uint64_t FoundFileClasses::bytes() const {
  uint64_t total = 0;
  for (const auto& [file, found] : byFile_) total += found.bytes();
  return total;
}

FoundClasses findEditClasses(const std::filesystem::path& path, std::span<const PointEdit> edits,
                             size_t k, const std::atomic<bool>* cancel,
                             const TiledClassificationPlan* dataset) {
  if (k >= edits.size() || edits[k].action != EditAction::Classify) {
    throw Error("findEditClasses: edit " + std::to_string(k) + " is not a Classify edit");
  }
  // The edits before k meet no Classify edit without its classes: those are found first.
  std::vector<FoundClasses> earlier(k);
  std::vector<const FoundClasses*> found(k + 1, nullptr);
  const EditPass pass(path, edits.first(k + 1), found, cancel);
  for (size_t e = 0; e < k; ++e) {
    if (edits[e].action != EditAction::Classify) continue;
    const FoundClasses* ahead = edits[e].found ? edits[e].found->of(path.string()) : nullptr;
    if (!ahead) {
      earlier[e] = findClasses(pass, edits, e, path, cancel, dataset);
      ahead = &earlier[e];
    }
    found[e] = ahead;
  }
  return findClasses(pass, edits, k, path, cancel, dataset);
}

std::optional<TiledClassificationPlan> classificationDataset(const std::vector<std::string>& files,
                                                             std::span<const PointEdit> edits) {
  double buffer = -1.0;
  for (const PointEdit& edit : edits) {
    if (edit.action == EditAction::Classify && !edit.selection.active()) {
      buffer = std::max(buffer, defaultClassificationBuffer(edit.classify));
    }
  }
  if (buffer < 0.0 || files.size() < 2) return std::nullopt;
  for (const std::string& file : files) {
    if (isRemoteLocation(file)) return std::nullopt;
  }
  try {
    return planTiledClassification(files, {}, buffer, false);
  } catch (const InputError&) {
    // Not one dataset (coordinate systems differ, a header declares no bounds): each file is
    // classified on its own, as files are.
    return std::nullopt;
  }
}

FileEditResult evaluateEdits(const std::filesystem::path& path, std::span<const PointEdit> edits,
                             const std::atomic<bool>* cancel,
                             const TiledClassificationPlan* dataset) {
  // A Classify edit classifies the points its selection holds as the edits before it left
  // them: a pass of those edits gathers their positions first, unless they were found ahead.
  std::vector<FoundClasses> owned(edits.size());
  std::vector<const FoundClasses*> found(edits.size(), nullptr);
  const EditPass pass(path, edits, found, cancel);
  for (size_t k = 0; k < edits.size(); ++k) {
    if (edits[k].action != EditAction::Classify) continue;
    found[k] = edits[k].found ? edits[k].found->of(path.string()) : nullptr;
    if (!found[k]) {
      owned[k] = findClasses(pass, edits, k, path, cancel, dataset);
      found[k] = &owned[k];
    }
  }
  LasWriteFormat format;
  RecordRuns runs;
  std::vector<uint64_t> selected;
  ChangedRecords changed;
  FileEditResult result;
  result.pointsRead = pass.run(edits.size(), changed, format, runs, selected);
  result.changes = std::move(changed.changes);
  result.pointFormat = format.pointFormat;
  result.points = runs.filePoints;
  result.selected = std::move(selected);
  result.changed = result.changes.size();
  return result;
}

}  // namespace pcv
