#include "laz_field_choice.hpp"

#include <algorithm>
#include <string>

#include "las/las_point_fields.hpp"

namespace pcv::io {

namespace {

bool anyOf(const RecordLayout& layout, std::initializer_list<const char*> names) {
  for (const std::string& have : layout.attributeNames) {
    for (const char* name : names) {
      if (have == name) return true;
    }
  }
  return false;
}

bool anyWavePacketField(const RecordLayout& layout) {
  for (const LasWavePacketField& field : kLasWavePacketFields) {
    if (anyOf(layout, {field.name})) return true;
  }
  return false;
}

}  // namespace

FieldChoice chooseFields(const LasHeader& header, const ReadOptions* options) {
  FieldChoice choice{.layout = lasRecordLayout(header, options)};
  const RecordLayout& l = choice.layout;
  bool extras = false;
  for (const LasExtraBytes& extra : header.extraBytes)
    extras = extras || anyOf(l, {extra.name.c_str()});
  // Layered chunks: x, y, the return numbers and the scanner channel are in the first layer,
  // always decoded; each other layer only for the fields read from it.
  choice.fields =
      laz::FieldSelection{.classification = anyOf(l, {"classification"}),
                          .flags = anyOf(l, {"synthetic", "key_point", "withheld", "overlap",
                                             "scan_direction", "edge_of_flight_line"}),
                          .intensity = anyOf(l, {"intensity"}),
                          .scanAngle = anyOf(l, {"scan_angle"}),
                          .userData = anyOf(l, {"user_data"}),
                          .pointSource = anyOf(l, {"point_source_id"}),
                          .gpsTime = anyOf(l, {"gps_time"}),
                          .rgb = redOffset(l) >= 0 || anyOf(l, {"red", "green", "blue"}),
                          .nir = anyOf(l, {"nir"}),
                          .wavePacket = anyWavePacketField(l),
                          .extraBytes = extras};
  return choice;
}

int64_t redOffset(const RecordLayout& layout) {
  for (const FieldLayout& field : layout.fields) {
    if (field.role == FieldRole::Red) return int64_t(field.base);
  }
  return -1;
}

}  // namespace pcv::io
