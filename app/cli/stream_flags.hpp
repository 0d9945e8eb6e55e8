/// @brief The flags of a streamed COPC cloud (--point-budget, --gpu-memory, --memory,
/// --in-core), shared by `pcv view` and `pcv render`, and the streaming options they give on a
/// renderer: defaults come from the memory it has free and its backend's speed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "pcv/raster/renderer.hpp"
#include "pcv/stream/streamed_cloud.hpp"

namespace pcv::app {

struct StreamFlags {
  uint64_t pointBudget = 0;     ///< --point-budget; 0: the backend's default
  uint64_t gpuMemoryBytes = 0;  ///< --gpu-memory; 0: half the free GPU memory (cpu: see .cpp)
  uint64_t memoryBytes = 0;     ///< --memory; 0: a fraction of the available host memory
  bool inCore = false;          ///< --in-core: read a COPC file whole, like any other file
};
void addStreamFlags(CLI::App& command, StreamFlags& flags);

/// Points per frame by default: what keeps a frame near 4 ms. The cuda backend draws about
/// 1.7 ms per billion points on an H200 in core (bench/RESULTS.md), and a streamed cloud's
/// thousands of sets, uploads and parents drawn beside their children cost more: a billion.
/// The cpu backend draws tens of millions per second: ten million keeps it interactive.
uint64_t defaultPointBudget(const Renderer& renderer);

/// The streaming options the flags give on `renderer`; `notes` gets a line for each default
/// taken (the budget, the memory), for the terminal.
StreamingOptions streamingOptionsFrom(const StreamFlags& flags, const Renderer& renderer,
                                      std::vector<std::string>& notes);

/// Whether `files` are one COPC file that the flags say to stream.
bool streams(const std::vector<std::string>& files, const StreamFlags& flags);

}  // namespace pcv::app
