/// @brief `pcv classify` without the command line: the points of LAS, LAZ or COPC files
/// classified together (ground, noise) and written back through the record sink with every
/// field but the classification unchanged, to a new file or in place.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/length_unit.hpp"
#include "pcv/process/point_classes.hpp"
#include "pcv/process/point_classifier.hpp"
#include "pcv/session/record_sink.hpp"

namespace pcv {

struct FileClassificationSummary {
  uint64_t points = 0;               ///< points classified (all the inputs')
  uint64_t ground = 0;               ///< of them, set to kClassGround
  uint64_t noise = 0;                ///< of them, set to kClassNoise
  std::vector<std::string> outputs;  ///< files written
  std::string device;                ///< where the filters ran (PointClassifier::classify's ranOn)
  double readSeconds = 0.0;          ///< reading the positions
  double classifySeconds = 0.0;      ///< the filters
  double writeSeconds = 0.0;         ///< the records copied with their new classes
};

/// `settings` for the points of `inputs`: the lengths not `given` (defaults, in metres) in the
/// unit the first input's coordinate system declares (feet, US survey feet), metres where it
/// declares none; `unit` (may be null) receives that unit. Throws InputError for geographic
/// coordinates (degrees), where the filters' lengths mean nothing.
ClassifySettings settingsForFiles(const std::vector<std::string>& inputs,
                                  const ClassifySettings& settings, const GivenLengths& given,
                                  LengthUnit* unit = nullptr);

/// `source`'s records with record i's class merged (mergedClass) with classes[first + i], every
/// other bit unchanged; a record past the classes (a file that grew since it was read) is an
/// Error.
PointRecordSource classifiedRecords(PointRecordSource source,
                                    std::shared_ptr<const std::vector<uint8_t>> classes,
                                    uint64_t first, const ClassifySettings& settings);

/// Classifies the points of `inputs` as one set (tiles side by side get no seam) and writes
/// them, merged in order, to `output` through writePointRecords under `sink` (whose inputs are
/// set to `inputs`): each point's class becomes mergedClass(its class, the one found), every
/// other bit of every record stays as it was. The ground filter's grid is the one the inputs'
/// header bounds fix (groundGridWindow), as when the same points are classified tile by tile
/// (tiled_classification.hpp). The output is checked before anything is read.
/// Throws InputError (settings, no points, an unreadable input), OutputExistsError.
/// `classifier` (null: the CPU's) runs the filters.
FileClassificationSummary classifyFilesTo(
    const std::vector<std::string>& inputs, const std::string& output,
    const ClassifySettings& settings, RecordSinkOptions sink = {},
    std::shared_ptr<const PointClassifier> classifier = nullptr);

/// The same, each input rewritten with its own points (still classified as one set), in its own
/// format, through a temporary file renamed over it once complete: a failure or an interrupted
/// write leaves the input as it was.
FileClassificationSummary classifyFilesInPlace(
    const std::vector<std::string>& inputs, const ClassifySettings& settings,
    std::shared_ptr<const PointClassifier> classifier = nullptr);

}  // namespace pcv
