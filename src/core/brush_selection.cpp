#include "pcv/core/brush_selection.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

/// Cells at most this many a side: a small brush over a 4K window stays a few MB of grid.
constexpr double kMaxCellsPerSide = 512.0;
/// Dabs (and windows) beyond this are not window positions: refused before the grid's sums.
constexpr double kMaxWindowPx = 1e6;

}  // namespace

BrushSelection::BrushSelection(const Camera& camera, double windowWidth, double windowHeight,
                               std::vector<glm::dvec2> dabs, double radiusPx)
    : BrushSelection(windowWidth >= 1.0 && windowHeight >= 1.0
                         ? SelectionView::of(camera, windowWidth, windowHeight)
                         : SelectionView{},
                     windowWidth, windowHeight, std::move(dabs), radiusPx) {}

BrushSelection::BrushSelection(const SelectionView& view, double windowWidth, double windowHeight,
                               std::vector<glm::dvec2> dabs, double radiusPx)
    : view_(view),
      width_(windowWidth),
      height_(windowHeight),
      dabs_(std::move(dabs)),
      radius_(radiusPx) {
  if (!(width_ >= 1.0 && height_ >= 1.0 && width_ <= kMaxWindowPx && height_ <= kMaxWindowPx)) {
    throw InputError("a brush stroke needs a view of at least one pixel");
  }
  view_.validate("a brush stroke");
  if (!(radius_ >= 0.5 && radius_ <= kMaxRadiusPx)) {
    throw InputError("a brush's radius is 0.5 to " + std::to_string(int(kMaxRadiusPx)) +
                     " pixels, got " + std::to_string(radius_));
  }
  if (dabs_.empty() || dabs_.size() > kMaxDabs) {
    throw InputError("a brush stroke has 1 to " + std::to_string(kMaxDabs) + " dabs, got " +
                     std::to_string(dabs_.size()));
  }
  for (const glm::dvec2& d : dabs_) {
    if (!(std::abs(d.x) <= kMaxWindowPx && std::abs(d.y) <= kMaxWindowPx)) {
      throw InputError("a brush stroke's dabs must be window positions within " +
                       std::to_string(int(kMaxWindowPx)) + " pixels of the corner");
    }
  }
  build();
}

void BrushSelection::build() {
  glm::dvec2 low(HUGE_VAL), high(-HUGE_VAL);
  for (const glm::dvec2& d : dabs_) {
    low = glm::min(low, d);
    high = glm::max(high, d);
  }
  corner_ = low - radius_;
  const glm::dvec2 extent = high + radius_ - corner_;
  cell_ = std::max({radius_, extent.x / kMaxCellsPerSide, extent.y / kMaxCellsPerSide, 1.0});
  columns_ = std::max<int64_t>(1, int64_t(std::ceil(extent.x / cell_)));
  rows_ = std::max<int64_t>(1, int64_t(std::ceil(extent.y / cell_)));
  // Two passes: count each cell's dabs, then place them (a dab reaches the cells its circle's
  // square covers: at most 3 x 3 with cells at least a radius wide).
  const auto eachCell = [&](const glm::dvec2& d, auto&& visit) {
    const int64_t c0 =
        std::clamp<int64_t>(int64_t((d.x - radius_ - corner_.x) / cell_), 0, columns_ - 1);
    const int64_t c1 =
        std::clamp<int64_t>(int64_t((d.x + radius_ - corner_.x) / cell_), 0, columns_ - 1);
    const int64_t r0 =
        std::clamp<int64_t>(int64_t((d.y - radius_ - corner_.y) / cell_), 0, rows_ - 1);
    const int64_t r1 =
        std::clamp<int64_t>(int64_t((d.y + radius_ - corner_.y) / cell_), 0, rows_ - 1);
    for (int64_t r = r0; r <= r1; ++r) {
      for (int64_t c = c0; c <= c1; ++c) visit(size_t(r * columns_ + c));
    }
  };
  cellFirst_.assign(size_t(columns_ * rows_) + 1, 0);
  for (const glm::dvec2& d : dabs_) eachCell(d, [&](size_t cell) { ++cellFirst_[cell + 1]; });
  for (size_t c = 1; c < cellFirst_.size(); ++c) cellFirst_[c] += cellFirst_[c - 1];
  cellDabs_.resize(cellFirst_.back());
  std::vector<uint32_t> filled(cellFirst_.begin(), cellFirst_.end() - 1);
  for (uint32_t i = 0; i < dabs_.size(); ++i) {
    eachCell(dabs_[i], [&](size_t cell) { cellDabs_[filled[cell]++] = i; });
  }
}

bool BrushSelection::toWindow(const glm::dvec3& world, glm::dvec2& px) const {
  glm::dvec2 ndc;
  if (!view_.toNdc(world, ndc)) return false;
  px = glm::dvec2((ndc.x + 1.0) * 0.5 * width_, (1.0 - ndc.y) * 0.5 * height_);
  return true;
}

bool BrushSelection::selects(const glm::dvec3& world) const {
  glm::dvec2 px;
  if (!toWindow(world, px)) return false;
  const double cx = std::floor((px.x - corner_.x) / cell_);
  const double cy = std::floor((px.y - corner_.y) / cell_);
  if (!(cx >= 0.0 && cx < double(columns_) && cy >= 0.0 && cy < double(rows_))) return false;
  const size_t cell = size_t(int64_t(cy) * columns_ + int64_t(cx));
  const double r2 = radius_ * radius_;
  for (uint32_t k = cellFirst_[cell]; k < cellFirst_[cell + 1]; ++k) {
    const glm::dvec2 d = px - dabs_[cellDabs_[k]];
    if (d.x * d.x + d.y * d.y <= r2) return true;
  }
  return false;
}

bool BrushSelection::mayMeet(const Box3d& box) const {
  if (box.empty()) return false;
  glm::dvec2 low, high;
  if (!view_.ndcRectangle(box, low, high)) return true;  // crosses the eye's plane: keep it
  // The rectangle in window pixels (y down), then the nearest point of it to each dab.
  const glm::dvec2 a((low.x + 1.0) * 0.5 * width_, (1.0 - high.y) * 0.5 * height_);
  const glm::dvec2 b((high.x + 1.0) * 0.5 * width_, (1.0 - low.y) * 0.5 * height_);
  const double r2 = radius_ * radius_;
  for (const glm::dvec2& d : dabs_) {
    const glm::dvec2 nearest = glm::clamp(d, a, b);
    const glm::dvec2 gap = d - nearest;
    if (gap.x * gap.x + gap.y * gap.y <= r2) return true;
  }
  return false;
}

}  // namespace pcv
