#include "viewer/tools/clip/clip_field_text.hpp"

#include <cstdio>

namespace pcv::app {

std::string clipFieldText(double value) {
  char text[64];
  std::snprintf(text, sizeof text, kClipFieldFormat, value);
  return text;
}

std::string widestClipFieldText(const ClipBox& box) {
  std::string widest;
  for (int axis = 0; axis < 3; ++axis) {
    for (const double value : {box.min[axis], box.max[axis]}) {
      const std::string text = clipFieldText(value);
      if (text.size() > widest.size()) widest = text;
    }
  }
  return widest;
}

}  // namespace pcv::app
