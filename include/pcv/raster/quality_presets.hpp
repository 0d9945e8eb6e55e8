/// @brief Named rendering-quality presets, one list for the benchmark (`pcv bench
/// --quality-modes`) and the tests that compare the backends mode by mode.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "pcv/raster/quality_settings.hpp"

namespace pcv {

struct QualityPreset {
  const char* name;
  void (*apply)(QualitySettings& quality);  ///< applied on top of the given settings
};

/// Every preset; the first, "base", changes nothing.
std::span<const QualityPreset> qualityPresets();
/// The preset names, in order.
std::vector<std::string> qualityPresetNames();

}  // namespace pcv
