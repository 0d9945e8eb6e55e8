/// @brief The points of a profile's corridor above or below a line drawn in the profile
/// (distance along the corridor's polyline against height): how ground is picked by hand in a
/// cross-section. The line is extended beyond its two points at the same slope, so it divides
/// the whole corridor.
#pragma once

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/profile_corridor.hpp"

namespace pcv {

class ProfileLineSelection {
 public:
  /// The points of `corridor` above (`above`) or below the line through `from` and `to`, each
  /// (distance along, height). Throws InputError for points that are not finite or the same
  /// distance along (a vertical line divides nothing by height).
  ProfileLineSelection(ProfileCorridor corridor, glm::dvec2 from, glm::dvec2 to, bool above);

  /// Whether the world position is in the corridor and strictly above (or below) the line.
  bool selects(const glm::dvec3& world) const;
  /// Whether some point of the box may be (its horizontal extent meets the corridor and its
  /// heights reach the side of the line's lowest or highest point along the corridor).
  bool mayMeet(const Box3d& box) const;

  const ProfileCorridor& corridor() const { return corridor_; }
  const glm::dvec2& from() const { return from_; }
  const glm::dvec2& to() const { return to_; }
  bool above() const { return above_; }

 private:
  /// The line's height at a distance along the corridor.
  double heightAt(double distance) const;

  ProfileCorridor corridor_;
  glm::dvec2 from_, to_;
  bool above_;
};

}  // namespace pcv
