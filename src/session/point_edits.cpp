// Edits evaluated in one pass over a file's records: each record is copied, the edits run on
// the copy in order (each one's selection tests the record as the edits before it left it), and
// a record whose class or withheld flag ends up different from the file's becomes a change.
#include "pcv/session/point_edits.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/io/record_selection.hpp"

namespace pcv {
namespace {

/// Records read at a time.
constexpr uint64_t kEditBatch = 1 << 18;
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

FileEditResult evaluateEdits(const std::filesystem::path& path, std::span<const PointEdit> edits,
                             const std::atomic<bool>* cancel) {
  RecordRuns runs;
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path, editsRegion(edits), runs);
  const LasWriteFormat& format = stream->format();
  checkEditsFit(path.string(), format.pointFormat, edits);
  std::vector<RecordPredicate> selects;
  std::vector<RecordChange> actions;
  for (const PointEdit& edit : edits) {
    selects.push_back(edit.selection.active() ? selectionPredicate(edit.selection)
                                              : RecordPredicate{});
    actions.push_back(actionChange(edit));
  }
  FileEditResult result;
  result.pointFormat = format.pointFormat;
  result.points = runs.filePoints;
  const bool extended = format.pointFormat >= 6;
  const uint64_t length = format.recordLength;
  std::vector<std::atomic<uint64_t>> selected(edits.size());
  std::vector<RecordChange> found;
  std::vector<RecordChange> batchChanges;
  std::vector<uint64_t> indices;  ///< of the batch's records in the file
  size_t run = 0;                 ///< the run the next record is in
  uint64_t inRun = 0;             ///< records of it already read
  const uint8_t* batch = nullptr;
  for (uint64_t count; (count = stream->next(kEditBatch, batch)) > 0;) {
    if (cancel && cancel->load()) {
      throw ConversionCancelled("the edit of " + path.string() + " was interrupted");
    }
    found.assign(count, RecordChange{.index = kNoChange});
    indices.resize(count);
    for (uint64_t i = 0; i < count; ++i) {
      while (run < runs.runs.size() && inRun == runs.runs[run].second) {
        ++run;
        inRun = 0;
      }
      if (run == runs.runs.size()) throw Error(path.string() + ": more records than its runs");
      indices[i] = runs.runs[run].first + inRun++;
    }
    parallelFor(
        count,
        [&](uint64_t begin, uint64_t end) {
          std::vector<uint8_t> record(length);
          std::vector<uint64_t> mine(edits.size(), 0);
          for (uint64_t i = begin; i < end; ++i) {
            const uint8_t* original = batch + i * length;
            std::memcpy(record.data(), original, length);
            for (size_t e = 0; e < edits.size(); ++e) {
              if (selects[e] && !selects[e](decodeRecordPoint(record.data(), format))) continue;
              ++mine[e];
              applyRecordChange(record.data(), format.pointFormat, actions[e]);
            }
            RecordChange change{.index = indices[i]};
            if (classOf(record.data(), extended) != classOf(original, extended)) {
              change.classification = int16_t(classOf(record.data(), extended));
            }
            if (withheldOf(record.data(), extended) != withheldOf(original, extended)) {
              change.withheld = int8_t(withheldOf(record.data(), extended));
            }
            if (change.classification >= 0 || change.withheld >= 0) found[i] = change;
          }
          for (size_t e = 0; e < edits.size(); ++e) selected[e] += mine[e];
        },
        1 << 12);
    batchChanges.clear();
    for (const RecordChange& change : found) {
      if (change.index != kNoChange) batchChanges.push_back(change);
    }
    result.changes.merge(batchChanges);
    result.pointsRead += count;
  }
  for (const std::atomic<uint64_t>& count : selected) result.selected.push_back(count);
  result.changed = result.changes.size();
  return result;
}

}  // namespace pcv
