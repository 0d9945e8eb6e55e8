/// @brief The one way pcv writes point records to a file: LAS, LAZ or COPC by the file's name,
/// through the partial-file guard (nothing half-written, nothing replaced unless asked, never
/// an input). `pcv convert`, the selection export, profiles, `pcv.write` and the COPC cache
/// all write through here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "pcv/core/partial_file.hpp"
#include "pcv/io/copc_writer.hpp"

namespace pcv {

enum class CloudFileKind { Las, Laz, Copc };

/// "*.copc.laz": COPC; "*.laz": LAZ (COPC with `copc`); "*.las": LAS (any case). Throws
/// InputError naming the file and the names accepted otherwise.
CloudFileKind cloudFileKindFor(const std::filesystem::path& path, bool copc = false);

/// "LAS", "LAZ" or "COPC", for reports and messages.
const char* cloudFileKindName(CloudFileKind kind);

struct RecordSinkOptions {
  OutputRules output;            ///< whether an existing file may be replaced; the inputs
  bool copc = false;             ///< COPC whatever the name (which must end in .laz)
  uint32_t chunkPoints = 50000;  ///< LAZ: points per chunk
  CopcWriteOptions copcOptions;  ///< COPC only (its `output` rules are replaced by `output`)
};

struct RecordSinkSummary {
  CloudFileKind kind = CloudFileKind::Las;
  uint64_t points = 0;                   ///< records written
  int pointFormat = 0;                   ///< LAS point format of the file
  std::optional<CopcWriteSummary> copc;  ///< COPC: nodes, levels, phases
};

/// Checks the output (kind from its name, its folder, the rules) without writing: for front
/// ends to call before they read any input. Throws as writePointRecords would.
CloudFileKind checkRecordOutput(const std::filesystem::path& output,
                                const RecordSinkOptions& options);

/// Writes `source`'s records to `output` (opened once for LAS and LAZ; COPC may open it twice).
/// LAS from a stream whose randomAccess() is true is written range by range on all cores, each
/// range at its offset: the same bytes as the stream's batches written in order.
/// `progress` (may be null): pointsTotal, pointsWritten; its cancel flag stops the write with
/// ConversionCancelled, leaving no file. On any failure nothing is left at `output` that was
/// not there before. Throws InputError, OutputExistsError, OutOfMemoryError, Error.
RecordSinkSummary writePointRecords(const PointRecordSource& source,
                                    const std::filesystem::path& output,
                                    const RecordSinkOptions& options = {},
                                    CopcWriteProgress* progress = nullptr);

}  // namespace pcv
