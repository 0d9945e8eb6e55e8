#include "text_rows.hpp"

#include <algorithm>
#include <cmath>

#include "common/color_values.hpp"

namespace pcv::io {

TextRowAssembler::TextRowAssembler(TextColumns columns) : columns_(std::move(columns)) {
  for (auto& name : columns_.attributeNames) cloud_.attributes.push_back({name, {}});
  for (size_t c = 0; c < columns_.roles.size(); ++c) {
    const FieldRole role = columns_.roles[c];
    if (role == FieldRole::Red || role == FieldRole::Green || role == FieldRole::Blue) {
      hasChannels_ = true;
      channelType_ = columns_.types[c];
    }
    if (role == FieldRole::PackedRgb) hasPacked_ = true;
  }
}

void TextRowAssembler::reserve(uint64_t points) {
  cloud_.points.reserve(points);
  if (hasChannels_) channels_.reserve(points * 4);
  for (auto& attribute : cloud_.attributes) attribute.values.reserve(points);
}

void TextRowAssembler::addRow(const double* values) {
  glm::dvec3 p(0.0);
  float channel[4] = {0.0f, 0.0f, 0.0f, 255.0f};
  uint32_t packedColor = packRgba(255, 255, 255);
  for (size_t c = 0; c < columns_.roles.size(); ++c) {
    const double v = values[c];
    switch (columns_.roles[c]) {
      case FieldRole::X:
      case FieldRole::Y:
      case FieldRole::Z:
        p[int(columns_.roles[c])] = v;
        break;
      case FieldRole::Red:
      case FieldRole::Green:
      case FieldRole::Blue: {
        // Signed 8-bit channels hold the byte's bits.
        const double value = (columns_.types[c] == ScalarType::Int8 && v < 0) ? v + 256.0 : v;
        channel[int(columns_.roles[c]) - int(FieldRole::Red)] = float(value);
        channelMax_ = std::max(channelMax_, value);
        break;
      }
      case FieldRole::PackedRgb:
        packedColor = rgbFromPacked(packedColorBits(v, columns_.types[c]));
        break;
      case FieldRole::Attribute:
        cloud_.attributes[columns_.attributeOfColumn[c]].values.push_back(float(v));
        break;
      default:
        break;
    }
  }
  const bool finite = std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
  if (finite) worldBounds_.extend(p);
  if (!haveOrigin_ && finite) {
    cloud_.origin = originNear(p);
    haveOrigin_ = true;
  }
  // Rows before the first finite one are not finite: their offsets are dropped later anyway.
  const glm::dvec3 local = p - cloud_.origin;
  cloud_.points.push_back({float(local.x), float(local.y), float(local.z), packedColor});
  if (hasChannels_) channels_.insert(channels_.end(), channel, channel + 4);
}

PointCloud TextRowAssembler::finish() {
  if (hasChannels_) {
    const double scale = colorScaleFor(channelType_, channelMax_);
    for (size_t i = 0; i < cloud_.points.size(); ++i) {
      const float* c = &channels_[i * 4];
      cloud_.points[i].rgba =
          packRgba(channelByte(c[0], scale), channelByte(c[1], scale), channelByte(c[2], scale));
    }
  }
  cloud_.hasColor = hasChannels_ || hasPacked_;
  channels_ = {};
  return std::move(cloud_);
}

}  // namespace pcv::io
