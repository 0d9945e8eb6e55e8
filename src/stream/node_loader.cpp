#include "node_loader.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {
namespace {

using Clock = std::chrono::steady_clock;

double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

double sinceEpoch(Clock::time_point at) {
  return std::chrono::duration<double>(at.time_since_epoch()).count();
}

/// Nodes handed to a source's prefetch at once: as many as requests may be in flight.
constexpr size_t kPrefetchNodes = 16;

/// The loader threads' niceness: decoding takes every core, and the frame thread, whose work
/// comes in short bursts, should find one at once when it wakes, not a time slice later.
constexpr int kLoaderNiceness = 5;

/// Lowers the calling thread's priority (Linux gives each thread its own nice value); where the
/// system refuses, the thread keeps the process's.
void runBehindTheFrame() {
#if defined(__linux__)
  setpriority(PRIO_PROCESS, id_t(gettid()), kLoaderNiceness);
#endif
}

}  // namespace

uint64_t DecodedNode::hostBytes() const {
  uint64_t bytes = set.hostBytes() + unsorted.points.size() * sizeof(Point);
  for (const ScalarAttribute& attribute : unsorted.attributes) {
    bytes += attribute.values.size() * sizeof(float) + attribute.wideValues.size() * sizeof(double);
  }
  return bytes;
}

NodeLoader::NodeLoader(std::shared_ptr<const NodeSource> source, const ColoringOptions& coloring,
                       unsigned threads, uint64_t hostBudgetBytes, NodeLayout layout)
    : source_(std::move(source)),
      coloring_(coloring),
      layout_(std::move(layout)),
      hostBudgetBytes_(hostBudgetBytes) {
  for (unsigned t = 0; t < std::max(1u, threads); ++t) threads_.emplace_back([this] { run(); });
}

NodeLoader::~NodeLoader() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void NodeLoader::want(const std::vector<WantedNode>& nodes) {
  {
    const std::lock_guard lock(mutex_);
    queue_.clear();
    for (const WantedNode& wanted : nodes) {
      const uint32_t node = wanted.node;
      if (inFlight_.contains(node) || readyNodes_.contains(node) || failed_.contains(node)) {
        continue;
      }
      queue_.push_back(wanted);
    }
  }
  wake_.notify_all();
}

std::vector<DecodedNode> NodeLoader::take(uint64_t maxPoints) {
  std::vector<DecodedNode> taken;
  {
    const std::lock_guard lock(mutex_);
    uint64_t points = 0;
    size_t kept = 0;
    for (DecodedNode& decoded : ready_) {
      const uint64_t count = decoded.pointCount();
      const bool fits = taken.empty() || points + count <= maxPoints;
      if (!fits) {
        ready_[kept++] = std::move(decoded);
        continue;
      }
      points += count;
      bytesHeld_ -= decoded.hostBytes();
      readyNodes_.erase(decoded.node);
      taken.push_back(std::move(decoded));
    }
    ready_.resize(kept);
  }
  wake_.notify_all();  // room in the budget again
  return taken;
}

void NodeLoader::setSource(std::shared_ptr<const NodeSource> source) {
  restart([&] { source_ = std::move(source); });
}

void NodeLoader::setTint(std::shared_ptr<const NodeTint> tint) {
  restart([&] { tint_ = std::move(tint); });
}

void NodeLoader::restart(const std::function<void()>& change) {
  {
    const std::lock_guard lock(mutex_);
    change();
    ++sourceGeneration_;
    for (const DecodedNode& decoded : ready_) bytesHeld_ -= decoded.hostBytes();
    ready_.clear();
    readyNodes_.clear();
  }
  wake_.notify_all();  // room in the budget again
}

bool NodeLoader::pending(uint32_t node) const {
  const std::lock_guard lock(mutex_);
  return inFlight_.contains(node) || readyNodes_.contains(node) ||
         std::any_of(queue_.begin(), queue_.end(),
                     [node](const WantedNode& wanted) { return wanted.node == node; });
}

size_t NodeLoader::pendingCount() const {
  const std::lock_guard lock(mutex_);
  return queue_.size() + inFlight_.size() + ready_.size();
}

std::vector<NodeFailure> NodeLoader::takeFailures() {
  const std::lock_guard lock(mutex_);
  return std::exchange(failures_, {});
}

uint64_t NodeLoader::decodedPoints() const {
  const std::lock_guard lock(mutex_);
  return decodedPoints_;
}

NodeLoader::Seconds NodeLoader::seconds() const {
  const std::lock_guard lock(mutex_);
  Seconds now = seconds_;
  // The threads waiting now have waited this long so far.
  now.idle += double(waiting_) * sinceEpoch(Clock::now()) - waitStartsSum_;
  return now;
}

void NodeLoader::run() {
  runBehindTheFrame();
  std::unique_lock lock(mutex_);
  for (;;) {
    // A node starts when it fits the host budget next to what is held (or nothing is held: a
    // node larger than the whole budget still loads, alone).
    const Clock::time_point waitStart = Clock::now();
    ++waiting_;
    waitStartsSum_ += sinceEpoch(waitStart);
    wake_.wait(lock, [&] {
      if (stopping_) return true;
      if (queue_.empty()) return false;
      const uint64_t bytes = queue_.front().points * sizeof(Point);
      return bytesHeld_ == 0 || bytesHeld_ + bytes <= hostBudgetBytes_;
    });
    --waiting_;
    waitStartsSum_ -= sinceEpoch(waitStart);
    if (stopping_) return;
    seconds_.idle += secondsBetween(waitStart, Clock::now());
    const uint32_t node = queue_.front().node;
    const uint64_t bytes = queue_.front().points * sizeof(Point);
    queue_.pop_front();
    inFlight_.insert(node);
    // The cores shared among the nodes decoding now: a node decoded alone (a large tile, say)
    // spreads over all of them, as the readers do; nodes decoded by every loader thread at once
    // take one core each instead of each starting threads on all of them (15 loaders times 16
    // threads on 16 cores).
    const unsigned share = std::max<size_t>(1, workerCount() / inFlight_.size());
    bytesHeld_ += bytes;
    // This node and the next ones wanted, for a remote source to fetch together (many requests
    // in flight instead of one round trip per node and thread); a local source ignores it.
    std::vector<size_t> soon{node};
    for (size_t i = 0; i < queue_.size() && soon.size() < kPrefetchNodes; ++i) {
      soon.push_back(queue_[i].node);
    }
    // The source as it is now: another may be set while this node decodes (setSource).
    const std::shared_ptr<const NodeSource> source = source_;
    const std::shared_ptr<const NodeTint> tint = tint_;
    const uint64_t generation = sourceGeneration_;
    lock.unlock();
    const WorkerLimit coresForThisNode(share);
    const Clock::time_point decodeStart = Clock::now();
    Clock::time_point layoutStart = decodeStart;
    source->prefetchNodes(soon);
    DecodedNode decoded{.node = node, .standIn = source->readsOnDemand(node)};
    std::string error;
    try {
      PointCloud cloud = source->decodeNode(node);
      layoutStart = Clock::now();
      // Coloured in place: the node's own colours are not needed once it is laid out.
      recolorPoints(cloud, coloring_);
      const std::span<Point> points = cloud.points;
      if (tint) (*tint)(cloud, points);
      // Laid out here, not on the frame thread: the sort and the packing of a node of 100 000
      // points take tens of milliseconds on a busy CPU. A renderer that sorts on its device
      // takes the points as they are.
      if (layout_.onDevice) {
        if (!layout_.filterData) cloud.attributes.clear();
        decoded.unsorted = std::move(cloud);
      } else if (layout_.filterData) {
        const FilterData filter = filterDataOf(cloud.attributes, layout_.rangeAttribute);
        decoded.set = layOutSet(points, layout_.spec, true, &filter);
      } else {
        decoded.set = layOutSet(points, layout_.spec);
      }
    } catch (const Error& e) {
      error = e.what();
    }
    const Clock::time_point done = Clock::now();
    lock.lock();
    if (layoutStart == decodeStart) layoutStart = done;  // the decode failed
    seconds_.decode += secondsBetween(decodeStart, layoutStart);
    seconds_.layout += secondsBetween(layoutStart, done);
    inFlight_.erase(node);
    if (generation != sourceGeneration_) {  // from a source or tint replaced meanwhile
      bytesHeld_ -= bytes;
      continue;
    }
    if (!error.empty()) {
      bytesHeld_ -= bytes;
      failed_.insert(node);
      failures_.push_back({.node = node, .error = std::move(error)});
      continue;
    }
    bytesHeld_ += decoded.hostBytes();
    bytesHeld_ -= bytes;
    decodedPoints_ += decoded.pointCount();
    readyNodes_.insert(node);
    ready_.push_back(std::move(decoded));
  }
}

}  // namespace pcv
