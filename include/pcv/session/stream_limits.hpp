/// @brief How much a streamed source may take (points per frame, GPU and host memory) and whether
/// a COPC file is read whole instead: what `--point-budget`, `--gpu-memory`, `--memory` and
/// `--in-core` say, as plain values, and the streaming options they give on a renderer, with
/// defaults from its free memory and its backend's speed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pcv/raster/renderer.hpp"
#include "pcv/stream/streamed_cloud.hpp"

namespace pcv {

struct StreamLimits {
  uint64_t pointBudget = 0;     ///< points drawn per frame; 0: the backend's default
  uint64_t gpuMemoryBytes = 0;  ///< bytes for resident nodes; 0: half the free GPU memory
  uint64_t memoryBytes = 0;     ///< host bytes; 0: a fraction of the available memory
  bool inCore = false;          ///< read a COPC file whole, like any other file
  int httpConnections = 0;      ///< remote files: requests in flight at most; 0: the default (16)
  /// Remote files: seconds a request may take, retries included; 0: the default (60).
  double httpTimeoutSeconds = 0.0;
  /// A remote VPC's tiles: "same" on its origin only (the default, also when empty), "any".
  std::string tileOrigins;
  /// A dataset's tiles whose header cannot be read are left out with a warning instead of
  /// failing the open (--skip-bad-tiles).
  bool skipBadTiles = false;
  /// Points carry what filters read (classes, returns; StreamingOptions::filterData), in core
  /// and streamed; off costs nothing.
  bool filterData = false;
  std::string rangeAttribute;  ///< with filterData: the attribute range filters test
};

/// Sets what remote files (URLs) are read with from `limits`: the requests in flight, their
/// deadline, the origins a remote VPC may name, and a memory cache of fetched bytes within a
/// quarter of --memory (or of the default, 256 MiB at most). Throws InputError for a
/// tileOrigins other than "", "same" and "any".
/// Sources opened before keep their connections; the cache shrinks at once.
void applyRemoteLimits(const StreamLimits& limits);

/// Points per frame by default: what keeps a frame near 4 ms. The cuda backend draws about
/// 1.7 ms per billion points on an H200 in core (bench/RESULTS.md), and a streamed cloud's
/// thousands of sets, uploads and parents drawn beside their children cost more: a billion.
/// The cpu backend draws tens of millions per second: ten million keeps it interactive.
uint64_t defaultPointBudget(const Renderer& renderer);

/// The default memory for a stream's resident nodes (StreamLimits::gpuMemoryBytes 0): on the GPU
/// half of `freeBytes` (the rest is for files added beside the stream); on the CPU a quarter, and
/// no more than four frames of `pointBudget` points; never more than half the points the
/// framebuffer's 32-bit payload names, at `poolBytesPerPoint` (Renderer::poolBytesPerPoint).
uint64_t defaultStreamMemoryBytes(uint64_t freeBytes, bool onGpu, uint64_t pointBudget,
                                  double poolBytesPerPoint);

/// The streaming options `limits` give on `renderer`; `notes` gets a line for each default
/// taken (the budget, the memory), for the user. Throws InputError when the renderer's free
/// memory is unknown and no GPU memory was given.
StreamingOptions streamingOptionsFor(const StreamLimits& limits, const Renderer& renderer,
                                     std::vector<std::string>& notes);

}  // namespace pcv
