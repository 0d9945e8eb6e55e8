/// @brief The CPU backend's rasterization methods, each the twin of a CUDA method with the same
/// name and the same per-point code, so their images match the GPU's pixel for pixel.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "../raster_backend.hpp"
#include "pcv/core/point.hpp"
#include "pcv/core/stage_timings.hpp"
#include "pcv/raster/projection.hpp"
#include "point_layout.hpp"

namespace pcv::cpu {

/// One frame's output and scratch; all host memory owned by the backend or the caller.
struct Frame {
  ViewTransform view;
  uint32_t background;           ///< packed RGBA8 of pixels no point reaches
  uint32_t* rgba;                ///< view.width * view.height pixels
  std::vector<uint64_t>* words;  ///< framebuffer scratch, resized as needed
  StageTimings* timings;         ///< filled with the stages' wall times
  const DrawList* list;          ///< the slots to draw
  ClipFrame clip;                ///< the clip region (compact layout only)
  FilterFrame filter;            ///< the point filter (compact layout only)
};

/// The batch slots a frame draws, by position in the draw.
struct DrawnBatches {
  const DrawList& list;
  uint64_t size() const { return list.everything ? list.batchSlots : list.batches.size(); }
  uint64_t operator[](uint64_t i) const { return list.everything ? i : list.batches[i]; }
};

/// The point slot ranges to draw with the 16-byte methods.
std::vector<PointRange> drawnPointRanges(const DrawList& list);

/// "packed": one 64-bit min of depth|index per point, then the colour of the winner.
void renderPacked(const Frame& frame, std::span<const Point> points);
/// "seed": the seed's two passes (NDC depth, then colour of points at that depth); among equal
/// depths the lowest index wins here, where the GPU races.
void renderSeed(const Frame& frame, std::span<const Point> points);
/// "compact": batches culled by their boxes, quantized positions, colours read in the resolve.
void renderCompact(const Frame& frame, const HostPointPool& pool);
/// The compact method's clear and raster: each pixel's closest point into frame.words.
void drawCompactWords(const Frame& frame, const HostPointPool& pool);

}  // namespace pcv::cpu
