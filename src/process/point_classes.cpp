#include "pcv/process/point_classes.hpp"

#include "pcv/core/error.hpp"
#include "pcv/process/point_classifier.hpp"

namespace pcv {

ClassifySettings withDefaultLengthsIn(ClassifySettings settings, double metresPerUnit,
                                      const GivenLengths& given) {
  if (!(metresPerUnit > 0.0) || metresPerUnit == 1.0) return settings;
  if (!given.cell) settings.groundFilter.cell /= metresPerUnit;
  if (!given.window) settings.groundFilter.window /= metresPerUnit;
  if (!given.threshold) settings.groundFilter.threshold /= metresPerUnit;
  if (!given.noiseRadius) settings.noiseFilter.radius /= metresPerUnit;
  return settings;
}

void checkClassifySettings(const ClassifySettings& settings) {
  if (!settings.ground && !settings.noise) {
    throw InputError("classify: nothing to find: expected ground, noise or both");
  }
  if (settings.ground) checkGroundFilterSettings(settings.groundFilter);
  if (settings.noise) checkNoiseFilterSettings(settings.noiseFilter);
}

std::vector<uint8_t> classifyPoints(std::span<const glm::dvec3> points,
                                    const ClassifySettings& settings,
                                    const GroundGridWindow* window) {
  checkClassifySettings(settings);
  if (points.empty()) throw InputError("classify: no points to classify");
  std::vector<uint8_t> classes(points.size(), kClassUnclassified);
  std::vector<uint8_t> noise;
  if (settings.noise) {
    noise = noisePoints(points, settings.noiseFilter);
    for (size_t i = 0; i < points.size(); ++i) {
      if (noise[i]) classes[i] = kClassNoise;
    }
  }
  if (settings.ground) {
    const std::vector<uint8_t> ground = groundPoints(points, settings.groundFilter, noise, window);
    for (size_t i = 0; i < points.size(); ++i) {
      if (ground[i]) classes[i] = kClassGround;
    }
  }
  return classes;
}

namespace {

class CpuPointClassifier final : public PointClassifier {
 public:
  std::vector<uint8_t> classify(std::span<const glm::dvec3> points,
                                const ClassifySettings& settings, const GroundGridWindow* window,
                                std::string* ranOn) const override {
    if (ranOn) *ranOn = "cpu";
    return classifyPoints(points, settings, window);
  }
};

}  // namespace

std::shared_ptr<const PointClassifier> cpuPointClassifier() {
  static const auto classifier = std::make_shared<const CpuPointClassifier>();
  return classifier;
}

uint8_t mergedClass(uint8_t previous, uint8_t found, const ClassifySettings& settings) {
  if (found == kClassGround || found == kClassNoise) return found;
  if ((settings.ground && previous == kClassGround) ||
      (settings.noise && previous == kClassNoise)) {
    return kClassUnclassified;
  }
  return previous;
}

}  // namespace pcv
