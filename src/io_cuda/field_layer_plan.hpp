/// @brief The second pass of a layered GPU decode, planned on the host from what the first pass
/// found: one item per wanted, non-empty layer of every good chunk, each with state for the
/// channels its chunk uses. Items of one layer kind and similar length share a warp (lanes that
/// run the same code on streams of about the same length), and launches are cut so that their
/// state fits a memory budget.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "laz_chunk_kernels.hpp"

namespace pcv::laz::cuda {

/// Layers a decode reads past returns/XY.
struct FieldWanted {
  uint32_t point14Layers = 0;  ///< bit per Point14Layer
  bool rgb = false, nir = false, extraBytes = false;
};

struct FieldLaunch {
  uint32_t firstItem;
  uint32_t itemCount;
  uint64_t stateBytes;  ///< its items' state, which starts at offset 0
};

struct FieldLayerPlan {
  std::vector<FieldItem> items;  ///< in groups of kFieldGroup, padded with FieldKind::None
  std::vector<FieldLaunch> launches;
  uint64_t maxStateBytes = 0;  ///< the largest launch's
  uint64_t decodedItems = 0;   ///< items that are not padding
};

/// Items a warp takes.
inline constexpr uint32_t kFieldGroup = 32;

/// The plan for `chunks` (their first-pass `faulty` flags and `channels` masks, see
/// kOthersChannelShift) with the file's item `slots` and the chunks' layer `spans`. A launch
/// holds at least one group, however large.
FieldLayerPlan planFieldLayers(std::span<const ItemSlot> slots, std::span<const DeviceChunk> chunks,
                               std::span<const LayerSpan> spans, std::span<const uint32_t> faulty,
                               std::span<const uint32_t> channels, const FieldWanted& wanted,
                               uint64_t stateBudget);

}  // namespace pcv::laz::cuda
