#include "pcv/core/profile_corridor.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "pcv/core/error.hpp"

namespace pcv {

ProfileCorridor::ProfileCorridor(std::vector<glm::dvec2> vertices, double width)
    : vertices_(std::move(vertices)), width_(width) {
  if (vertices_.size() < 2) {
    throw InputError("a profile line needs at least two points (x0,y0,x1,y1), got " +
                     std::to_string(vertices_.size()));
  }
  if (!(width_ > 0.0) || !std::isfinite(width_)) {
    throw InputError("the profile width must be a finite number > 0, got " +
                     std::to_string(width_));
  }
  cumulative_.push_back(0.0);
  for (size_t i = 0; i < vertices_.size(); ++i) {
    if (!std::isfinite(vertices_[i].x) || !std::isfinite(vertices_[i].y)) {
      throw InputError("profile line point " + std::to_string(i) + " is not finite");
    }
    if (i == 0) continue;
    const double length = glm::length(vertices_[i] - vertices_[i - 1]);
    if (!(length > 0.0)) {
      throw InputError("profile line points " + std::to_string(i - 1) + " and " +
                       std::to_string(i) + " coincide: a segment needs two distinct ends");
    }
    cumulative_.push_back(cumulative_.back() + length);
  }
}

std::vector<glm::dvec2> ProfileCorridor::parseLine(const std::string& text) {
  std::vector<double> numbers;
  const char* at = text.c_str();
  while (true) {
    char* end = nullptr;
    const double value = std::strtod(at, &end);
    if (end == at || !std::isfinite(value)) {
      throw InputError("--line expects x0,y0,x1,y1[,x2,y2...] (finite numbers), got \"" + text +
                       "\" (at character " + std::to_string(at - text.c_str()) + ")");
    }
    numbers.push_back(value);
    if (*end == '\0') break;
    if (*end != ',') {
      throw InputError("--line expects numbers separated by commas, got \"" + text + "\"");
    }
    at = end + 1;
  }
  if (numbers.size() % 2 != 0) {
    throw InputError("--line expects pairs x,y: got an odd count of numbers (" +
                     std::to_string(numbers.size()) + ") in \"" + text + "\"");
  }
  std::vector<glm::dvec2> vertices;
  for (size_t i = 0; i < numbers.size(); i += 2) vertices.push_back({numbers[i], numbers[i + 1]});
  return vertices;
}

std::optional<double> ProfileCorridor::distanceAlong(double x, double y) const {
  const glm::dvec2 p(x, y);
  const double half = 0.5 * width_;
  for (size_t s = 0; s + 1 < vertices_.size(); ++s) {
    const glm::dvec2 a = vertices_[s], d = vertices_[s + 1] - a, v = p - a;
    const double lengthSquared = glm::dot(d, d);
    const double along = glm::dot(v, d);  // the projection's parameter times |d|^2
    if (!(along >= 0.0 && along <= lengthSquared)) continue;
    const double length = std::sqrt(lengthSquared);
    const double across = std::abs(d.x * v.y - d.y * v.x) / length;  // distance to the line
    if (!(across <= half)) continue;
    return cumulative_[s] + along / length;
  }
  return std::nullopt;
}

namespace {

/// The interval of dot(axis, q) over the box's rectangle.
void boxInterval(const Box3d& box, const glm::dvec2& axis, double& low, double& high) {
  low = std::numeric_limits<double>::infinity();
  high = -low;
  for (int c = 0; c < 4; ++c) {
    const glm::dvec2 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y);
    const double value = glm::dot(axis, corner);
    low = std::min(low, value);
    high = std::max(high, value);
  }
}

}  // namespace

bool ProfileCorridor::meets(const Box3d& box) const {
  if (box.empty()) return false;
  const double half = 0.5 * width_;
  for (size_t s = 0; s + 1 < vertices_.size(); ++s) {
    const glm::dvec2 a = vertices_[s], b = vertices_[s + 1];
    const glm::dvec2 along = glm::normalize(b - a), across(-along.y, along.x);
    // The segment's rectangle: [a.along, b.along] x [a.across - half, a.across + half].
    double low, high;
    boxInterval(box, along, low, high);
    // A small slack keeps the test conservative against the rounding of the normalisation.
    const double slack = 1e-9 * (std::abs(glm::dot(a, along)) + glm::length(b - a) + half);
    if (high < glm::dot(a, along) - slack || low > glm::dot(b, along) + slack) continue;
    boxInterval(box, across, low, high);
    const double middle = glm::dot(a, across);
    if (high < middle - half - slack || low > middle + half + slack) continue;
    // The rectangle's own extent on the axes x and y.
    const double minX = std::min(a.x, b.x) - half * std::abs(across.x) - slack;
    const double maxX = std::max(a.x, b.x) + half * std::abs(across.x) + slack;
    const double minY = std::min(a.y, b.y) - half * std::abs(across.y) - slack;
    const double maxY = std::max(a.y, b.y) + half * std::abs(across.y) + slack;
    if (box.max.x < minX || box.min.x > maxX || box.max.y < minY || box.min.y > maxY) continue;
    return true;
  }
  return false;
}

Box3d ProfileCorridor::bounds() const {
  Box3d box;
  const double half = 0.5 * width_;
  for (const glm::dvec2& v : vertices_) {
    box.extend(glm::dvec3(v.x - half, v.y - half, -std::numeric_limits<double>::infinity()));
    box.extend(glm::dvec3(v.x + half, v.y + half, std::numeric_limits<double>::infinity()));
  }
  return box;
}

}  // namespace pcv
