/// @brief What every format reader receives (the file's name for messages, progress, options)
/// and returns (the cloud and how to describe the file), and the one wording of their errors:
/// file, byte offset or line, and what was expected there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::io {

/// A reader's result: the cloud and how to describe the file.
struct ReadResult {
  PointCloud cloud;
  std::string format;                 ///< "PLY", "LAS" ...
  std::string details;                ///< version, encoding, point format
  Box3d worldBounds;                  ///< of the decoded double coordinates, finite points only
  std::vector<std::string> notes;     ///< FileSummary::notes
  std::vector<std::string> warnings;  ///< FileSummary::warnings
  uint64_t missingPoints = 0;         ///< FileSummary::missingPoints
  CoordinateSystem crs;               ///< FileSummary::crs
  /// Header-only reads (ReadOptions::headerOnly): what the header declares. The cloud is empty
  /// but for its attribute names and hasColor.
  struct Declared {
    uint64_t points = 0;
    bool pointsKnown = true;  ///< false where the format has no count (text)
    Box3d worldBounds;        ///< empty when the header has none
  };
  std::optional<Declared> declared;
};

/// Where a reader reports progress and errors.
struct ReadContext {
  std::string file;                      ///< path, for messages
  LoadProgress* progress = nullptr;      ///< may be null
  const ReadOptions* options = nullptr;  ///< what to read; null reads everything

  /// Only the header is wanted (ReadOptions::headerOnly).
  bool headerOnly() const { return options && options->headerOnly; }
  /// A file cut short is refused rather than read as far as it goes (ReadOptions::strict).
  bool strict() const { return options && options->strict; }
  /// Fails with OutOfMemoryError naming the file and the sizes when `points` points with
  /// `attributes` scalar attributes cannot fit in the host memory available.
  void requireMemoryForPoints(uint64_t points, size_t attributes) const;

  [[noreturn]] void failAt(uint64_t byteOffset, const std::string& what) const;
  [[noreturn]] void failAtLine(uint64_t line, const std::string& what) const;
  [[noreturn]] void fail(const std::string& what) const;
  /// Adds parsed bytes to the progress and throws LoadCancelled when the UI asked to stop.
  void advance(uint64_t bytes) const;
  /// Sets the progress to `bytes` parsed (readers that know their position, not a delta).
  void reachedByte(uint64_t bytes) const;
};

}  // namespace pcv::io
