/// @brief Edits of points' classes and withheld flags: an edit is a selection (the clip region
/// and filters `pcv render` knows) and an action; what a list of edits does to a file is a
/// sparse change set (record index -> new class, new withheld flag), kept per file and looked
/// up per chunk or node, that the save writes back without rewriting what did not change.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pcv/io/record_patch.hpp"
#include "pcv/process/point_classes.hpp"
#include "pcv/session/selection_export.hpp"
#include "pcv/session/tiled_classification.hpp"

namespace pcv {

enum class EditAction : uint8_t {
  SetClass,  ///< the selected points get PointEdit::classification
  Delete,    ///< the LAS withheld flag set: hidden, kept in the file, dropped by exports
  Restore,   ///< the withheld flag cleared
  /// The selected points classified together (classifyPoints: ground, noise): each gets
  /// mergedClass(its class, the one found), PointEdit::classify saying which filters and how.
  Classify,
};

/// "set-class", "delete", "restore", "classify" (edit_log.cpp: the log's words).
const char* editActionName(EditAction action);

/// The classes a Classify edit found in one file: the records its selection held, by ascending
/// index, and the class found for each.
struct FoundClasses {
  std::vector<uint64_t> indices;
  std::vector<uint8_t> classes;

  /// The class found for record `index`; empty for a record the selection did not hold.
  std::optional<uint8_t> of(uint64_t index) const;
  /// Host memory held.
  uint64_t bytes() const { return indices.size() * (sizeof(uint64_t) + sizeof(uint8_t)); }
};

/// A Classify edit's classes found ahead, file by file: a streamed scene's nodes show them as
/// they decode (a node alone has not the points around it that classifying needs), and a save
/// writes them rather than finding them again.
class FoundFileClasses {
 public:
  void add(const std::string& file, FoundClasses found);
  /// The classes found in `file` (a path as the scene, a source or a save names it), or null.
  const FoundClasses* of(const std::string& file) const;
  uint64_t bytes() const;

 private:
  std::map<std::string, FoundClasses> byFile_;  ///< keyed by the absolute, normal path
};

struct PointEdit {
  PointSelection selection;  ///< the points it changes (an inactive one: every point)
  EditAction action = EditAction::SetClass;
  uint32_t classification = 0;  ///< SetClass only: 0-255 (point formats 0-5 hold 0-31)
  ClassifySettings classify;    ///< Classify only: the filters run, lengths in map units
  /// Classify only: the classes found ahead with the edits before this one applied
  /// (findEditClasses), or null: found when the edit is evaluated. Not logged: a replay finds
  /// them.
  std::shared_ptr<const FoundFileClasses> found;
};

/// Throws InputError naming the value when an edit cannot be applied to any file: a class
/// above 255, a bad clip region, a range over an attribute LAS records lack, bad classify
/// settings.
void validateEdit(const PointEdit& edit);

/// The changes of one file: one entry per record whose class or withheld flag differs from
/// the file's, sorted by record index.
class FileChanges {
 public:
  std::span<const RecordChange> all() const { return changes_; }
  bool empty() const { return changes_.empty(); }
  uint64_t size() const { return changes_.size(); }

  /// The changes of records [first, first + count): a LAZ chunk's or a COPC node's.
  std::span<const RecordChange> in(uint64_t first, uint64_t count) const;

  /// Adds changes (sorted by index); an entry for a record already changed replaces the
  /// fields it sets.
  void merge(std::span<const RecordChange> newer);

 private:
  std::vector<RecordChange> changes_;
};

/// What a list of edits did to one file.
struct FileEditResult {
  FileChanges changes;
  int pointFormat = 0;
  uint64_t points = 0;             ///< records in the file
  uint64_t pointsRead = 0;         ///< of them, those read (the COPC nodes the edits meet)
  std::vector<uint64_t> selected;  ///< per edit: points its selection held when it ran
  uint64_t changed = 0;            ///< records whose bytes differ from the file's
};

/// Applies `edits` in order to the records of the LAS, LAZ or COPC file `path` (in one pass: each
/// edit sees the classes and flags the ones before it left), without writing anything. Where
/// every edit's selection is bounded (a clip box or polygon kept inside), only what may meet
/// them is read: of a COPC file those nodes, of a file whose header bounds miss them nothing.
/// Throws InputError (an unreadable file, a class the file's point format cannot hold).
/// `cancel` (may be null) is polled between batches of records: set, the evaluation stops with
/// ConversionCancelled.
/// With `dataset` (classificationDataset: `path` one of its tiles), a Classify edit whose
/// selection holds every point classifies the file's points with its neighbours' within the
/// buffer, as `pcv classify` classifies a dataset's tile, so that no seam shows at tile edges.
FileEditResult evaluateEdits(const std::filesystem::path& path, std::span<const PointEdit> edits,
                             const std::atomic<bool>* cancel = nullptr,
                             const TiledClassificationPlan* dataset = nullptr);

/// The tiles `files` as one dataset for the Classify edits among `edits` whose selections hold
/// every point (each tile seen with its neighbours' points within the largest of their
/// defaultClassificationBuffer): a plan when there are several local files of one coordinate
/// system whose headers declare their bounds and some such edit, else none (each file is then
/// classified on its own). Reads the files' headers.
std::optional<TiledClassificationPlan> classificationDataset(const std::vector<std::string>& files,
                                                             std::span<const PointEdit> edits);

/// The classes edits[k] (a Classify edit) finds in the file `path`, with the edits before it
/// applied: what evaluateEdits finds for it. Throws as evaluateEdits.
FoundClasses findEditClasses(const std::filesystem::path& path, std::span<const PointEdit> edits,
                             size_t k, const std::atomic<bool>* cancel = nullptr,
                             const TiledClassificationPlan* dataset = nullptr);

/// Throws InputError naming the file when one of `edits` sets a class `pointFormat` cannot hold.
void checkEditsFit(const std::string& file, int pointFormat, std::span<const PointEdit> edits);

}  // namespace pcv
