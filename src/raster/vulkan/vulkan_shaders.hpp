/// @brief The Vulkan backend's compute shaders as SPIR-V, compiled from shaders/*.comp at build
/// time and built into the binary, each in two variants: with the device's fma(), and with a
/// fused multiply-add emulated in doubles for devices whose fma() rounds twice (fma_probe.hpp).
#pragma once

#include <cstdint>
#include <span>

namespace pcv::vk::spirv {

/// The compact method's cull: each drawn batch's visibility, eight invocations a batch.
std::span<const uint32_t> compactCull(bool emulatedFma);
std::span<const uint32_t> compactRaster(bool emulatedFma);
/// The compact raster for frames with no clip region and no filter (their tests compiled out).
std::span<const uint32_t> compactRasterPlain(bool emulatedFma);
std::span<const uint32_t> resolve(bool emulatedFma);
std::span<const uint32_t> splatDepth(bool emulatedFma);
std::span<const uint32_t> splatAccumulate(bool emulatedFma);
std::span<const uint32_t> fillHoles(bool emulatedFma);
std::span<const uint32_t> qualityShade(bool emulatedFma);
/// fma_probe.comp: values[3] = fma(values[0], values[1], values[2]).
std::span<const uint32_t> fmaProbe();
/// reciprocal_probe.comp: where one Newton step from the device's quotient differs from 1 / w
/// rounded to nearest (reciprocal_probe.hpp).
std::span<const uint32_t> reciprocalProbe(bool emulatedFma);
/// class_changes.comp: some points' colours and classes set where they lie (storeClassChanges).
std::span<const uint32_t> classChanges();

}  // namespace pcv::vk::spirv
