// The CUDA OctreeLodSampler: the sort's keys stay on the GPU for the sampling that follows, so a
// part's keys go up once (8 bytes a point) and only the holder levels come back (1 byte a point).
#include <memory>

#include "octree_lod_device.hpp"
#include "pcv/octree/octree_lod_cuda.hpp"

namespace pcv {
namespace {

class CudaOctreeLodSampler : public OctreeLodSampler {
 public:
  const char* name() const override { return "cuda"; }

  void sortKeys(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                std::span<uint32_t> order) override {
    keptFor_ = {};
    // The same sorted keys either way; the GPU may lack room for a large part.
    if (sortOctreeKeysOnDevice(keys, sortedKeys, order, kept_, copier())) {
      keptFor_ = sortedKeys.first(keys.size());
    } else {
      cpu_->sortKeys(keys, sortedKeys, order);
    }
  }

  void sampleLevels(std::span<const uint64_t> sortedKeys, const LodTree& tree,
                    std::span<uint8_t> holderLevel) override {
    // The keys of the last sort are still on the GPU when these are they (the interface asks for
    // the keys sortKeys wrote); others go up first.
    const bool kept = kept_.size() > 0 && sortedKeys.data() == keptFor_.data() &&
                      sortedKeys.size() == keptFor_.size();
    const bool sampled =
        kept ? sampleOctreeLevelsOnDevice(kept_.data(), kept_.size(), tree, holderLevel, copier())
             : sampleOctreeLevelsOnGpu(sortedKeys, tree, holderLevel);
    kept_ = DeviceBuffer<uint64_t>();
    keptFor_ = {};
    if (!sampled) cpu_->sampleLevels(sortedKeys, tree, holderLevel);
  }

 private:
  /// Made at the first copy (96 MiB of pinned memory), and kept for every part of the
  /// conversion: pinning memory takes time.
  StagedCopier& copier() {
    if (!copier_) copier_ = std::make_unique<StagedCopier>();
    return *copier_;
  }

  std::unique_ptr<OctreeLodSampler> cpu_ = makeCpuOctreeLodSampler();
  std::unique_ptr<StagedCopier> copier_;
  DeviceBuffer<uint64_t> kept_;        ///< the last sort's keys on the GPU, until sampled
  std::span<const uint64_t> keptFor_;  ///< the host keys they are a copy of
};

}  // namespace

std::unique_ptr<OctreeLodSampler> makeCudaOctreeLodSampler() {
  return std::make_unique<CudaOctreeLodSampler>();
}

}  // namespace pcv
