/// @brief Where ground and noise are found: on the CPU's cores (classifyPoints), or on a GPU that
/// gives the same classes; what `pcv classify`, `pcv.classify` and the classify edits run on.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include "pcv/process/point_classes.hpp"

namespace pcv {

class PointClassifier {
 public:
  virtual ~PointClassifier() = default;

  /// classifyPoints(points, settings, window), exactly: the same class for every point, wherever
  /// it runs. `ranOn` (may be null) receives where this call ran ("cpu", or the GPU's name), and
  /// why it ran on the CPU where the GPU was asked for but could not take the points. Safe to
  /// call from several threads (a GPU takes one call at a time). Throws as classifyPoints does.
  virtual std::vector<uint8_t> classify(std::span<const glm::dvec3> points,
                                        const ClassifySettings& settings,
                                        const GroundGridWindow* window = nullptr,
                                        std::string* ranOn = nullptr) const = 0;
};

/// classifyPoints on the CPU's cores.
std::shared_ptr<const PointClassifier> cpuPointClassifier();

}  // namespace pcv
