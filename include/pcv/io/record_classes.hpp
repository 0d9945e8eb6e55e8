/// @brief Reading the positions of LAS records and rewriting their classification alone: what
/// a classifier needs to label a file's points and write them back with every other bit as it
/// was.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <glm/vec3.hpp>

#include "pcv/io/point_records.hpp"

namespace pcv {

/// The world position (X, Y, Z scaled and offset) of every record `stream` has left, in order;
/// reads the stream to its end.
std::vector<glm::dvec3> recordPositions(PointRecordStream& stream);

/// The classification of record `index` (counted from the stream's first) given its class
/// before; called from several threads at once.
using RecordClassRule = std::function<uint8_t(uint8_t previous, uint64_t index)>;

/// `source`'s records with each classification set by `classOf`, every other bit unchanged
/// (the legacy formats' class flags too). Legacy formats (0-5) hold classes 0-31: a larger class
/// from `classOf` is an InputError naming the class and the format.
std::unique_ptr<PointRecordStream> reclassifyRecords(std::unique_ptr<PointRecordStream> source,
                                                     RecordClassRule classOf);

}  // namespace pcv
