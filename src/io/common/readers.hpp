/// @brief The format readers, one per file: each parses its header, builds the field layout and
/// decodes the points (binary records through the record decoder, text rows through the row
/// assembler). Bytes are the whole file (a memory mapping); every malformed input is an
/// InputError naming the file, the byte or line, and what was expected.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "pcv/io/byte_source.hpp"
#include "read_context.hpp"

namespace pcv::io {

struct LasHeader;

ReadResult readPly(std::span<const uint8_t> bytes, const ReadContext& context);
ReadResult readLas(std::span<const uint8_t> bytes, const ReadContext& context);
/// The same from a source: LAZ and COPC decode chunk by chunk from it, and a header-only read
/// reads the header, the VLRs, the chunk table and the hierarchy only (a remote file's few
/// ranges). A plain LAS file's points need the whole source in memory (ByteSource::whole()).
ReadResult readLas(const ByteSource& source, const ReadContext& context);
/// LAZ and COPC: a LAS file whose header marks its points as LASzip-compressed.
ReadResult readLaz(std::span<const uint8_t> bytes, const LasHeader& header,
                   const ReadContext& context);
ReadResult readLaz(const ByteSource& source, const LasHeader& header, const ReadContext& context);
ReadResult readPcd(std::span<const uint8_t> bytes, const ReadContext& context);
/// E57 (ASTM E2807): src/io/e57/. Every scan, or ReadOptions::scan only.
ReadResult readE57(std::span<const uint8_t> bytes, const ReadContext& context);
/// `extension` lower case with dot (".pts" may have count lines).
ReadResult readText(std::span<const uint8_t> bytes, const ReadContext& context,
                    const std::string& extension);

}  // namespace pcv::io
