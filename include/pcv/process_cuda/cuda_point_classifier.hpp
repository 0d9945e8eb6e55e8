/// @brief The ground and noise filters on the current CUDA device: the CPU's classes exactly
/// (classifyPoints), found on the GPU. A library beside process, so that process stays free of
/// CUDA and front ends pick it at run time.
#pragma once

#include <memory>

#include "pcv/process/point_classifier.hpp"

namespace pcv {

/// A classifier on the current CUDA device (needs a usable one: cudaAvailable() in
/// pcv/raster/renderer.hpp). A call whose points the GPU has no room for, or more than 2^32 - 1
/// of them, runs on the CPU instead (the same classes), and its `ranOn` says so and why. Calls
/// from several threads take the GPU one at a time.
std::shared_ptr<const PointClassifier> makeCudaPointClassifier();

}  // namespace pcv
