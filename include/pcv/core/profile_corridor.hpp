/// @brief The corridor of a profile (cross-section): the points whose horizontal projection
/// falls on one of a polyline's segments, between its ends, within half a width of it. Square
/// ends, no round caps: a profile is a strip along the line, and its points' distance along the
/// line is well defined. World (double) coordinates, so georeferenced lines keep their
/// centimetres.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"

namespace pcv {

class ProfileCorridor {
 public:
  /// A corridor `width` world units wide along `vertices` (x, y). Throws InputError naming the
  /// value when there are fewer than two vertices, a coordinate is not finite, two consecutive
  /// vertices coincide, or the width is not a finite number > 0.
  ProfileCorridor(std::vector<glm::dvec2> vertices, double width);

  /// "x0,y0,x1,y1[,x2,y2...]": the vertices of a --line; throws InputError naming the text.
  static std::vector<glm::dvec2> parseLine(const std::string& text);

  /// The distance along the polyline of the point's horizontal projection when the point is in
  /// the corridor (on the first segment that holds it, where segments overlap at a bend), else
  /// empty. Points exactly on a segment's end or at exactly width / 2 are inside.
  std::optional<double> distanceAlong(double x, double y) const;
  bool contains(double x, double y) const { return distanceAlong(x, y).has_value(); }

  /// Whether some point of the box (its horizontal extent; z is not limited) may lie in the
  /// corridor: exact for the box's rectangle against each segment's rectangle (separating axes),
  /// so a node or tile it says no to holds no corridor point.
  bool meets(const Box3d& box) const;

  const std::vector<glm::dvec2>& vertices() const { return vertices_; }
  double width() const { return width_; }
  /// The polyline's length (the largest distance along it).
  double length() const { return cumulative_.back(); }
  /// The horizontal extent of the corridor (z unbounded).
  Box3d bounds() const;

 private:
  std::vector<glm::dvec2> vertices_;
  std::vector<double> cumulative_;  ///< distance along the line at each vertex
  double width_;
};

}  // namespace pcv
