/// @brief Where pcv convert sorts a COPC octree's keys, chosen by name at run time: "cuda" (the
/// GPU, when pcv was built with CUDA and a device is usable), "cpu", or "auto" (the GPU when there
/// is one). The output is the same byte for byte either way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "pcv/octree/octree_lod.hpp"

namespace pcv::app {

/// "auto", "cuda", "cpu".
std::vector<std::string> octreeSamplerNames();

/// The sampler `name` asks for; "cuda" without a usable GPU throws UnavailableError saying why.
/// `note` gets a line for the user: what "auto" picked, and why not the GPU.
std::unique_ptr<OctreeLodSampler> chooseOctreeSampler(const std::string& name, std::string* note);

}  // namespace pcv::app
