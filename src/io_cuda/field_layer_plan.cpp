#include "field_layer_plan.hpp"

#include <algorithm>
#include <bit>

#include "laz/point14_fields.hpp"

namespace pcv::laz::cuda {
namespace {

/// Item state starts on this boundary (the models' widest members need far less; it keeps
/// items apart in the caches' lines).
constexpr uint64_t kStateAlignment = 256;

uint64_t alignUp(uint64_t n, uint64_t to) {
  return (n + to - 1) / to * to;
}

uint64_t stateBytes(const FieldItem& item) {
  return alignUp(item.contexts * fieldContextBytes(item.kind), kStateAlignment);
}

/// The items of one chunk, by kind.
void addChunkItems(std::span<const ItemSlot> slots, const DeviceChunk& chunk, uint32_t index,
                   std::span<const LayerSpan> spans, uint32_t channels, const FieldWanted& wanted,
                   std::vector<FieldItem>* byKind) {
  const uint32_t pointContexts = uint32_t(std::popcount(channels & 15u));
  const uint32_t otherContexts = uint32_t(std::popcount((channels >> kOthersChannelShift) & 15u));
  const auto present = [&](uint32_t layer) { return spans[chunk.firstLayer + layer].size > 0; };
  const auto add = [&](FieldKind kind, uint32_t layer, const ItemSlot& slot, uint32_t offset,
                       uint32_t contexts) {
    if (!present(layer)) return;
    byKind[uint32_t(kind)].push_back({index, kind, layer, offset, slot.version, contexts, 0});
  };
  for (const ItemSlot& slot : slots) {
    switch (slot.kind) {
      case SlotKind::Point14:
        // Layers 1-8 in Point14Layer order are FieldKind::Z .. GpsTime.
        for (uint32_t l = kZLayer; l < kPoint14LayerCount; ++l) {
          if (!(wanted.point14Layers & (1u << l))) continue;
          add(FieldKind(l - kZLayer), slot.firstLayer + l, slot, 0, pointContexts);
        }
        break;
      case SlotKind::Rgb14:
        if (wanted.rgb) add(FieldKind::Rgb, slot.firstLayer, slot, slot.offset, otherContexts);
        if (slot.hasNir && wanted.nir) {
          add(FieldKind::Nir, slot.firstLayer + 1, slot, slot.offset, otherContexts);
        }
        break;
      case SlotKind::Byte14:
        if (!wanted.extraBytes) break;
        for (uint32_t b = 0; b < slot.size; ++b) {
          add(FieldKind::ExtraByte, slot.firstLayer + b, slot, slot.offset + b, otherContexts);
        }
        break;
      default:
        break;
    }
  }
}

}  // namespace

FieldLayerPlan planFieldLayers(std::span<const ItemSlot> slots, std::span<const DeviceChunk> chunks,
                               std::span<const LayerSpan> spans, std::span<const uint32_t> faulty,
                               std::span<const uint32_t> channels, const FieldWanted& wanted,
                               uint64_t stateBudget) {
  std::vector<FieldItem> byKind[kFieldKindCount];
  for (uint32_t i = 0; i < chunks.size(); ++i) {
    // Broken chunks are reported whatever their other layers hold; a single point has no layers.
    if (chunks[i].skip || faulty[i] || chunks[i].pointCount < 2) continue;
    addChunkItems(slots, chunks[i], i, spans, channels[i], wanted, byKind);
  }

  // Groups of one kind, longest chunks first, so that a warp's lanes run the same code for
  // about as long; then the groups longest first, so that the last to start are short.
  struct Group {
    uint64_t longest;
    std::vector<FieldItem> items;
  };
  std::vector<Group> groups;
  FieldLayerPlan plan;
  for (std::vector<FieldItem>& items : byKind) {
    std::stable_sort(items.begin(), items.end(), [&](const FieldItem& a, const FieldItem& b) {
      return chunks[a.chunk].pointCount > chunks[b.chunk].pointCount;
    });
    plan.decodedItems += items.size();
    for (size_t at = 0; at < items.size(); at += kFieldGroup) {
      const size_t end = std::min(items.size(), at + kFieldGroup);
      groups.push_back({chunks[items[at].chunk].pointCount, {items.begin() + at, items.begin() + end}});
    }
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.longest > b.longest; });

  FieldItem padding{};
  padding.kind = FieldKind::None;
  for (const Group& group : groups) {
    uint64_t bytes = 0;
    for (const FieldItem& item : group.items) bytes += stateBytes(item);
    if (plan.launches.empty() || plan.launches.back().stateBytes + bytes > stateBudget) {
      plan.launches.push_back({uint32_t(plan.items.size()), 0, 0});
    }
    FieldLaunch& launch = plan.launches.back();
    for (FieldItem item : group.items) {
      item.state = launch.stateBytes;
      launch.stateBytes += stateBytes(item);
      plan.items.push_back(item);
    }
    plan.items.resize(plan.items.size() + (kFieldGroup - group.items.size()), padding);
    launch.itemCount = uint32_t(plan.items.size()) - launch.firstItem;
    plan.maxStateBytes = std::max(plan.maxStateBytes, launch.stateBytes);
  }
  return plan;
}

}  // namespace pcv::laz::cuda
