/// @brief Ground and noise found together, as LAS classes: what `pcv classify` writes into files
/// and `pcv.classify` returns.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "pcv/process/ground_filter.hpp"
#include "pcv/process/noise_filter.hpp"

namespace pcv {

/// LAS (ASPRS) classification values the filters set.
inline constexpr uint8_t kClassUnclassified = 1;
inline constexpr uint8_t kClassGround = 2;
inline constexpr uint8_t kClassNoise = 7;  ///< "low point (noise)"

struct ClassifySettings {
  bool ground = true;  ///< run the ground filter
  bool noise = true;   ///< run the noise filter (first: noise never shapes the ground surface)
  GroundFilterSettings groundFilter;
  NoiseFilterSettings noiseFilter;
};

/// Which lengths of ClassifySettings were given (in map units) rather than left at their
/// defaults (in metres).
struct GivenLengths {
  bool cell = false, window = false, threshold = false, noiseRadius = false;
};

/// `settings` with the lengths not `given` (their defaults, in metres) turned into a map unit of
/// `metresPerUnit` metres (0.3048 for the international foot), so that the airborne defaults
/// suit data in feet as they do data in metres. Lengths given are kept: they are in map units.
ClassifySettings withDefaultLengthsIn(ClassifySettings settings, double metresPerUnit,
                                      const GivenLengths& given);

/// Throws InputError when neither filter is asked for, or for a filter's bad settings.
void checkClassifySettings(const ClassifySettings& settings);

/// One class per point: kClassNoise for isolated points (with `noise`), kClassGround for ground
/// (with `ground`; never a noise point), kClassUnclassified for the rest. Deterministic, as the
/// filters are. `window` (may be null): the ground filter's grid as a dataset's (groundPoints).
/// Throws InputError (checkClassifySettings, no points).
std::vector<uint8_t> classifyPoints(std::span<const glm::dvec3> points,
                                    const ClassifySettings& settings,
                                    const GroundGridWindow* window = nullptr);

/// The class a point keeps in a file: `found` (classifyPoints's) where it is ground or noise;
/// else `previous`, except that a point the run could have called ground (with `ground`) or
/// noise (with `noise`) and did not, loses that class for kClassUnclassified: a file classified
/// again holds this run's ground and noise, never a stale one.
uint8_t mergedClass(uint8_t previous, uint8_t found, const ClassifySettings& settings);

}  // namespace pcv
