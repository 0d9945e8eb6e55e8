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
  size_t withPoints = 0, resident = 0;
  bool wanted = false;
  const auto look = [&](size_t node) {
    const uint64_t points = cloud.nodePoints(node);
    if (points == 0) return;  // an empty node, a root the overview draws, or not known yet
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
  };
  const size_t first = forest.firstNode(member), count = forest.nodeCount(member);
  for (size_t node = first; node < first + count; ++node) look(node);
  // A tile read on demand: the nodes it grew.
  for (const auto& [grownFirst, grownCount] : forest.grownNodes(member)) {
    for (size_t node = grownFirst; node < grownFirst + grownCount; ++node) look(node);
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
