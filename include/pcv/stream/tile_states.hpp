/// @brief Where each tile of a streamed dataset stands (overview only, loading, streaming,
/// resident, failed), read from its nodes' states in the forest, so a list of thousands of tiles
/// can ask about the few rows it shows each frame without a lock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "pcv/stream/forest_node_source.hpp"
#include "pcv/stream/streamed_cloud.hpp"

namespace pcv {

enum class TileState : uint8_t {
  OverviewOnly,  ///< none of its points resident: only the overview (samples, root) shows it
  Loading,       ///< the view wants a node of it that is not resident yet
  Streaming,     ///< some of its nodes resident (an octree refined where the view needs it)
  Resident,      ///< all its points resident (a small tile: all in the overview)
  Failed,        ///< a node of it could not be decoded
};

/// "overview only", "loading", "streaming", "resident", "failed".
const char* tileStateName(TileState state);

struct TileStatus {
  TileState state = TileState::OverviewOnly;
  const std::string* error = nullptr;  ///< the first failed node's error (Failed only)
  uint64_t residentPoints = 0;         ///< of the tile's own nodes
};

/// The state of `member` of `forest` (a tile: firstTileMember() + its index) in `cloud`, which
/// streams `forest`. Costs one look per node of the tile (the nodes it grew too, when it was
/// read on demand; their counts as `cloud` knows them).
TileStatus tileStatus(const StreamedCloud& cloud, const ForestNodeSource& forest, size_t member);

}  // namespace pcv
