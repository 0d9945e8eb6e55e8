/// @brief The renderer: resident point sets in GPU memory (the cuda backend) or host memory (the
/// cpu backend), drawn into an RGBA8 image from a view. A set is a block of points laid out for
/// drawing (Morton-ordered batches with bounding boxes); an in-core cloud is one set, a streamed
/// octree's nodes are many that come and go between frames. Each frame draws a list of sets.
#pragma once

#include <atomic>
#include <functional>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pcv/core/point.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_producer.hpp"
#include "pcv/core/stage_timings.hpp"
#include "pcv/core/uninitialized_vector.hpp"
#include "pcv/raster/backend_choice.hpp"
#include "pcv/raster/projection.hpp"
#include "pcv/raster/raster_method.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/raster/render_target.hpp"

namespace pcv {

/// The most points a renderer holds at once: the framebuffer's 32-bit payload names a point.
constexpr uint64_t kMaxPointCount = 0xffffffffull - 64;

/// How a renderer keeps the points of its sets; fixed at creation.
enum class PointStorage : uint8_t {
  Compact,           ///< 8 bytes per point, Morton order: the compact method and quality modes
  CompactAndPoints,  ///< also the 16-byte points, for every method (the default)
  Unsorted,          ///< only the 16-byte points in the given order: packed and seed, to measure
                     ///< what the ordering brings
};

/// Memory a backend draws frames into and lends another API: an opaque POSIX file descriptor
/// of the Vulkan backend (VK_KHR_external_memory_fd), which GL imports (GL_EXT_memory_object_fd).
struct ExportedImageMemory {
  int fd = -1;         ///< owned by the caller, who hands it to the importer (or closes it)
  uint64_t bytes = 0;  ///< the allocation's size, as the importer must be told
};

struct RendererOptions {
  PointStorage storage = PointStorage::CompactAndPoints;
  /// Time each stage (the default), or only whole frames: timing marks between stages cost the
  /// GPU a few microseconds each. lastTimings() then holds one entry, "frame".
  bool timeStages = true;
  /// Sets are sorted and cut into batches slice by slice, so laying one out takes a fixed
  /// workspace whatever its size (about 56 bytes per slice point on the GPU). Points per slice,
  /// in batches of 10 240 points; the default is about 33.6 M points. Both backends cut the
  /// same slices, so their images agree.
  uint64_t layoutSliceBatches = 3277;
  /// The Vulkan device to draw on (backend "vulkan" or "auto"): "" the best one, an index or
  /// part of a name, as `pcv info --devices` lists them.
  std::string vulkanDevice;
};

/// A resident set of points; valid until removeSet().
using PointSetId = uint32_t;

/// How far addSet has laid out a set, for a progress display on another thread.
struct LayoutProgress {
  std::atomic<uint64_t> pointsDone{0};   ///< stored after each layout slice
  std::atomic<uint64_t> pointsTotal{0};  ///< set when the layout starts
  /// 0..1, or 0 before the layout starts.
  double fraction() const {
    const uint64_t total = pointsTotal.load();
    return total == 0 ? 0.0 : double(pointsDone.load()) / double(total);
  }
};

/// What a renderer knows of a set besides its points.
struct PointSetOptions {
  /// The colours are the data's own (not a colour map): EdlMode::Auto shades sets without.
  bool hasColor = true;
  /// Keep on the host, for sourceIndex(), which of the given points each stored one is (the
  /// layout reorders them by Morton code), and where each given point is stored, for
  /// changeClasses: 8 bytes per point. A viewer that holds the points' attributes and double
  /// coordinates asks for this to find a picked point among them and to edit their classes.
  bool keepSourceOrder = false;
  /// Where addSet reports how far it is (slice by slice); may be null.
  LayoutProgress* progress = nullptr;
};

/// What filters read of a set's points, in the order they were given to addSet (one value per
/// point, as the readers' attributes hold them); empty spans: the set lacks that attribute, and
/// a filter that reads it draws none of the set's points.
struct FilterData {
  std::span<const float> classification;   ///< ASPRS class 0-255
  std::span<const float> returnNumber;     ///< 1-15
  std::span<const float> numberOfReturns;  ///< 1-15
  /// The one attribute a range filter may test on this set (values uploaded only when given).
  std::string rangeAttribute;
  std::span<const float> rangeValues;
  std::span<const double> wideRangeValues;  ///< instead, for a wide attribute (GPS time)

  bool hasRangeValues() const { return !rangeValues.empty() || !wideRangeValues.empty(); }
  uint64_t rangeValueCount() const { return rangeValues.size() + wideRangeValues.size(); }
  /// The range value of point i, as the filters test it (floats).
  float rangeValueAt(uint64_t i) const {
    return rangeValues.empty() ? float(wideRangeValues[i]) : rangeValues[i];
  }
};

/// One point's filter data, for generated sets (Renderer::setFilterData with a function).
struct FilterFields {
  uint8_t classification = 0;
  uint8_t returnNumber = 0;     ///< 0-15
  uint8_t numberOfReturns = 0;  ///< 0-15
  float rangeValue = 0.0f;      ///< the range attribute's value
};

/// The filter data of points whose attributes are `attributes` (a cloud's, by the readers'
/// names: classification, return_number, number_of_returns), with `rangeAttribute`'s values when
/// it is not empty and present. The spans point into `attributes`.
FilterData filterDataOf(std::span<const ScalarAttribute> attributes,
                        std::string_view rangeAttribute = {});

/// The resident sets a frame draws: every one, or the listed ones only (a streamed octree keeps
/// nodes resident that the current view does not want). The listed ids must outlive the call.
class SetSelection {
 public:
  static SetSelection everySet() { return SetSelection(); }
  static SetSelection only(std::span<const PointSetId> sets) { return SetSelection(sets); }
  bool everything() const { return everything_; }
  std::span<const PointSetId> sets() const { return sets_; }

 private:
  SetSelection() = default;
  explicit SetSelection(std::span<const PointSetId> sets) : everything_(false), sets_(sets) {}
  bool everything_ = true;
  std::span<const PointSetId> sets_;
};

/// Where the point behind a framebuffer payload lives.
struct PointLocation {
  PointSetId set = 0;
  uint64_t index = 0;  ///< in the set's stored order (Morton order when sorted)
};

/// The point a pick found.
struct PickedPoint {
  PointLocation location;
  /// Its index among the points given to addSet: known when the set keeps its source order
  /// (PointSetOptions::keepSourceOrder) or the storage keeps the given order (Unsorted).
  std::optional<uint64_t> sourceIndex;
  /// Its position as an offset from the view's origin: the stored 16-byte point where the
  /// storage keeps them (the given coordinates, exactly), else the compact layout's quantized
  /// position (within half a quantization step, 1/2046 of its batch's box, of the given one).
  float position[3] = {0.0f, 0.0f, 0.0f};
  float viewDepth = 0.0f;  ///< distance along the view direction
  int pixelX = 0;          ///< the pixel it won, row 0 at the bottom
  int pixelY = 0;
};

class Renderer;
class LaidOutSet;  // a set laid out ahead of time (laid_out_set.hpp)
struct LayoutSpec;

/// Points a renderer took into sets since it was made, by where their layout was done.
struct AddedPoints {
  uint64_t laidOutHere = 0;   ///< laid out by addSet/tryAddSet on the calling thread
  uint64_t laidOutAhead = 0;  ///< copied from sets laid out ahead of time (LaidOutSet)
};

/// Point memory a renderer holds for one streamed source (see Renderer::reservePool): move-only;
/// its destructor removes the sets added through it and gives the slots back to the renderer,
/// which must outlive it. A default-constructed handle holds nothing.
class ReservedPool {
 public:
  ReservedPool() = default;
  ~ReservedPool();
  ReservedPool(ReservedPool&& other) noexcept;
  ReservedPool& operator=(ReservedPool&& other) noexcept;
  ReservedPool(const ReservedPool&) = delete;
  ReservedPool& operator=(const ReservedPool&) = delete;

  explicit operator bool() const { return renderer_ != nullptr; }
  /// Adds a set in this pool's free slots (as Renderer::addSet does in the rest); empty when
  /// it does not fit, and nothing changed: remove sets (Renderer::removeSet) and try again.
  std::optional<PointSetId> tryAddSet(const PointProducer& points,
                                      const PointSetOptions& options = {});
  /// The same for a set laid out ahead of time: a copy, no layout work (options.hasColor is
  /// read; the set kept its source order or not as it was laid out). Throws InputError when it
  /// was laid out for another renderer's layout.
  std::optional<PointSetId> tryAddSet(const LaidOutSet& set, const PointSetOptions& options = {});
  /// Points the pool holds at most (count of point slots, not bytes).
  uint64_t pointCapacity() const;
  /// Point slots its sets take now.
  uint64_t usedPointSlots() const;
  /// Removes its sets and gives its slots back now (the handle then holds nothing).
  void reset();

 private:
  friend class Renderer;
  ReservedPool(Renderer* renderer, uint32_t id) : renderer_(renderer), id_(id) {}
  Renderer* renderer_ = nullptr;
  uint32_t id_ = 0;
};

class RasterBackend;  // a backend's storage and draws (src/raster/raster_backend.hpp)
struct DrawList;      // the slots a frame draws (same header)
struct FrameDraw;     // one frame's pipeline, view and target (same header)

class Renderer {
 public:
  Renderer(std::unique_ptr<RasterBackend> backend, const RendererOptions& options);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  /// "cuda" or "cpu".
  std::string backendName() const;
  /// One line about the device ("NVIDIA H200, 132 SMs, 139.8 GiB" / "CPU, 16 threads").
  std::string deviceDescription() const;
  /// True where the points and frames live on a GPU (cuda, vulkan on a hardware device).
  bool onGpu() const;
  /// The compiled kernels' resource use as the driver reports it, one line per kernel
  /// ("compact_raster_plain: Register Count 40, ..."); empty where the backend or driver cannot
  /// tell (Vulkan with VK_KHR_pipeline_executable_properties can).
  std::vector<std::string> kernelStatistics() const;
  /// Allocates memory for width x height RGBA8 frames (row 0 at the bottom) that another API
  /// can import, replacing what was exported before; frames drawn with a MemorySpace::Exported
  /// target go there, finished when render() returns. Throws UnavailableError where the backend
  /// cannot (cpu, cuda, a Vulkan device without external memory).
  ExportedImageMemory exportImageMemory(int width, int height);
  PointStorage storage() const { return options_.storage; }
  /// Methods this renderer draws with its storage; the first is the default and the fastest.
  std::vector<RasterMethod> methods() const;
  /// The method `settings` asks for, or the default; throws InputError naming the known ones
  /// when this renderer cannot draw it.
  RasterMethod methodFor(const RenderSettings& settings) const;

  /// Adds a set holding a copy of `points`, laid out for drawing in slices (a fixed workspace).
  /// Throws OutOfMemoryError naming the sizes when it does not fit, InputError beyond
  /// kMaxPointCount in all.
  PointSetId addSet(std::span<const Point> points, const PointSetOptions& options = {});
  /// Adds a set of the producer's points, pulled in slices (on the GPU where it can).
  PointSetId addSet(const PointProducer& points, const PointSetOptions& options = {});
  /// Adds a set laid out ahead of time (layOutSet with layoutSpec(), on any thread): its arrays
  /// are copied, nothing is sorted. Throws InputError for a set of another layout.
  PointSetId addSet(const LaidOutSet& set, const PointSetOptions& options = {});
  /// What this renderer's layout depends on, for layOutSet on other threads.
  LayoutSpec layoutSpec() const;
  /// True where addSet(points) sorts and lays the points out on the device (cuda), so points
  /// handed over unsorted cost the host only their copy; false where the layout runs on the
  /// host (cpu, vulkan), which a set laid out ahead (layOutSet) takes off the caller's thread.
  bool laysOutOnDevice() const;
  /// Points taken into sets so far, by where they were laid out.
  const AddedPoints& addedPoints() const { return added_; }
  /// Reserves about `bytes` of point memory (point and batch slots), allocated now, for the
  /// sets a streamed source adds through the handle: they are refused there when its free slots
  /// are full instead of taking more, while addSet() places other sets in the rest of the
  /// renderer's memory, growing it as before. Every set is drawn and picked alike wherever it
  /// lives. Dropping the handle removes its sets and gives the slots back. Throws
  /// OutOfMemoryError naming the sizes (also when the pool would hold more points than the
  /// framebuffer's 32-bit payload names).
  ReservedPool reservePool(uint64_t bytes);
  /// Pool memory one point takes with this storage, its share of batch slots included, in bytes.
  double poolBytesPerPoint() const;
  /// Frees a set's memory for later sets. Unknown ids are ignored.
  void removeSet(PointSetId set);
  /// Removes every set and gives their memory back; reserved pools stay reserved, empty.
  void clear();
  /// Resident sets, in the order they were added.
  std::vector<PointSetId> sets() const;
  /// Points of all resident sets, or of one (count of points, not bytes).
  uint64_t pointCount() const { return residentPoints_; }
  uint64_t pointCount(PointSetId set) const;
  /// Bytes of point data resident (the pool all sets live in).
  uint64_t residentBytes() const;
  /// Bytes free now in the memory the points live in (GPU memory, or host memory for the cpu
  /// backend): what a reserved pool for streaming can take.
  uint64_t freeMemoryBytes() const;
  /// Point slots held by reserved pools, all together (0 when none is).
  uint64_t reservedPointSlots() const;
  /// Stores what filters read of the set's points (compact layout; the set must keep its source
  /// order, PointSetOptions::keepSourceOrder, to place them), with per-batch summaries so a
  /// frame skips batches none of whose points pass. Replaces what was stored before. 2 bytes per
  /// point, 4 more with range values. Throws InputError for a wrong count or an unknown set.
  void setFilterData(PointSetId set, const FilterData& data);
  /// The same from a function of the source index (generated sets, benchmarks; called from
  /// several threads at once): every field is
  /// present, the range values too when `rangeAttribute` is not empty.
  void setFilterData(PointSetId set, const std::function<FilterFields(uint64_t)>& fieldsOf,
                     const std::string& rangeAttribute = {});
  /// Replaces the colours of the set's points (packed RGBA8, one per point in the order they
  /// were given to addSet), their positions and layout unchanged: a recolouring without laying
  /// the set out again (4 bytes per point copied to the points' memory). The set must keep its
  /// source order (PointSetOptions::keepSourceOrder), or the storage the given one (Unsorted).
  /// Throws InputError for a wrong count or an unknown set.
  void setColors(PointSetId set, std::span<const uint32_t> colors);
  /// Changes the colours and classes of some of the set's points only (`sourceIndices`, as given
  /// to addSet), the others untouched: a class edit or a highlight shown without replacing the
  /// whole set's colours and filter data (13 bytes per changed point copied). `classes` (empty: the
  /// classes stay; values as FilterData holds them, stored as setFilterData stores them) reach the
  /// filters where the set holds classes in its filter data. Same requirements as setColors.
  /// Returns false, changing nothing, where this backend cannot do it (setColors and
  /// setFilterData then can). Throws InputError for counts that differ, an index past the set
  /// or an unknown set.
  bool changeClasses(PointSetId set, std::span<const uint64_t> sourceIndices,
                     std::span<const uint32_t> colors, std::span<const float> classes);
  /// The attribute whose values the set holds for a range filter; empty when none.
  std::string rangeAttributeOf(PointSetId set) const;
  /// Copies a set's 16-byte points back to the host in stored order; empty with Compact storage.
  std::vector<Point> downloadPoints(PointSetId set) const;
  /// The set and point a framebuffer payload names; empty for a payload no set holds.
  std::optional<PointLocation> locate(uint32_t payload) const;
  /// The index among the points given to addSet of a stored point; empty when the set keeps no
  /// source order (see PointSetOptions::keepSourceOrder).
  std::optional<uint64_t> sourceIndex(const PointLocation& location) const;

  /// Which point the frame render(view, settings) draws at pixel (xPx, yPx), row 0 at the
  /// bottom; where that pixel is empty, the nearest pixel within radiusPx (a square) that is
  /// not, ties to the closer point. Read from the frame's own depth pass on the backend (the
  /// compact layout's, or the quality pipeline's with its point sizes, hole filling and clip
  /// region), so it finds what is shown for points that live only in GPU memory. Empty when no
  /// point is drawn near the pixel. Throws UnavailableError with Unsorted storage.
  std::optional<PickedPoint> pick(const ViewTransform& view, const RenderSettings& settings,
                                  int xPx, int yPx, int radiusPx = 2);
  /// The same, for the frame that draws `selection`.
  std::optional<PickedPoint> pick(SetSelection selection, const ViewTransform& view,
                                  const RenderSettings& settings, int xPx, int yPx,
                                  int radiusPx = 2);

  /// Draws every resident set. `target` must be in a memory space this backend writes (the cpu
  /// backend: Host; the cuda backend: Device, Host or CudaSurface). Throws InputError for
  /// settings this renderer cannot draw.
  void render(const ViewTransform& view, const RenderSettings& settings,
              const RenderTarget& target);
  /// Draws the given sets only.
  void render(std::span<const PointSetId> sets, const ViewTransform& view,
              const RenderSettings& settings, const RenderTarget& target);
  /// Draws the selected sets.
  void render(SetSelection selection, const ViewTransform& view, const RenderSettings& settings,
              const RenderTarget& target);
  /// Per-stage times of the last render (may wait for the GPU to finish it): the drawing.
  StageTimings lastTimings();
  /// GPU times of what the last render did after drawing: "copy" (to a host target; rows a
  /// target wants top row first are written so by the frame itself); empty where there was none
  /// or the backend does it on the CPU.
  StageTimings lastReadbackTimings();
  /// The cudaStream_t the renderer draws on (void*, so this header needs no CUDA), for interop:
  /// map GL resources on it before render() and unmap on it after, and CUDA orders the work
  /// with GL's. render() returns without waiting for Device and CudaSurface targets. nullptr
  /// for backends that do not use CUDA.
  void* cudaStream() const;

 private:
  friend class ReservedPool;
  struct SetRecord {
    uint64_t pointFirst = 0, pointCount = 0, pointSlots = 0;  ///< pool point slots
    uint64_t batchFirst = 0, batchCount = 0, batchSlots = 0;  ///< pool batch slots
    uint32_t reservation = 0;  ///< the reserved pool it lives in; 0: the shared rest
    bool hasColor = true;
    uint32_t filterFields = 0;   ///< bits: 1 classes, 2 return numbers, 4 numbers of returns
    std::string rangeAttribute;  ///< the attribute of its range values; empty: none
    std::vector<uint32_t> sourceOrder;  ///< stored index -> source index, when kept
    /// source index -> stored index, made with sourceOrder (indexSourceOrder) so that the first
    /// changeClasses of a billion points finds them at once instead of spending ~170 ms on it.
    UninitializedVector<uint32_t> storedIndexOf;
  };
  /// Finds slots for the record in the shared rest of the pool, growing it (by half again when
  /// `headroom`, else by what is needed). Throws OutOfMemoryError.
  void placeInPool(SetRecord& record, bool headroom);
  /// Finds slots for the record in reserved pool `reservation`; false when they are full.
  bool placeInReservation(SetRecord& record, uint32_t reservation);
  /// Makes record.storedIndexOf, the inverse of its sourceOrder, on all cores.
  void indexSourceOrder(SetRecord& record);
  /// Gives a removed set's slots back to where they came from.
  void releaseSlotsOf(const SetRecord& record);
  std::optional<PointSetId> tryAddSetIn(uint32_t reservation, const PointProducer& points,
                                        const PointSetOptions& options);
  std::optional<PointSetId> tryAddSetIn(uint32_t reservation, const LaidOutSet& set,
                                        const PointSetOptions& options);
  /// Copies `set` into the slots of `record` and registers it.
  PointSetId storeLaidOut(const LaidOutSet& set, SetRecord record);
  /// Registers a stored set under a new id.
  PointSetId registerSet(SetRecord record);
  void dropReservation(uint32_t reservation);
  PointSetId storeSet(const PointProducer& points, SetRecord record,
                      const PointSetOptions& options);
  SetRecord recordFor(uint64_t count, const PointSetOptions& options) const;
  uint64_t slicePoints() const;
  /// The batch slot a point of the set lies in (slices cut batches: each ends a partial one).
  uint64_t batchSlotOf(const SetRecord& record, uint64_t index) const;
  /// The frame's pipeline and clip region for `requested`, whose decided copy goes to `decided`
  /// (the frame points to it). Throws InputError for settings this renderer cannot draw.
  FrameDraw prepareFrame(const DrawList& list, bool drawsColorless, const ViewTransform& view,
                         const RenderSettings& requested, RenderSettings& decided) const;
  void draw(const DrawList& list, bool drawsColorless, const ViewTransform& view,
            const RenderSettings& settings, const RenderTarget& target);
  bool drawsColorless() const;
  /// The slots `selection` draws; `colourless` says whether any of its sets lacks colours.
  DrawList drawListFor(SetSelection selection, bool& colorless) const;
  /// The list without the sets `filter` cannot test (they lack what it reads), or `list`.
  void storeFilterData(PointSetId set, const std::function<FilterFields(uint64_t)>& fieldsOf,
                       uint32_t fields, const std::string& rangeAttribute, bool withValues);
  DrawList filterableList(DrawList list, SetSelection selection, const PointFilter& filter) const;

  std::unique_ptr<RasterBackend> backend_;
  RendererOptions options_;
  struct Pool;  // the point and batch slot allocators
  std::unique_ptr<Pool> pool_;
  std::unordered_map<PointSetId, SetRecord> sets_;
  std::vector<PointSetId> order_;  // sets_ keys in the order added
  PointSetId nextId_ = 1;
  uint64_t residentPoints_ = 0;
  uint32_t nextReservation_ = 1;
  AddedPoints added_;
};

/// The backends compiled into this build ("cuda" only where it was built with the CUDA toolkit),
/// whether or not a device is present: what `pcv --version` lists.
std::vector<std::string> builtBackends();

/// True when this build has CUDA and a usable device exists; otherwise `reason` says why not.
bool cudaAvailable(std::string* reason = nullptr);

/// Creates a renderer on the named backend. "auto" picks cuda when cudaAvailable(), else a
/// Vulkan GPU (discrete before integrated; never a software device such as lavapipe, which
/// "vulkan" takes when it is the only one), else cpu. Throws UnavailableError ("built without
/// CUDA", "no NVIDIA GPU ...", the Vulkan device's one-line reason) or InputError for an
/// unknown name, listing the known ones.
std::unique_ptr<Renderer> createRenderer(std::string_view backend = "auto",
                                         const RendererOptions& options = {});

}  // namespace pcv
