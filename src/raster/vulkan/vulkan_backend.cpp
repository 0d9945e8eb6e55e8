#include "vulkan_backend.hpp"

#include <algorithm>
#include <utility>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "../cpu/point_layout.hpp"
#include "../laid_out_arrays.hpp"
#include "compute_kernel.hpp"
#include "fma_probe.hpp"
#include "frame_params.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "reciprocal_probe.hpp"
#include "shared/quality_resolve.hpp"
#include "shared/splat.hpp"
#include "sliced_array.hpp"
#include "vulkan_context.hpp"
#include "vulkan_point_pool.hpp"
#include "vulkan_shaders.hpp"

namespace pcv {
namespace {

/// class_changes.comp's parameters, field for field (scalar layout).
struct ClassChangeParams {
  uint64_t colors[vk::kFrameSlices], filterWords[vk::kFrameSlices];
  uint64_t summaries, pointSlots, batchSlots, newColors, newClasses;
  uint32_t sliceShift, count, withClasses, unused;
};
static_assert(sizeof(ClassChangeParams) == 2 * 32 * 8 + 5 * 8 + 4 * 4);

using vk::ComputeKernel;
using vk::VulkanBuffer;

/// Timestamps a frame writes at most: one before the first stage and one after each.
constexpr uint32_t kMaxStamps = 8;
/// Batches a workgroup of shaders/compact_cull.comp culls: 256 invocations, eight a batch.
constexpr uint64_t kCulledPerWorkgroup = 32;

/// Buffers of one frame size, kept between frames and grown as needed.
struct FrameBuffers {
  VulkanBuffer words, filled, accumulators, image, readback;
  VulkanBuffer params;  // host-visible: VulkanFrameParams
  VulkanBuffer drawn;   // host-visible: the frame's batch list
  VulkanBuffer visibility;  // the compact cull's verdict per drawn batch
};

/// The stage marks of a frame: timestamps where the queue has them, else the whole frame's
/// wall time.
class StageStamps {
 public:
  StageStamps(vk::VulkanContext& context) : context_(context) {
    if (context.timestampPeriodNs() <= 0.0) return;
    const VkQueryPoolCreateInfo info{.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                     .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                     .queryCount = kMaxStamps};
    vk::check(vkCreateQueryPool(context.device(), &info, nullptr, &pool_), "to make timestamps");
  }
  ~StageStamps() {
    if (pool_) vkDestroyQueryPool(context_.device(), pool_, nullptr);
  }
  StageStamps(const StageStamps&) = delete;
  StageStamps& operator=(const StageStamps&) = delete;

  void begin(VkCommandBuffer commands, bool perStage) {
    perStage_ = perStage;
    stages_.clear();
    if (!pool_) return;
    vkCmdResetQueryPool(commands, pool_, 0, kMaxStamps);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, 0);
  }
  void mark(VkCommandBuffer commands, const char* stage, bool always = false) {
    if (!pool_ || (!perStage_ && !always) || stages_.size() + 1 >= kMaxStamps) return;
    stages_.push_back(stage);
    vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_,
                        uint32_t(stages_.size()));
  }
  /// The stages' times after the frame's fence; `wallMs` where there are no timestamps.
  StageTimings read(double wallMs) const {
    if (!pool_ || stages_.empty()) return {{"frame", wallMs}};
    std::vector<uint64_t> ticks(stages_.size() + 1);
    vk::check(vkGetQueryPoolResults(context_.device(), pool_, 0, uint32_t(ticks.size()),
                                    ticks.size() * sizeof(uint64_t), ticks.data(),
                                    sizeof(uint64_t),
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              "to read timestamps");
    StageTimings timings;
    for (size_t i = 0; i < stages_.size(); ++i) {
      const double ns = double(ticks[i + 1] - ticks[i]) * context_.timestampPeriodNs();
      timings.push_back({stages_[i], ns * 1e-6});
    }
    return timings;
  }

 private:
  vk::VulkanContext& context_;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  bool perStage_ = true;
  std::vector<const char*> stages_;
};

class VulkanBackend final : public RasterBackend {
 public:
  VulkanBackend(PointStorage storage, const std::string& device, bool allowSoftware,
                uint64_t slicePoints)
      : context_(std::make_unique<vk::VulkanContext>(device, allowSoftware)),
        pool_(*context_, storage == PointStorage::CompactAndPoints, slicePoints),
        stamps_(*context_),
        emulatedFma_(needsEmulatedFma(*context_)),
        statistics_(context_->reportsPipelineStatistics()),
        constants_(shaderConstants(*context_, emulatedFma_)),
        compactCull_(context_->device(), vk::spirv::compactCull(emulatedFma_), "compact_cull",
                     statistics_, constants_),
        compactRaster_(context_->device(), vk::spirv::compactRaster(emulatedFma_), "compact_raster",
                       statistics_, constants_),
        compactRasterPlain_(context_->device(), vk::spirv::compactRasterPlain(emulatedFma_),
                            "compact_raster_plain", statistics_, constants_),
        resolve_(context_->device(), vk::spirv::resolve(emulatedFma_), "resolve", statistics_,
                 constants_),
        splatDepth_(context_->device(), vk::spirv::splatDepth(emulatedFma_), "splat_depth",
                    statistics_, constants_),
        splatAccumulate_(context_->device(), vk::spirv::splatAccumulate(emulatedFma_),
                         "splat_accumulate", statistics_, constants_),
        fill_(context_->device(), vk::spirv::fillHoles(emulatedFma_), "fill", statistics_,
              constants_),
        qualityShade_(context_->device(), vk::spirv::qualityShade(emulatedFma_), "quality_shade",
                      statistics_, constants_),
        classChanges_(context_->device(), vk::spirv::classChanges(), "class_changes") {}

  std::string name() const override { return "vulkan"; }
  std::string deviceDescription() const override {
    return context_->info().name + " (" + context_->info().type + ", Vulkan" +
           (emulatedFma_ ? ", fused multiply-add emulated" : "") +
           (constants_.newtonReciprocalExact ? ", Newton-step reciprocal" : "") + ")";
  }
  bool onGpu() const override { return !context_->info().software; }
  std::vector<std::string> kernelStatistics() const override {
    std::vector<std::string> lines;
    for (const ComputeKernel* kernel :
         {&compactCull_, &compactRaster_, &compactRasterPlain_, &resolve_, &splatDepth_,
          &splatAccumulate_, &fill_, &qualityShade_}) {
      if (std::string line = kernel->statistics(); !line.empty()) lines.push_back(line);
    }
    return lines;
  }
  bool implements(RasterMethod method) const override { return method == RasterMethod::Compact; }
  void setTimeStages(bool perStage) override { timeStages_ = perStage; }

  void reservePool(uint64_t points, uint64_t batches) override { pool_.reserve(points, batches); }
  void freePool() override { pool_.free(); }
  uint64_t poolBytes() const override { return pool_.bytes(); }
  uint64_t freeMemoryBytes() const override { return context_->freeDeviceMemory(); }

  void storeSlice(const PointProducer& source, uint64_t sourceFirst, uint64_t count,
                  uint64_t pointFirst, uint64_t batchFirst, uint32_t* order) override {
    std::vector<Point> produced;
    const std::span<const Point> slice = hostSlice(source, sourceFirst, count, produced);
    // Laid out on the host by the CPU backend's code (the oracle's own layout, bit for bit),
    // then copied: no sort on the device.
    requireHostMemory("the layout of a slice", count, 8 + (pool_.keepsPoints() ? 16 : 0));
    HostPointPool layout;
    layout.positions.resize(count);
    layout.colors.resize(count);
    layout.batches.resize(batchesForPoints(count));
    if (pool_.keepsPoints()) layout.points.resize(count);
    layOutSlice(slice, layout, 0, 0, true, pool_.keepsPoints(), order);
    pool_.store(layout, pointFirst, batchFirst);
  }

  void storeLaidOut(const LaidOutArrays& set, uint64_t pointFirst, uint64_t batchFirst) override {
    pool_.store(set.layout, pointFirst, batchFirst);
    if (set.filterWords.empty()) return;
    pool_.storeFilterData({pointFirst, set.filterWords.size()}, {batchFirst, set.summaries.size()},
                          set.filterWords.data(),
                          set.rangeValues.empty() ? nullptr : set.rangeValues.data(),
                          set.summaries.data());
  }

  void storeColors(PointRange points, const uint32_t* colors) override {
    pool_.storeColors(points, colors);
  }
  bool storeClassChanges(const ClassChanges& changes) override {
    // The 16-byte points' colour words are not in the shader's reach: the set is recoloured
    // whole (setColors) where the storage keeps them.
    if (pool_.keepsPoints()) return false;
    const uint64_t count = changes.pointSlots.size();
    if (count == 0) return true;
    const bool withClasses = changes.classes && pool_.hasFilterWords();
    // One host-visible buffer the shader reads: the parameters, then the changes' arrays.
    const uint64_t arrays = sizeof(ClassChangeParams);
    VulkanBuffer buffer(*context_, arrays + count * 4 * sizeof(uint32_t),
                        VulkanBuffer::Kind::Upload, "the class changes");
    char* bytes = static_cast<char*>(buffer.mapped());
    ClassChangeParams p{};
    copySlices(pool_.colors(), p.colors);
    copySlices(pool_.filterWords(), p.filterWords);
    p.summaries = pool_.summaries().address();
    const auto place = [&](int k, const void* data, size_t itemBytes) {
      const uint64_t offset = arrays + uint64_t(k) * count * sizeof(uint32_t);
      if (data) std::memcpy(bytes + offset, data, count * itemBytes);
      return buffer.address() + offset;
    };
    p.pointSlots = place(0, changes.pointSlots.data(), sizeof(uint32_t));
    p.batchSlots = place(1, changes.batchSlots.data(), sizeof(uint32_t));
    p.newColors = place(2, changes.colors, sizeof(uint32_t));
    p.newClasses = place(3, nullptr, 0);
    if (withClasses) {
      uint32_t* classes = reinterpret_cast<uint32_t*>(bytes + arrays + 3 * count * sizeof(uint32_t));
      for (uint64_t i = 0; i < count; ++i) classes[i] = changes.classes[i];
    }
    p.sliceShift = pool_.sliceShift();
    p.count = uint32_t(count);
    p.withClasses = withClasses ? 1u : 0u;
    std::memcpy(bytes, &p, sizeof p);
    context_->run([&](VkCommandBuffer commands) {
      classChanges_.recordPerItem(commands, buffer.address(), (count + 255) / 256);
      vk::computeBarrier(commands);
    });
    return true;
  }
  void storeFilterData(PointRange points, PointRange batches, const uint16_t* words,
                       const float* values) override {
    pool_.storeFilterData(points, batches, words, values);
  }
  void releaseSlots(PointRange points, PointRange batches) override {
    pool_.release(points, batches);
  }
  std::vector<Point> downloadPoints(PointRange points) const override {
    return pool_.downloadPoints(points);
  }
  StoredPoint storedPoint(uint64_t pointSlot, uint64_t batchSlot) const override {
    return pool_.storedPoint(pointSlot, batchSlot);
  }

  ExportedImageMemory exportImageMemory(int width, int height) override {
    if (!context_->hasExternalMemoryFd()) {
      throw UnavailableError(context_->info().name +
                             " exports no memory (VK_KHR_external_memory_fd)");
    }
    exported_ = VulkanBuffer();
    // Room past the pixels: an importer may want more than the frame (Mesa's llvmpipe refuses a
    // buffer whose memory ends with its last pixel: it pads buffers for its vector reads).
    constexpr uint64_t kImporterSlack = 64 << 10;
    exported_ = VulkanBuffer(*context_, uint64_t(width) * uint64_t(height) * 4 + kImporterSlack,
                             VulkanBuffer::Kind::Exported, "the exported frame");
    return {exported_.exportFd(), exported_.allocationBytes()};
  }

  void draw(const FrameDraw& f) override {
    const uint64_t pixels = uint64_t(f.view.width) * uint64_t(f.view.height);
    if (f.target.memory == MemorySpace::Exported) {
      if (exported_.bytes() < pixels * 4) {
        throw InputError("a frame of " + std::to_string(f.view.width) + "x" +
                         std::to_string(f.view.height) +
                         " does not fit the exported memory: export it at this size first");
      }
    } else if (f.target.memory != MemorySpace::Host) {
      throw UnavailableError("the vulkan backend writes host memory or its exported memory");
    }
    const auto start = std::chrono::steady_clock::now();
    const bool readBack = f.target.memory == MemorySpace::Host && f.target.rgba != nullptr;
    prepareFrame(f, readBack);
    // Unknown until the frame is done (a failed submit leaves the words as they may be).
    const uint64_t clearWords = std::exchange(clearWords_, 0);
    context_->run([&](VkCommandBuffer commands) {
      stamps_.begin(commands, timeStages_);
      recordDepthPass(commands, f, clearWords);
      const VkDeviceAddress params = frame_.params.address();
      if (f.pipeline == DrawPipeline::Quality) {
        if (f.settings->quality.highQuality) {
          vkCmdFillBuffer(commands, frame_.accumulators.handle(), 0, pixels * 16, 0u);
          vk::computeBarrier(commands);
          splatAccumulate_.recordPerItem(commands, params, batchCount_);
          vk::computeBarrier(commands);
          stamps_.mark(commands, "accumulate");
        }
        qualityShade_.recordPerPixel(commands, params, f.view.width, f.view.height);
        vk::computeBarrier(commands);
        stamps_.mark(commands, timeStages_ ? "shade" : "frame", true);
      } else {
        resolve_.recordPerPixel(commands, params, f.view.width, f.view.height);
        vk::computeBarrier(commands);
        stamps_.mark(commands, timeStages_ ? "resolve" : "frame", true);
      }
      if (readBack) {
        const VkBufferCopy region{.srcOffset = 0, .dstOffset = 0, .size = pixels * 4};
        vkCmdCopyBuffer(commands, frame_.image.handle(), frame_.readback.handle(), 1, &region);
        vk::hostReadBarrier(commands);
        stamps_.mark(commands, "copy", true);
      }
    });
    const double wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    StageTimings all = stamps_.read(wallMs);
    timings_.clear();
    readbackTimings_.clear();
    for (const StageTiming& stage : all) {
      (stage.stage == "copy" ? readbackTimings_ : timings_).push_back(stage);
    }
    if (timings_.empty()) timings_.push_back({"frame", wallMs});  // no timestamps
    if (readBack) std::memcpy(f.target.rgba, frame_.readback.mapped(), pixels * 4);
    // The compact resolve cleared the frame's pixels; the quality pipeline leaves them drawn.
    if (f.pipeline != DrawPipeline::Quality) clearWords_ = std::max(clearWords, pixels);
  }

  std::vector<uint64_t> pickWords(const FrameDraw& f, PixelRect rect) override {
    prepareFrame(f, false);
    const bool filled = f.pipeline == DrawPipeline::Quality && f.settings->quality.fillRadiusPx > 0;
    const VulkanBuffer& words = filled ? frame_.filled : frame_.words;
    const uint64_t rowBytes = uint64_t(rect.width) * 8;
    ensure(pickReadback_, rowBytes * uint64_t(rect.height), VulkanBuffer::Kind::Readback,
           "the picked pixels");
    // The picked frame's words stay drawn: the next frame clears them.
    const uint64_t clearWords = std::exchange(clearWords_, 0);
    context_->run([&](VkCommandBuffer commands) {
      stamps_.begin(commands, false);
      recordDepthPass(commands, f, clearWords);
      std::vector<VkBufferCopy> rows;
      for (int row = 0; row < rect.height; ++row) {
        rows.push_back({.srcOffset = (uint64_t(rect.y + row) * uint64_t(f.view.width) +
                                      uint64_t(rect.x)) * 8,
                        .dstOffset = uint64_t(row) * rowBytes,
                        .size = rowBytes});
      }
      vkCmdCopyBuffer(commands, words.handle(), pickReadback_.handle(), uint32_t(rows.size()),
                      rows.data());
      vk::hostReadBarrier(commands);
    });
    std::vector<uint64_t> out(uint64_t(rect.width) * uint64_t(rect.height));
    std::memcpy(out.data(), pickReadback_.mapped(), out.size() * 8);
    return out;
  }

  StageTimings lastTimings() override { return timings_; }
  StageTimings lastReadbackTimings() override { return readbackTimings_; }

 private:
  /// Devices whose fma() rounds twice take the shaders that emulate one in doubles.
  static bool needsEmulatedFma(vk::VulkanContext& context) {
    if (vk::deviceFusesFma(context)) return false;
    if (!context.hasFloat64()) {
      throw UnavailableError("cannot use the vulkan backend: " + context.info().name +
                             " rounds fma() twice and has no 64-bit floats to make it exact");
    }
    return true;
  }

  /// The kernels' specialization: 1 / w without its residual check where the probe finds one
  /// Newton step from the device's quotient exact over the view range. Software devices and
  /// those whose fma() is emulated keep the check unprobed: the probe's 1.7 billion floats would
  /// take seconds of a CPU, or of a GPU's slow doubles, at every start, for devices that are
  /// not the fast path anyway.
  static vk::ShaderConstants shaderConstants(vk::VulkanContext& context, bool emulatedFma) {
    if (context.info().software || emulatedFma) return {};
    return {.newtonReciprocalExact = vk::newtonReciprocalExact(context, emulatedFma)};
  }

  /// Makes `buffer` hold `bytes` at least; true when it was made anew (its contents unknown).
  bool ensure(VulkanBuffer& buffer, uint64_t bytes, VulkanBuffer::Kind kind, const char* what) {
    if (buffer && buffer.bytes() >= bytes) return false;
    buffer = VulkanBuffer();  // the old one first: frame buffers can be large
    buffer = VulkanBuffer(*context_, bytes, kind, what);
    return true;
  }

  /// Sizes the frame's buffers and writes its parameters.
  void prepareFrame(const FrameDraw& f, bool readBack) {
    const uint64_t pixels = uint64_t(f.view.width) * uint64_t(f.view.height);
    const QualitySettings& quality = f.settings->quality;
    const bool qualityPipeline = f.pipeline == DrawPipeline::Quality;
    if (ensure(frame_.words, pixels * 8, VulkanBuffer::Kind::Device, "the framebuffer")) {
      clearWords_ = 0;
    }
    if (f.target.memory != MemorySpace::Exported)
      ensure(frame_.image, pixels * 4, VulkanBuffer::Kind::Device, "the image");
    if (readBack) ensure(frame_.readback, pixels * 4, VulkanBuffer::Kind::Readback, "the image");
    if (qualityPipeline && quality.fillRadiusPx > 0)
      ensure(frame_.filled, pixels * 8, VulkanBuffer::Kind::Device, "the filled framebuffer");
    if (qualityPipeline && quality.highQuality)
      ensure(frame_.accumulators, pixels * 16, VulkanBuffer::Kind::Device, "the blending sums");
    ensure(frame_.params, sizeof(vk::VulkanFrameParams), VulkanBuffer::Kind::Upload,
           "the frame's parameters");

    const DrawList& list = *f.list;
    batchCount_ = list.everything ? list.batchSlots : list.batches.size();
    if (!list.everything && !list.batches.empty()) {
      ensure(frame_.drawn, list.batches.size() * 4, VulkanBuffer::Kind::Upload, "the batch list");
      std::memcpy(frame_.drawn.mapped(), list.batches.data(), list.batches.size() * 4);
    }
    if (!qualityPipeline && batchCount_ > 0) {
      ensure(frame_.visibility, batchCount_ * 4, VulkanBuffer::Kind::Device,
             "the batches' visibility");
    }

    vk::VulkanFrameParams p{};
    copySlices(pool_.positions(), p.positions);
    copySlices(pool_.colors(), p.colors);
    copySlices(pool_.filterWords(), p.filterWords);
    copySlices(pool_.rangeValues(), p.rangeValues);
    p.sliceShift = pool_.sliceShift();
    p.batches = pool_.batches().address();
    p.summaries = pool_.summaries().address();
    p.drawn = frame_.drawn.address();
    p.visibility = frame_.visibility.address();
    p.words = frame_.words.address();
    p.filled = frame_.filled.address();
    p.accumulators = frame_.accumulators.address();
    p.image = f.target.memory == MemorySpace::Exported ? exported_.address()
                                                       : frame_.image.address();
    p.batchCount = uint32_t(batchCount_);
    p.drawnListed = list.everything ? 0u : 1u;
    p.flipRows = f.target.topRowFirst ? 1u : 0u;
    p.background = f.settings->background;
    p.hasFilterData = (pool_.hasFilterWords() ? 1u : 0u) | (pool_.hasRangeValues() ? 2u : 0u);
    std::copy_n(f.view.viewProjection, 16, p.view.viewProjection);
    p.view.width = f.view.width;
    p.view.height = f.view.height;
    p.view.nearPlane = f.view.nearPlane;
    p.view.farPlane = f.view.farPlane;
    p.view.orthographic = f.view.orthographic;
    std::copy_n(f.view.depthRow, 4, p.view.depthRow);
    if (qualityPipeline) {
      const SplatFrame s = makeSplatFrame(quality, f.view);
      p.splat = {s.width,         s.height,   s.sizePx,
                 s.maxSizePx,     s.worldSizeToPx, s.marginPx,
                 s.worldSize ? 1u : 0u, s.orthographic ? 1u : 0u, s.round ? 1u : 0u};
      const QualityResolveParams r =
          makeQualityResolveParams(quality, f.settings->background, f.view.width, f.view.height);
      p.shade = {r.backgroundBottom, r.backgroundTop, r.gradient ? 1u : 0u, r.edl ? 1u : 0u,
                 r.edlRadiusPx,      r.edlDiagonalPx, r.edlFactor,        quality.highQuality ? 1u : 0u,
                 1.0f + quality.hqDepthRange, quality.fillRadiusPx};
    }
    p.filter = f.filter;
    p.clip = f.clip;
    std::memcpy(frame_.params.mapped(), &p, sizeof p);
  }

  /// The slices' addresses into the frame's table (kFrameSlices entries, the rest 0).
  static void copySlices(const vk::SlicedArray& array, uint64_t* table) {
    const std::vector<VkDeviceAddress> addresses = array.addresses();
    std::copy_n(addresses.begin(), std::min<size_t>(addresses.size(), vk::kFrameSlices), table);
  }

  /// Clear and the depth pass: the compact raster, or the footprints and hole filling. The
  /// first `clearWords` words are known to be clear (a compact resolve cleared them): a frame
  /// within them needs no clear.
  void recordDepthPass(VkCommandBuffer commands, const FrameDraw& f, uint64_t clearWords) {
    const uint64_t pixels = uint64_t(f.view.width) * uint64_t(f.view.height);
    const VkDeviceAddress params = frame_.params.address();
    if (pixels > clearWords) {
      vkCmdFillBuffer(commands, frame_.words.handle(), 0, pixels * 8, 0xffffffffu);  // kEmptyPixel
      vk::computeBarrier(commands);
      stamps_.mark(commands, "clear");
    }
    if (f.pipeline != DrawPipeline::Quality) {
      // Most frames clip nothing and filter nothing: the raster without those tests.
      const bool plain = f.clip.active == 0u && f.filter.active == 0u;
      // The cull first, eight invocations a batch, so that the raster's workgroups of batches
      // out of view end after one read (the cull in each workgroup kept them for a load chain
      // and a barrier).
      compactCull_.recordPerItem(commands, params,
                                 (batchCount_ + kCulledPerWorkgroup - 1) / kCulledPerWorkgroup);
      vk::computeBarrier(commands);
      stamps_.mark(commands, "cull");
      (plain ? compactRasterPlain_ : compactRaster_).recordPerItem(commands, params, batchCount_);
      vk::computeBarrier(commands);
      stamps_.mark(commands, "raster");
      return;
    }
    splatDepth_.recordPerItem(commands, params, batchCount_);
    vk::computeBarrier(commands);
    stamps_.mark(commands, "splat");
    if (f.settings->quality.fillRadiusPx > 0) {
      fill_.recordPerPixel(commands, params, f.view.width, f.view.height);
      vk::computeBarrier(commands);
      stamps_.mark(commands, "fill");
    }
  }

  std::unique_ptr<vk::VulkanContext> context_;
  mutable vk::VulkanPointPool pool_;  // downloads stage through it
  StageStamps stamps_;
  bool emulatedFma_;
  bool statistics_;  // the driver keeps the frame kernels' statistics (kernelStatistics)
  vk::ShaderConstants constants_;
  ComputeKernel compactCull_, compactRaster_, compactRasterPlain_, resolve_, splatDepth_,
      splatAccumulate_, fill_, qualityShade_;
  /// Leading framebuffer words known to hold kEmptyPixel (the compact resolve clears what it
  /// reads): only a first, larger or picked frame, or one after the quality pipeline, clears.
  uint64_t clearWords_ = 0;
  ComputeKernel classChanges_;
  FrameBuffers frame_;
  VulkanBuffer pickReadback_;
  VulkanBuffer exported_;  // the frames another API imported
  uint64_t batchCount_ = 0;
  bool timeStages_ = true;
  StageTimings timings_, readbackTimings_;
};

}  // namespace

std::unique_ptr<RasterBackend> createVulkanBackend(PointStorage storage, const std::string& device,
                                                   bool allowSoftware, uint64_t slicePoints) {
  // Checked before the device is opened and the shaders are built.
  if (storage == PointStorage::Unsorted) {
    throw UnavailableError(
        "the vulkan backend draws the compact layout, which needs Morton order; this renderer "
        "keeps unsorted points only");
  }
  return std::make_unique<VulkanBackend>(storage, device, allowSoftware, slicePoints);
}

}  // namespace pcv
