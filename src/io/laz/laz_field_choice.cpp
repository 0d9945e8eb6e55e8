#include "laz_field_choice.hpp"

#include <algorithm>
#include <string>

namespace pcv::io {

namespace {

bool wanted(const ReadOptions* options, const std::string& attribute) {
  if (!options || options->attributes.empty()) return true;
  return std::find(options->attributes.begin(), options->attributes.end(), attribute) !=
         options->attributes.end();
}

}  // namespace

FieldChoice chooseFields(const LasHeader& header, const ReadOptions* options) {
  const RecordLayout full = lasRecordLayout(header);
  FieldChoice choice{.layout = {.bytesPerPoint = full.bytesPerPoint}};
  const bool colours = !options || options->colors;
  for (FieldLayout field : full.fields) {
    if (field.role == FieldRole::Attribute) {
      const std::string& name = full.attributeNames[field.attribute];
      if (!wanted(options, name)) continue;
      field.attribute = int(choice.layout.attributeNames.size());
      choice.layout.attributeNames.push_back(name);
    }
    if ((field.role == FieldRole::Red || field.role == FieldRole::Green ||
         field.role == FieldRole::Blue) &&
        !colours) {
      continue;
    }
    choice.layout.fields.push_back(field);
  }
  // Layered chunks: x, y and the return numbers are in the first layer, always decoded.
  laz::FieldSelection& f = choice.fields;
  f = laz::FieldSelection{.classification = wanted(options, "classification"),
                          .flags = false,
                          .intensity = wanted(options, "intensity"),
                          .scanAngle = false,
                          .userData = false,
                          .pointSource = false,
                          .gpsTime = false,
                          .rgb = colours,
                          .nir = false,
                          .wavePacket = false,
                          .extraBytes = false};
  return choice;
}

int64_t redOffset(const RecordLayout& layout) {
  for (const FieldLayout& field : layout.fields) {
    if (field.role == FieldRole::Red) return int64_t(field.base);
  }
  return -1;
}

}  // namespace pcv::io
