/// @brief Point files as one stream of LAS records, and their conversion to COPC: what `pcv
/// convert` writes and what the commands that stream a file too large to read whole make for the
/// COPC cache. A plain library function with progress counters and a cancel flag: a front end
/// adds only its display of them (a progress bar) and its way to cancel (Ctrl+C).
#pragma once

#include <string>
#include <vector>

#include "pcv/io/copc_writer.hpp"

namespace pcv {

/// The records of `inputs`, merged in order: LAS and LAZ records as stored, other formats read
/// whole and written as records of their own (format 2 with colours, else 0). With
/// `pointFormat` >= 0 every record is re-encoded to it (extra bytes kept). With `region`, LAS and
/// LAZ files read only the nodes and files whose boxes it may meet (openLasRecords): the caller
/// still tests each record. Each call of the source opens the files again (a second pass).
PointRecordSource pointFileRecords(const std::vector<std::string>& inputs, int pointFormat = -1,
                                   const RegionTest& region = {});

/// `stream` re-encoded in point format `format` (extra bytes kept), or as it is for -1 or its
/// own format.
std::unique_ptr<PointRecordStream> recordsInPointFormat(std::unique_ptr<PointRecordStream> stream,
                                                        int format);

/// Writes `inputs`, merged, as the COPC file `output` (the point format picked from theirs),
/// out of core under `options.memoryBytes`; `progress` (may be null) counts as it goes and
/// cancels when its flag is set (ConversionCancelled, nothing left behind). Throws InputError
/// for an input it cannot read.
CopcWriteSummary convertFilesToCopc(const std::vector<std::string>& inputs,
                                    const std::string& output, const CopcWriteOptions& options = {},
                                    CopcWriteProgress* progress = nullptr);

}  // namespace pcv
