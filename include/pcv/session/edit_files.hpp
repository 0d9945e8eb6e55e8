/// @brief Saving a list of edits into files: which files the inputs stand for and where each
/// is saved (in place, or to a file or folder), every check made before the first file is
/// written, then each file evaluated (evaluateEdits) and saved (saveFileChanges). `pcv edit`
/// and the viewer's Save and Save as both save through here.
#pragma once

#include <atomic>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pcv/core/partial_file.hpp"
#include "pcv/io/record_patch.hpp"
#include "pcv/session/edit_save.hpp"
#include "pcv/session/point_edits.hpp"

namespace pcv {

/// Where edits are saved: into each input, or to `out` (a file for one input, else a folder).
struct EditSaveTarget {
  bool inPlace = false;
  std::string out;
  bool overwrite = false;  ///< an output file that exists is replaced (an input never is)
  /// In place: how each file is written (a viewer streaming the files asks for WholeCopy).
  InPlaceWriting writing = InPlaceWriting::ChangedParts;
};

/// One file to save: where it is read and where it goes.
struct EditFileJob {
  std::string input;
  std::filesystem::path output;
};

/// The jobs of saving `edits` to the files `inputs` stand for (folders and VPCs: their tiles),
/// with the rules their outputs are written under, all checked: outputs of the inputs' kinds
/// that may be written, no URL saved in place, each file's point format able to hold the
/// classes set (a URL's once it is fetched). Throws InputError, OutputExistsError.
struct EditSavePlan {
  std::vector<EditFileJob> jobs;
  OutputRules rules;
  bool inPlace = false;
  InPlaceWriting writing = InPlaceWriting::ChangedParts;
  /// The files as one dataset for the Classify edits of every point (classificationDataset).
  std::optional<TiledClassificationPlan> classificationDataset;
};
EditSavePlan planEditSave(const std::vector<std::string>& inputs, const EditSaveTarget& target,
                          std::span<const PointEdit> edits);

/// What saving one file did.
struct FileEditSaved {
  FileEditResult result;  ///< the evaluation: points, changes, per-edit selections
  bool saved = false;     ///< false in place when nothing changed (the file is left alone)
  RecordPatchSummary patch;
  double evaluateSeconds = 0.0, saveSeconds = 0.0;
};

/// Evaluates and saves one job of `plan`. A file from a URL is fetched into a temporary copy
/// beside its output first. `stop` set stops it with ConversionCancelled, leaving no partial
/// file. Throws InputError, OutputExistsError, Error.
FileEditSaved saveEditedFile(const EditFileJob& job, const EditSavePlan& plan,
                             std::span<const PointEdit> edits, const std::atomic<bool>& stop);

}  // namespace pcv
