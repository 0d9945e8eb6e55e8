/// @brief Where the ground and noise filters run, by name (`pcv classify --device`,
/// `pcv.classify(device=)`): the GPU where CUDA is usable, else the CPU.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pcv/process/point_classifier.hpp"

namespace pcv {

/// The names --device takes.
std::vector<std::string> classifierDeviceNames();

/// "cpu": the CPU's filters. "cuda": the GPU's (UnavailableError naming why when no CUDA device
/// is usable or pcv was built without CUDA). "auto": the GPU's where usable, else the CPU's.
/// `note` (may be null) receives what was chosen and why. InputError for another name.
std::shared_ptr<const PointClassifier> choosePointClassifier(const std::string& name,
                                                             std::string* note = nullptr);

}  // namespace pcv
