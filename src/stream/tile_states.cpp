// A tile's state from its nodes' states.
#include "pcv/stream/tile_states.hpp"

namespace pcv {

const char* tileStateName(TileState state) {
  switch (state) {
    case TileState::OverviewOnly:
      return "overview only";
    case TileState::Loading:
      return "loading";
    case TileState::Streaming:
      return "streaming";
    case TileState::Resident:
      return "resident";
    case TileState::Failed:
      return "failed";
  }
  return "?";
}

TileStatus tileStatus(const StreamedCloud& cloud, const ForestNodeSource& forest, size_t member) {
  TileStatus status;
  if (member >= forest.memberCount()) return status;
  const size_t first = forest.firstNode(member), count = forest.nodeCount(member);
  size_t withPoints = 0, resident = 0;
  bool wanted = false;
  for (size_t node = first; node < first + count; ++node) {
    const uint64_t points = forest.forest().nodes[node].pointCount;
    if (points == 0) continue;  // an empty node, or a root the overview draws
    ++withPoints;
    switch (cloud.nodeState(node)) {
      case NodeState::Failed:
        if (!status.error) status.error = cloud.nodeError(node);
        break;
      case NodeState::Resident:
        ++resident;
        status.residentPoints += points;
        break;
      case NodeState::Wanted:
        wanted = true;
        break;
      case NodeState::Idle:
        break;
    }
  }
  if (status.error) {
    status.state = TileState::Failed;
  } else if (wanted) {
    status.state = TileState::Loading;
  } else if (resident == withPoints) {
    // Every node with points is resident; none at all: the overview holds the whole tile.
    status.state = TileState::Resident;
  } else if (resident > 0) {
    status.state = TileState::Streaming;
  }
  return status;
}

}  // namespace pcv
