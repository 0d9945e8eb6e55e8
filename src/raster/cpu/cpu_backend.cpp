#include "cpu_backend.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <string>

#include "../laid_out_arrays.hpp"
#include "cpu_methods.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"
#include "point_layout.hpp"
#include "quality_pipeline.hpp"

namespace pcv {
namespace {

/// What free point slots hold: never drawn by any method.
constexpr Point kEmptySlot{std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f, 0};

template <typename T>
void growTo(std::vector<T>& values, uint64_t count, const T& fill, const char* what) {
  if (count <= values.size()) return;
  requireHostMemory(what, count - values.size(), sizeof(T));
  try {
    values.resize(count, fill);
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError(std::string("not enough host memory for ") + what + ": " +
                           std::to_string(count) + " x " + std::to_string(sizeof(T)) + " bytes");
  }
}

/// Grows without writing the new elements: their pages are touched when a set is stored there.
template <typename T>
void growUnwritten(UninitializedVector<T>& values, uint64_t count, const char* what) {
  if (count <= values.size()) return;
  requireHostMemory(what, count - values.size(), sizeof(T));
  try {
    values.resize(count);
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError(std::string("not enough host memory for ") + what + ": " +
                           std::to_string(count) + " x " + std::to_string(sizeof(T)) + " bytes");
  }
}

class CpuBackend final : public RasterBackend {
 public:
  explicit CpuBackend(PointStorage storage)
      : sorted_(storage != PointStorage::Unsorted),
        keepsPoints_(storage != PointStorage::Compact) {}

  std::string name() const override { return "cpu"; }
  std::string deviceDescription() const override {
    return "CPU, " + std::to_string(workerCount()) + " threads";
  }
  bool implements(RasterMethod method) const override { return method != RasterMethod::EarlyZ; }
  void setTimeStages(bool) override {}  // wall-clock stage times cost nothing here

  void reservePool(uint64_t points, uint64_t batches) override {
    // Checked as a whole first, so a pool that cannot fit fails before anything is allocated.
    const uint64_t oldPoints = std::max(pool_.positions.size(), pool_.points.size());
    if (points > oldPoints) {
      const uint64_t perPoint = (sorted_ ? 8 : 0) + (keepsPoints_ ? sizeof(Point) : 0);
      requireHostMemory("the points of the resident sets", points - oldPoints, perPoint);
    }
    if (sorted_) {
      growUnwritten(pool_.positions, points, "the compact positions");
      growUnwritten(pool_.colors, points, "the compact colours");
      growTo(pool_.batches, batches, Batch{}, "the point batches");
    }
    if (keepsPoints_) growTo(pool_.points, points, kEmptySlot, "the points");
    // Filter arrays grow with the pool once a set has stored filter data.
    if (!pool_.filterWords.empty()) growFilterArrays();
  }

  void storeFilterData(PointRange points, PointRange batches, const uint16_t* words,
                       const float* values) override {
    if (pool_.filterWords.empty()) {
      growTo(pool_.filterWords, pool_.positions.size(), uint16_t(0), "the filter words");
    }
    growFilterArrays();
    std::copy_n(words, points.count, pool_.filterWords.begin() + points.first);
    if (values) {
      growTo(pool_.rangeValues, pool_.positions.size(), 0.0f, "the range values");
      std::copy_n(values, points.count, pool_.rangeValues.begin() + points.first);
    }
    parallelFor(batches.count, [&](uint64_t b, uint64_t e) {
      for (uint64_t slot = batches.first + b; slot < batches.first + e; ++slot) {
        const Batch& batch = pool_.batches[slot];
        pool_.summaries[slot] = summarizeBatch(
            pool_.filterWords.data() + batch.first,
            values ? pool_.rangeValues.data() + batch.first : nullptr, batch.count);
      }
    });
  }
  void storeColors(PointRange points, const uint32_t* colors) override {
    if (sorted_) std::copy_n(colors, points.count, pool_.colors.begin() + points.first);
    if (keepsPoints_) {
      for (uint64_t i = 0; i < points.count; ++i) pool_.points[points.first + i].rgba = colors[i];
    }
  }
  bool storeClassChanges(const ClassChanges& changes) override {
    const bool withClasses = changes.classes && !pool_.filterWords.empty();
    // Colours and words in parallel (one point each); the summaries after, on one thread, as
    // several points may share a batch.
    parallelFor(changes.pointSlots.size(), [&](uint64_t begin, uint64_t end) {
      for (uint64_t i = begin; i < end; ++i) {
        const uint32_t slot = changes.pointSlots[i];
        if (sorted_) pool_.colors[slot] = changes.colors[i];
        if (keepsPoints_) pool_.points[slot].rgba = changes.colors[i];
        if (withClasses) {
          uint16_t& word = pool_.filterWords[slot];
          word = uint16_t((word & 0xff00u) | changes.classes[i]);
        }
      }
    });
    if (withClasses) {
      for (size_t i = 0; i < changes.pointSlots.size(); ++i) {
        const uint32_t c = changes.classes[i];
        pool_.summaries[changes.batchSlots[i]].classMask[c >> 5] |= 1u << (c & 31u);
      }
    }
    return true;
  }
  void freePool() override { pool_ = {}; }

  void growFilterArrays() {
    growTo(pool_.filterWords, pool_.positions.size(), uint16_t(0), "the filter words");
    growTo(pool_.summaries, pool_.batches.size(), BatchSummary{}, "the batch summaries");
    if (!pool_.rangeValues.empty())
      growTo(pool_.rangeValues, pool_.positions.size(), 0.0f, "the range values");
  }
  uint64_t freeMemoryBytes() const override { return availableHostMemoryBytes(); }
  uint64_t poolBytes() const override {
    return pool_.positions.size() * 4 + pool_.colors.size() * 4 + pool_.filterWords.size() * 2 +
           pool_.rangeValues.size() * 4 + pool_.summaries.size() * sizeof(BatchSummary) +
           pool_.batches.size() * sizeof(Batch) + pool_.points.size() * sizeof(Point);
  }

  void storeSlice(const PointProducer& source, uint64_t sourceFirst, uint64_t count,
                  uint64_t pointFirst, uint64_t batchFirst, uint32_t* sourceOrder) override {
    const std::span<const Point> slice = hostSlice(source, sourceFirst, count, produced_);
    layOutSlice(slice, pool_, pointFirst, batchFirst, sorted_, keepsPoints_, sourceOrder);
    produced_ = {};
  }

  void storeLaidOut(const LaidOutArrays& set, uint64_t pointFirst, uint64_t batchFirst) override {
    const HostPointPool& from = set.layout;
    if (keepsPoints_) std::copy(from.points.begin(), from.points.end(), pool_.points.begin() + pointFirst);
    if (sorted_) {
      std::copy(from.positions.begin(), from.positions.end(), pool_.positions.begin() + pointFirst);
      std::copy(from.colors.begin(), from.colors.end(), pool_.colors.begin() + pointFirst);
      for (size_t b = 0; b < from.batches.size(); ++b) {
        Batch batch = from.batches[b];
        batch.first += uint32_t(pointFirst);  // laid out from the set's first point
        pool_.batches[batchFirst + b] = batch;
      }
    }
    if (set.filterWords.empty()) return;
    if (pool_.filterWords.empty()) {
      growTo(pool_.filterWords, pool_.positions.size(), uint16_t(0), "the filter words");
    }
    growFilterArrays();
    std::copy(set.filterWords.begin(), set.filterWords.end(),
              pool_.filterWords.begin() + pointFirst);
    if (!set.rangeValues.empty()) {
      growTo(pool_.rangeValues, pool_.positions.size(), 0.0f, "the range values");
      std::copy(set.rangeValues.begin(), set.rangeValues.end(),
                pool_.rangeValues.begin() + pointFirst);
    }
    std::copy(set.summaries.begin(), set.summaries.end(), pool_.summaries.begin() + batchFirst);
  }

  void releaseSlots(PointRange points, PointRange batches) override {
    if (keepsPoints_) {
      std::fill_n(pool_.points.begin() + points.first, points.count, kEmptySlot);
    }
    if (sorted_) std::fill_n(pool_.batches.begin() + batches.first, batches.count, Batch{});
  }

  std::vector<Point> downloadPoints(PointRange points) const override {
    if (!keepsPoints_) return {};
    return {pool_.points.begin() + points.first,
            pool_.points.begin() + points.first + points.count};
  }

  StoredPoint storedPoint(uint64_t pointSlot, uint64_t batchSlot) const override {
    StoredPoint stored;
    if (keepsPoints_) {
      stored.hasPoint = true;
      stored.point = pool_.points[pointSlot];
    }
    if (sorted_) {
      stored.position = pool_.positions[pointSlot];
      stored.batch = pool_.batches[batchSlot];
    }
    return stored;
  }

  std::vector<uint64_t> pickWords(const FrameDraw& f, PixelRect rect) override {
    StageTimings timings;  // a pick's own, so lastTimings() still tells of the last frame
    const cpu::Frame frame{f.view,   f.settings->background, nullptr, &pickWords_, &timings,
                           f.list,   f.clip,                 f.filter};
    const uint64_t* words = pickWords_.data();
    if (f.pipeline == DrawPipeline::Quality) {
      cpu::WallStageClock clock(timings);
      words = cpu::drawQualityWords(frame, pool_, f.settings->quality, pickScratch_, clock);
    } else {
      cpu::drawCompactWords(frame, pool_);
      words = pickWords_.data();
    }
    std::vector<uint64_t> out;
    out.reserve(uint64_t(rect.width) * rect.height);
    for (int y = rect.y; y < rect.y + rect.height; ++y) {
      const uint64_t* row = words + uint64_t(y) * f.view.width;
      out.insert(out.end(), row + rect.x, row + rect.x + rect.width);
    }
    return out;
  }

  void draw(const FrameDraw& f) override {
    if (f.target.memory != MemorySpace::Host) {
      throw UnavailableError("the cpu backend writes host memory only");
    }
    uint32_t* rgba = f.target.rgba;
    if (rgba == nullptr) {
      ownImage_.resize(uint64_t(f.view.width) * f.view.height);
      rgba = ownImage_.data();
    }
    const cpu::Frame frame{f.view,   f.settings->background, rgba, &words_, &timings_,
                           f.list,   f.clip,                 f.filter};
    switch (f.pipeline) {
      case DrawPipeline::Quality:
        cpu::renderQuality(frame, pool_, f.settings->quality, qualityScratch_);
        break;
      case DrawPipeline::Compact:
        cpu::renderCompact(frame, pool_);
        break;
      case DrawPipeline::Packed:
      case DrawPipeline::EarlyZ:  // the same image: early-z only skips atomics that lose
        cpu::renderPacked(frame, pool_.points);
        break;
      case DrawPipeline::Seed:
        cpu::renderSeed(frame, pool_.points);
        break;
    }
    if (f.target.topRowFirst) flipRows(rgba, f.view.width, f.view.height);
  }

  StageTimings lastTimings() override { return timings_; }

 private:
  /// Swaps rows in place, on all cores: the methods draw row 0 at the bottom, where every pixel
  /// of a row is written by one pass; reordering after costs one pass over the image, no copy.
  static void flipRows(uint32_t* rgba, int width, int height) {
    const uint64_t rowPixels = uint64_t(width);
    parallelFor(uint64_t(height / 2), [&](uint64_t begin, uint64_t end) {
      for (uint64_t row = begin; row < end; ++row) {
        uint32_t* low = rgba + row * rowPixels;
        uint32_t* high = rgba + (uint64_t(height) - 1 - row) * rowPixels;
        std::swap_ranges(low, low + rowPixels, high);
      }
    });
  }

  bool sorted_;       // Morton order and the compact layout
  bool keepsPoints_;  // the 16-byte points too
  HostPointPool pool_;
  std::vector<Point> produced_;  // a generated slice, while it is laid out
  std::vector<uint64_t> words_;
  std::vector<uint64_t> pickWords_;  // a pick's depth pass
  cpu::QualityScratch pickScratch_;  // its hole filling
  std::vector<uint32_t> ownImage_;   // drawn here when the caller passes no pixels
  StageTimings timings_;
  cpu::QualityScratch qualityScratch_;
};

}  // namespace

std::unique_ptr<RasterBackend> createCpuBackend(PointStorage storage) {
  return std::make_unique<CpuBackend>(storage);
}

}  // namespace pcv
