/// @brief Which fields of a LAZ file's records pcv reads for a ReadOptions, and which layers of
/// layered chunks that needs decoded: positions always, the attributes ReadOptions::wantsAttribute
/// takes, colours unless refused. Shared by the LAZ reader and COPC node decoding.
#pragma once

#include <cstdint>

#include "las/las_header.hpp"
#include "chunk_decoder.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "common/record_layout.hpp"

namespace pcv::io {

struct FieldChoice {
  RecordLayout layout;
  laz::FieldSelection fields;
};

/// The fields and layers `options` asks for (null: the default ones).
FieldChoice chooseFields(const LasHeader& header, const ReadOptions* options);

/// Byte offset of Red in the records, or -1 when colours are not read.
int64_t redOffset(const RecordLayout& layout);

}  // namespace pcv::io
