/// @brief How the Clip section shows a coordinate: every digit of the integer part and
/// millimetres, in a field as wide as the box's widest coordinate needs, so that UTM
/// coordinates (1e6-1e7) are shown and edited to the centimetre. GL-free.
#pragma once

#include <string>

#include "pcv/raster/clip_settings.hpp"

namespace pcv::app {

/// The printf format of the Clip section's coordinate fields.
inline constexpr const char* kClipFieldFormat = "%.3f";

/// `value` as its field shows it (kClipFieldFormat).
std::string clipFieldText(double value);

/// The longest text among the six coordinates of `box`: the fields are sized to show it whole.
std::string widestClipFieldText(const ClipBox& box);

}  // namespace pcv::app
