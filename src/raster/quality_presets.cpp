#include "pcv/raster/quality_presets.hpp"

namespace pcv {
namespace {

const QualityPreset kPresets[] = {
    {"base", [](QualitySettings&) {}},
    {"size2", [](QualitySettings& q) { q.pointSizePx = 2; }},
    {"size3", [](QualitySettings& q) { q.pointSizePx = 3; }},
    {"round3",
     [](QualitySettings& q) {
       q.pointSizePx = 3;
       q.shape = PointShape::Round;
     }},
    {"size8", [](QualitySettings& q) { q.pointSizePx = 8; }},
    {"round8",
     [](QualitySettings& q) {
       q.pointSizePx = 8;
       q.shape = PointShape::Round;
     }},
    {"size16", [](QualitySettings& q) { q.pointSizePx = 16; }},
    {"world",
     [](QualitySettings& q) {
       q.sizeMode = PointSizeMode::World;
       q.worldSize = 0.005f;
     }},
    {"world-large",
     [](QualitySettings& q) {
       q.sizeMode = PointSizeMode::World;
       q.worldSize = 0.01f;
     }},
    {"fill1", [](QualitySettings& q) { q.fillRadiusPx = 1; }},
    {"fill2", [](QualitySettings& q) { q.fillRadiusPx = 2; }},
    {"fill4", [](QualitySettings& q) { q.fillRadiusPx = 4; }},
    {"edl", [](QualitySettings& q) { q.edl = EdlMode::On; }},
    {"edl-r2",
     [](QualitySettings& q) {
       q.edl = EdlMode::On;
       q.edlRadiusPx = 2;
     }},
    {"edl-r3-strong",
     [](QualitySettings& q) {
       q.edl = EdlMode::On;
       q.edlRadiusPx = 3;
       q.edlStrength = 2.0f;
     }},
    {"hq", [](QualitySettings& q) { q.highQuality = true; }},
    {"gradient",
     [](QualitySettings& q) {
       q.backgroundGradient = true;
       q.backgroundTop = packRgba(40, 60, 90);
     }},
    {"all",
     [](QualitySettings& q) {
       q.pointSizePx = 2;
       q.fillRadiusPx = 2;
       q.edl = EdlMode::On;
       q.highQuality = true;
     }},
    {"all-round",
     [](QualitySettings& q) {
       q.pointSizePx = 3;
       q.shape = PointShape::Round;
       q.fillRadiusPx = 3;
       q.edl = EdlMode::On;
       q.highQuality = true;
       q.backgroundGradient = true;
     }},
};

}  // namespace

std::span<const QualityPreset> qualityPresets() {
  return kPresets;
}

std::vector<std::string> qualityPresetNames() {
  std::vector<std::string> names;
  for (const QualityPreset& preset : kPresets) names.emplace_back(preset.name);
  return names;
}

}  // namespace pcv
