#include "cuda_backend.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "../laid_out_arrays.hpp"
#include "cuda_method.hpp"
#include "pcv/core/parallel.hpp"
#include "point_layout.cuh"
#include "quality_pipeline.hpp"

namespace pcv {

bool cudaDeviceUsable(std::string* reason) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (reason) {
      // Without an NVIDIA driver CUDA speaks of versions; say what is true.
      const bool noDriver =
          status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice || count == 0;
      *reason = noDriver ? "no NVIDIA GPU or CUDA driver found"
                         : std::string("CUDA cannot use the GPU: ") + cudaGetErrorString(status);
    }
    cudaGetLastError();  // clear the sticky status so a later check starts clean
    return false;
  }
  return true;
}

namespace {

struct ClassChangeParams {
  const uint32_t* pointSlots;
  const uint32_t* batchSlots;
  const uint32_t* colors;
  const uint8_t* classes;  ///< null: classes stay
  uint64_t count;
  uint32_t* compactColors;  ///< null where the storage does not sort
  Point* points;            ///< null where it keeps no 16-byte points
  uint16_t* filterWords;    ///< null: the pool holds none
  BatchSummary* summaries;
};

/// One changed point per thread: its colour, its class in its filter word, and its class in
/// its batch's summary (atomically: the points of a batch share it).
__global__ void classChangeKernel(ClassChangeParams p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= p.count) return;
  const uint32_t slot = p.pointSlots[i];
  if (p.compactColors) p.compactColors[slot] = p.colors[i];
  if (p.points) p.points[slot].rgba = p.colors[i];
  if (!p.classes || !p.filterWords) return;
  const uint32_t c = p.classes[i];
  p.filterWords[slot] = uint16_t((p.filterWords[slot] & 0xff00u) | c);
  atomicOr(&p.summaries[p.batchSlots[i]].classMask[c >> 5], 1u << (c & 31u));
}

/// Grows `buffer` to `count` elements, keeping its contents; the new elements are zero bytes,
/// then whatever `fill` sets. Never left undefined: a later growth copies every element, and
/// the cull reads the summary of free batch slots too (it drops them by their empty batch).
template <typename T, typename Fill>
void growKeeping(DeviceBuffer<T>& buffer, uint64_t count, const char* what, cudaStream_t stream,
                 Fill fill) {
  if (count <= buffer.size()) return;
  requireDeviceMemory(what, count, sizeof(T));
  DeviceBuffer<T> grown(count);
  if (buffer.size() > 0) {
    CUDA_CHECK(cudaMemcpyAsync(grown.data(), buffer.data(), buffer.bytes(),
                               cudaMemcpyDeviceToDevice, stream));
  }
  CUDA_CHECK(cudaMemsetAsync(grown.data() + buffer.size(), 0, (count - buffer.size()) * sizeof(T),
                             stream));
  const uint64_t old = buffer.size();
  buffer = std::move(grown);
  fill(old, count - old);
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

class CudaBackend final : public RasterBackend {
 public:
  explicit CudaBackend(PointStorage storage)
      : sorted_(storage != PointStorage::Unsorted), keepsPoints_(storage != PointStorage::Compact) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    // PCV_NO_DEPENDENT_LAUNCH=1 serializes the frame's kernels fully (to measure what the
    // overlap brings; see bench/RESULTS.md).
    if (const char* off = std::getenv("PCV_NO_DEPENDENT_LAUNCH"); off && *off == '1') {
      recorder_.setDependentLaunches(false);
    }
  }
  ~CudaBackend() override {
    if (stream_) CUDA_CHECK_PRINT(cudaStreamDestroy(stream_));
  }

  std::string name() const override { return "cuda"; }
  std::string deviceDescription() const override {
    int device = 0;
    cudaDeviceProp properties{};
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    return std::string(properties.name) + ", " + std::to_string(properties.multiProcessorCount) +
           " SMs, " + formatBytes(double(properties.totalGlobalMem));
  }
  bool implements(RasterMethod) const override { return true; }
  void setTimeStages(bool perStage) override { recorder_.setPerStage(perStage); }
  void* cudaStream() const override { return stream_; }
  bool onGpu() const override { return true; }
  bool laysOutOnDevice() const override { return sorted_; }

  void reservePool(uint64_t points, uint64_t batches) override {
    // Checked as a whole first, so a pool that cannot fit fails before anything moves.
    const uint64_t oldPoints = std::max(pool_.positions.size(), pool_.points.size());
    if (points > oldPoints) {
      const uint64_t perPoint = (sorted_ ? 8 : 0) + (keepsPoints_ ? sizeof(Point) : 0);
      requireDeviceMemory("the points of the resident sets", points - oldPoints, perPoint);
    }
    auto emptyPoints = [&](uint64_t first, uint64_t count) {
      cuda::emptySlots(pool_, {first, count}, {0, 0}, stream_);
    };
    auto emptyBatches = [&](uint64_t first, uint64_t count) {
      cuda::emptySlots(pool_, {0, 0}, {first, count}, stream_);
    };
    auto none = [](uint64_t, uint64_t) {};  // zero bytes do: slots of no batch draw nothing
    if (sorted_) {
      growKeeping(pool_.positions, points, "the compact positions", stream_, none);
      growKeeping(pool_.colors, points, "the compact colours", stream_, none);
      growKeeping(pool_.batches, batches, "the point batches", stream_, emptyBatches);
    }
    if (keepsPoints_) growKeeping(pool_.points, points, "the points", stream_, emptyPoints);
    // Filter arrays grow with the pool once a set has stored filter data; the words and values
    // of slots of no set's data are never read (their sets are not drawn while a filter is on).
    if (pool_.filterWords.size() > 0) growFilterArrays();
  }

  void growFilterArrays() {
    auto none = [](uint64_t, uint64_t) {};
    growKeeping(pool_.filterWords, pool_.positions.size(), "the filter words", stream_, none);
    growKeeping(pool_.summaries, pool_.batches.size(), "the batch summaries", stream_, none);
    if (pool_.rangeValues.size() > 0) {
      growKeeping(pool_.rangeValues, pool_.positions.size(), "the range values", stream_, none);
    }
    growKeeping(pool_.passBits, pool_.batches.size() * cuda::kPassWordsPerBatch,
                "the filter's pass bits", stream_, none);
    growKeeping(pool_.passStamps, pool_.batches.size(), "the pass bits' stamps", stream_,
                [&](uint64_t first, uint64_t count) {
                  clearPassStamps({first, count});
                });
  }

  /// Marks the pass bits of the batch slots as holding no filter's verdicts.
  void clearPassStamps(PointRange batches) {
    if (batches.count == 0) return;
    CUDA_CHECK(cudaMemsetAsync(pool_.passStamps.data() + batches.first, 0,
                               batches.count * sizeof(uint32_t), stream_));
  }

  void storeFilterData(PointRange points, PointRange batches, const uint16_t* words,
                       const float* values) override {
    growFilterArrays();
    if (values) {
      growKeeping(pool_.rangeValues, pool_.positions.size(), "the range values", stream_,
                  [](uint64_t, uint64_t) {});
    }
    // The summaries are made on the host from the given data and the batches' point ranges.
    std::vector<Batch> boxes(batches.count);
    CUDA_CHECK(cudaMemcpyAsync(boxes.data(), pool_.batches.data() + batches.first,
                               batches.count * sizeof(Batch), cudaMemcpyDeviceToHost, stream_));
    // The batches' cached verdicts were of the data this replaces.
    clearPassStamps(batches);
    CUDA_CHECK(cudaMemcpyAsync(pool_.filterWords.data() + points.first, words,
                               points.count * sizeof(uint16_t), cudaMemcpyHostToDevice, stream_));
    if (values) {
      CUDA_CHECK(cudaMemcpyAsync(pool_.rangeValues.data() + points.first, values,
                                 points.count * sizeof(float), cudaMemcpyHostToDevice, stream_));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<BatchSummary> summaries(batches.count);
    parallelFor(batches.count, [&](uint64_t b, uint64_t e) {
      for (uint64_t i = b; i < e; ++i) {
        const uint64_t offset = boxes[i].first - points.first;
        summaries[i] = summarizeBatch(words + offset, values ? values + offset : nullptr,
                                      boxes[i].count);
      }
    });
    CUDA_CHECK(cudaMemcpyAsync(pool_.summaries.data() + batches.first, summaries.data(),
                               batches.count * sizeof(BatchSummary), cudaMemcpyHostToDevice,
                               stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }
  void freePool() override {
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    pool_ = {};
    workspace_ = {};
  }
  uint64_t poolBytes() const override { return pool_.bytes(); }
  uint64_t freeMemoryBytes() const override {
    size_t freeBytes = 0, totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    return freeBytes;
  }

  void storeSlice(const PointProducer& source, uint64_t sourceFirst, uint64_t count,
                  uint64_t pointFirst, uint64_t batchFirst, uint32_t* order) override {
    if (!sorted_) {
      // The slots are the slice's destination: no workspace.
      producePoints(source, sourceFirst, count, pool_.points.data() + pointFirst);
      CUDA_CHECK(cudaStreamSynchronize(stream_));
      return;
    }
    if (workspace_.slice.size() < count) {
      requireDeviceMemory("a slice of points to lay out", count, sizeof(Point));
      workspace_.slice.reserve(count);
    }
    producePoints(source, sourceFirst, count, workspace_.slice.data());
    cuda::layoutSlice(workspace_.slice.data(), count, pool_, pointFirst, batchFirst, keepsPoints_,
                      order, workspace_, stream_);
    workspace_.trim();
  }

  void storeColors(PointRange points, const uint32_t* colors) override {
    if (points.count == 0) return;
    // From pageable memory: staged before the calls return, run after the frames in flight.
    if (sorted_) {
      CUDA_CHECK(cudaMemcpyAsync(pool_.colors.data() + points.first, colors,
                                 points.count * sizeof(uint32_t), cudaMemcpyHostToDevice, stream_));
    }
    if (keepsPoints_) {
      // The colour word of each 16-byte point: a strided copy.
      CUDA_CHECK(cudaMemcpy2DAsync(&(pool_.points.data() + points.first)->rgba, sizeof(Point),
                                   colors, sizeof(uint32_t), sizeof(uint32_t), points.count,
                                   cudaMemcpyHostToDevice, stream_));
    }
  }

  bool storeClassChanges(const ClassChanges& changes) override {
    const uint64_t count = changes.pointSlots.size();
    if (count == 0) return true;
    const bool withClasses = changes.classes && pool_.filterWords.size() > 0;
    // The changes go up from pageable memory (staged before the copies return) and are applied
    // on the draw stream after the frames in flight; the next frame sees them all.
    DeviceBuffer<uint32_t> slots(2 * count), colors(count);
    DeviceBuffer<uint8_t> classes(withClasses ? count : 0);
    const auto upload = [&](void* device, const void* host, size_t bytes) {
      CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream_));
    };
    upload(slots.data(), changes.pointSlots.data(), count * sizeof(uint32_t));
    if (withClasses) {
      upload(slots.data() + count, changes.batchSlots.data(), count * sizeof(uint32_t));
      upload(classes.data(), changes.classes, count);
      clearPassStamps(changes.batches);  // their cached verdicts were of the old classes
    }
    upload(colors.data(), changes.colors, count * sizeof(uint32_t));
    const unsigned blocks = unsigned((count + 255) / 256);
    classChangeKernel<<<blocks, 256, 0, stream_>>>(
        {slots.data(), slots.data() + count, colors.data(), withClasses ? classes.data() : nullptr,
         count, sorted_ ? pool_.colors.data() : nullptr,
         keepsPoints_ ? pool_.points.data() : nullptr,
         withClasses ? pool_.filterWords.data() : nullptr,
         withClasses ? pool_.summaries.data() : nullptr});
    CUDA_CHECK(cudaGetLastError());
    // The buffers are freed when this returns: the kernel must be done with them.
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return true;
  }

  void storeLaidOut(const LaidOutArrays& set, uint64_t pointFirst, uint64_t batchFirst) override {
    // Copies from pageable memory return once the driver has staged the bytes, so the arrays
    // may go when this returns; the copies run on the draw stream after the frames in flight,
    // and nothing here waits for them.
    auto upload = [&](void* device, const void* host, size_t bytes) {
      if (bytes == 0) return;
      CUDA_CHECK(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream_));
    };
    const HostPointPool& from = set.layout;
    if (keepsPoints_) {
      upload(pool_.points.data() + pointFirst, from.points.data(),
             from.points.size() * sizeof(Point));
    }
    if (sorted_) {
      upload(pool_.positions.data() + pointFirst, from.positions.data(),
             from.positions.size() * sizeof(uint32_t));
      upload(pool_.colors.data() + pointFirst, from.colors.data(),
             from.colors.size() * sizeof(uint32_t));
      std::vector<Batch> batches(from.batches);
      for (Batch& batch : batches) batch.first += uint32_t(pointFirst);  // from the set's start
      upload(pool_.batches.data() + batchFirst, batches.data(), batches.size() * sizeof(Batch));
    }
    // Verdicts kept for the slots' previous points are not this set's.
    if (pool_.passStamps.size() > 0) clearPassStamps({batchFirst, from.batches.size()});
    if (set.filterWords.empty()) return;
    growFilterArrays();
    if (!set.rangeValues.empty()) {
      growKeeping(pool_.rangeValues, pool_.positions.size(), "the range values", stream_,
                  [](uint64_t, uint64_t) {});
      upload(pool_.rangeValues.data() + pointFirst, set.rangeValues.data(),
             set.rangeValues.size() * sizeof(float));
    }
    upload(pool_.filterWords.data() + pointFirst, set.filterWords.data(),
           set.filterWords.size() * sizeof(uint16_t));
    upload(pool_.summaries.data() + batchFirst, set.summaries.data(),
           set.summaries.size() * sizeof(BatchSummary));
  }

  void releaseSlots(PointRange points, PointRange batches) override {
    cuda::emptySlots(pool_, points, batches, stream_);
    if (pool_.passStamps.size() > 0) clearPassStamps(batches);
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  std::vector<Point> downloadPoints(PointRange points) const override {
    if (!keepsPoints_) return {};
    std::vector<Point> host(points.count);
    CUDA_CHECK(cudaMemcpyAsync(host.data(), pool_.points.data() + points.first,
                               points.count * sizeof(Point), cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return host;
  }

  StoredPoint storedPoint(uint64_t pointSlot, uint64_t batchSlot) const override {
    StoredPoint stored;
    auto copy = [&](void* host, const void* device, size_t bytes) {
      CUDA_CHECK(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream_));
    };
    if (keepsPoints_) {
      stored.hasPoint = true;
      copy(&stored.point, pool_.points.data() + pointSlot, sizeof(Point));
    }
    if (sorted_) {
      copy(&stored.position, pool_.positions.data() + pointSlot, sizeof(uint32_t));
      copy(&stored.batch, pool_.batches.data() + batchSlot, sizeof(Batch));
    }
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return stored;
  }

  std::vector<uint64_t> pickWords(const FrameDraw& f, PixelRect rect) override {
    const uint64_t pixels = uint64_t(f.view.width) * f.view.height;
    // A recorder of its own, so lastTimings() still tells of the last frame.
    pickRecorder_.beginFrame(stream_);
    cuda::FrameContext pickFrame = frameContext(*f.list, f, cuda::PixelSink{});
    pickFrame.recorder = &pickRecorder_;
    const uint64_t* words = nullptr;
    if (f.pipeline == DrawPipeline::Quality) {
      words = quality_.drawWords(pickFrame, f.settings->quality);
    } else {
      pickWords_.reserve(pixels);
      CUDA_CHECK(cudaMemsetAsync(pickWords_.data(), 0xff, pixels * sizeof(uint64_t), stream_));
      pickStages_.draw(pickFrame, reinterpret_cast<unsigned long long*>(pickWords_.data()));
      words = pickWords_.data();
    }
    pickRecorder_.endFrame();
    std::vector<uint64_t> out(uint64_t(rect.width) * rect.height);
    CUDA_CHECK(cudaMemcpy2DAsync(out.data(), rect.width * sizeof(uint64_t),
                                 words + uint64_t(rect.y) * f.view.width + rect.x,
                                 f.view.width * sizeof(uint64_t), rect.width * sizeof(uint64_t),
                                 rect.height, cudaMemcpyDeviceToHost, stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return out;
  }

  void draw(const FrameDraw& f) override {
    if (f.target.memory == MemorySpace::Exported) {
      throw UnavailableError("the cuda backend draws into no exported memory");
    }
    const uint64_t pixels = uint64_t(f.view.width) * f.view.height;
    framebuffer_.reserve(pixels);
    const RenderTarget& target = f.target;
    // Rows top row first are written so by the resolve itself (PixelSink::topRowFirst).
    cuda::PixelSink out{target.rgba, cudaSurfaceObject_t(target.surface), f.view.width,
                        f.view.height,
                        target.topRowFirst && target.memory != MemorySpace::CudaSurface};
    if (target.memory == MemorySpace::Host || target.rgba == nullptr) {
      deviceImage_.reserve(pixels);
      out.rgba = deviceImage_.data();
    }
    if (target.memory == MemorySpace::CudaSurface) out.rgba = nullptr;
    recorder_.beginFrame(stream_);
    const cuda::FrameContext frame = frameContext(*f.list, f, out);
    if (f.pipeline == DrawPipeline::Quality) {
      quality_.render(frame, f.settings->quality);
    } else {
      method(f.pipeline).render(frame);
    }
    recorder_.endFrame();
    readBack(target, out.rgba, pixels);
  }

  StageTimings lastTimings() override { return recorder_.timings(); }
  StageTimings lastReadbackTimings() override {
    return readsBack_ ? readbackRecorder_.timings() : StageTimings{};
  }

 private:
  /// Points of the source into device memory: generated there where the source can, else
  /// produced on the host (or read where they lie) and copied.
  void producePoints(const PointProducer& source, uint64_t first, uint64_t count, Point* device) {
    if (source.produceOnDevice(first, count, device, stream_)) return;
    std::span<const Point> host = source.hostPoints();
    std::vector<Point> produced;
    if (host.empty()) {
      produced.resize(count);
      source.produce(first, produced);
      host = produced;
    } else {
      host = host.subspan(first, count);
    }
    CUDA_CHECK(cudaMemcpyAsync(device, host.data(), count * sizeof(Point), cudaMemcpyHostToDevice,
                               stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));  // `produced` is freed on return
  }

  /// After the frame: one copy into host memory for a host target, timed by a recorder of its
  /// own, so the frame's timings are the drawing alone, as pcv bench's.
  void readBack(const RenderTarget& target, const uint32_t* drawn, uint64_t pixels) {
    readsBack_ = target.memory == MemorySpace::Host && target.rgba != nullptr;
    if (!readsBack_) return;
    readbackRecorder_.beginFrame(stream_);
    // One copy engine transfer; at link speed when the caller's memory is pinned.
    CUDA_CHECK(cudaMemcpyAsync(target.rgba, drawn, pixels * sizeof(uint32_t),
                               cudaMemcpyDeviceToHost, stream_));
    readbackRecorder_.endStage("copy");
    readbackRecorder_.endFrame();
    CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  cuda::FrameContext frameContext(const DrawList& list, const FrameDraw& f,
                                  const cuda::PixelSink& out) {
    cuda::FrameContext frame{.pool = &pool_,
                             .drawnBatches = nullptr,
                             .batchCount = uint32_t(list.batchSlots),
                             .pointRanges = {{0, list.pointSlots}},
                             .view = f.view,
                             .settings = f.settings,
                             .clip = f.clip,
                             .filter = f.filter,
                             .filterGeneration = filterGeneration(f.filter),
                             .out = out,
                             .framebuffer = &framebuffer_,
                             .recorder = &recorder_};
    if (!list.everything) {
      drawnBatches_.reserve(std::max<uint64_t>(list.batches.size(), 1));
      CUDA_CHECK(cudaMemcpyAsync(drawnBatches_.data(), list.batches.data(),
                                 list.batches.size() * sizeof(uint32_t), cudaMemcpyHostToDevice,
                                 stream_));
      frame.drawnBatches = drawnBatches_.data();
      frame.batchCount = uint32_t(list.batches.size());
      frame.pointRanges = list.pointRanges;
    }
    return frame;
  }

  /// A number for each filter drawn in turn, the same while the filter stays: what the pass
  /// bits' stamps say they were written for. Never 0 (the stamp of no verdicts).
  uint32_t filterGeneration(const FilterFrame& filter) {
    if (!filter.active) return 0;
    if (std::memcmp(&filter, &lastFilter_, sizeof(FilterFrame)) != 0) {
      lastFilter_ = filter;
      filterGeneration_ = filterGeneration_ + 1 == 0 ? 1 : filterGeneration_ + 1;
    }
    return filterGeneration_;
  }

  cuda::CudaMethod& method(DrawPipeline pipeline) {
    auto& slot = methods_[int(pipeline)];
    if (!slot) {
      switch (pipeline) {
        case DrawPipeline::Compact:
          slot = cuda::createCompactMethod();
          break;
        case DrawPipeline::EarlyZ:
          slot = cuda::createEarlyZMethod();
          break;
        case DrawPipeline::Packed:
          slot = cuda::createPackedMethod();
          break;
        case DrawPipeline::Seed:
          slot = cuda::createSeedMethod();
          break;
        case DrawPipeline::Quality:
          throw std::logic_error("the quality pipeline is not a method");
      }
    }
    return *slot;
  }

  bool sorted_;       // Morton order and the compact layout
  bool keepsPoints_;  // the 16-byte points too
  cudaStream_t stream_ = nullptr;
  cuda::DevicePointPool pool_;
  cuda::SliceWorkspace workspace_;       // where slices are laid out (storeSlice)
  DeviceBuffer<uint32_t> drawnBatches_;  // the frame's batch slots when not all are drawn
  FilterFrame lastFilter_{};             // the filter of filterGeneration_
  uint32_t filterGeneration_ = 0;
  DeviceBuffer<uint64_t> framebuffer_;
  DeviceBuffer<uint32_t> deviceImage_;   // drawn here when the caller wants the image on the host
  StageRecorder recorder_;
  StageRecorder readbackRecorder_;        // the last frame's copy to the host
  bool readsBack_ = false;                // whether the last frame had them
  StageRecorder pickRecorder_;            // a pick's depth pass, timed apart from the frames
  cuda::CompactRasterStages pickStages_;  // its cull and raster
  DeviceBuffer<uint64_t> pickWords_;      // its framebuffer
  std::unique_ptr<cuda::CudaMethod> methods_[4];  // by DrawPipeline, made on first use
  cuda::QualityPipeline quality_;  // runs instead of the method when a quality setting is on
};

}  // namespace

std::unique_ptr<RasterBackend> createCudaBackend(PointStorage storage) {
  return std::make_unique<CudaBackend>(storage);
}

}  // namespace pcv
