/// @brief "Export the selection": the points of files, folders and datasets that a clip region
/// and point filters keep, as LAS records at full resolution (each record written as stored).
/// Only what can meet the clip box and polygon is read: of a COPC file the nodes whose cubes
/// meet them, of a dataset the tiles whose bounds do. `pcv convert --clip-box ... --classes ...` and the
/// viewer's "Export selection..." both write through here.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/brush_selection.hpp"
#include "pcv/core/profile_line_selection.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/record_selection.hpp"
#include "pcv/raster/clip_settings.hpp"

namespace pcv {

struct PointSelection {
  ClipSettings clip;   ///< box and slab, kept inside or outside (world coordinates); polygon
  PointFilter filter;  ///< classes, returns, attribute ranges
  /// A brush stroke painted in the viewer: only the points under it (and in the clip region,
  /// passing the filters) are selected.
  std::optional<BrushSelection> brush;
  /// A line drawn in a profile: only the points of its corridor above or below it.
  std::optional<ProfileLineSelection> profileLine;

  bool active() const {
    return clip.active() || filter.active() || brush.has_value() || profileLine.has_value();
  }
};

/// Whether a world position is in what the selection's regions keep: the clip region, the
/// brush stroke, the profile line (the filters are tested on attributes apart).
bool selectionKeepsPosition(const PointSelection& selection, const glm::dvec3& world);

/// Whether `input` names a dataset: a folder, or a .vpc file (local or a URL).
bool namesDatasetFolderOrVpc(const std::string& input);
/// The files behind `inputs`: folders and .vpc files stand for their tiles (whose headers are
/// read to list them); other inputs are kept as they are. Throws InputError.
std::vector<std::string> filesOfInputs(const std::vector<std::string>& inputs);

/// Whether a world position is in what `clip` keeps: the renderer's rule, tested in double.
bool clipKeeps(const ClipSettings& clip, const glm::dvec3& world);

/// The predicate of the whole selection. Throws InputError (a bad clip region, a range over an
/// attribute LAS records lack).
RecordPredicate selectionPredicate(const PointSelection& selection);

/// The box outside of which nothing is kept (the clip box when kept inside), for reading only
/// the nodes and tiles that meet it; empty when points anywhere may be kept.
std::optional<Box3d> selectionRegion(const ClipSettings& clip);
/// Whether a box (a file's bounds, a COPC node's cube) may hold kept points: it meets the box
/// of selectionRegion and the slab, and the polygon may meet it (each kept inside). Empty when
/// points anywhere may be kept.
RegionTest selectionRegionTest(const ClipSettings& clip);
/// The same for a whole selection: its brush stroke and profile line too.
RegionTest selectionRegionTest(const PointSelection& selection);
/// Whether a box may hold points any of `regions` keeps; an empty region keeps points anywhere,
/// no region none. Never empty itself (a test to call as it is).
RegionTest anyRegionTest(std::vector<RegionTest> regions);

/// The records of `inputs` (LAS, LAZ, COPC files; folders and .vpc stand for their tiles; other
/// formats are read whole) that `selection` keeps, merged in order; `pointFormat` >= 0
/// re-encodes them. `exactCount`: pointCount() is exact (a first pass counts; COPC needs it).
/// `pointsRead` (may be null): counts the records read of the inputs, kept or not.
PointRecordSource selectedFileRecords(const std::vector<std::string>& inputs, int pointFormat,
                                      const PointSelection& selection, bool exactCount,
                                      std::atomic<uint64_t>* pointsRead = nullptr);

struct ExportSummary {
  uint64_t points = 0;  ///< written
  int pointFormat = 0;
  std::string format;  ///< "LAS", "LAZ" or "COPC"
};

/// Writes what `selection` keeps of `inputs` to `output` (.las, .laz or .copc.laz by its name)
/// through writePointRecords: an existing file is replaced only where `rules` allow, an input
/// never. `progress` (may be null): pointsRead counts the records read of the inputs towards
/// pointsTotal (an upper bound), pointsWritten those kept; its cancel flag stops the export with
/// ConversionCancelled, leaving no file. Throws InputError, OutputExistsError.
ExportSummary exportSelection(const std::vector<std::string>& inputs, const std::string& output,
                              const PointSelection& selection,
                              CopcWriteProgress* progress = nullptr,
                              const OutputRules& rules = {.existing = ExistingOutput::Replace});

}  // namespace pcv
