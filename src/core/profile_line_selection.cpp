#include "pcv/core/profile_line_selection.hpp"

#include <algorithm>
#include <cmath>

#include "pcv/core/error.hpp"

namespace pcv {

ProfileLineSelection::ProfileLineSelection(ProfileCorridor corridor, glm::dvec2 from, glm::dvec2 to,
                                           bool above)
    : corridor_(std::move(corridor)), from_(from), to_(to), above_(above) {
  for (const double v : {from.x, from.y, to.x, to.y}) {
    if (!std::isfinite(v)) {
      throw InputError("a profile line's points must be finite (distance along, height)");
    }
  }
  if (from.x == to.x) {
    throw InputError("a profile line needs two points at different distances along the profile");
  }
}

double ProfileLineSelection::heightAt(double distance) const {
  return from_.y + (to_.y - from_.y) * (distance - from_.x) / (to_.x - from_.x);
}

bool ProfileLineSelection::selects(const glm::dvec3& world) const {
  const std::optional<double> along = corridor_.distanceAlong(world.x, world.y);
  if (!along) return false;
  const double line = heightAt(*along);
  return above_ ? world.z > line : world.z < line;
}

bool ProfileLineSelection::mayMeet(const Box3d& box) const {
  if (box.empty() || !corridor_.meets(box)) return false;
  // The line over the whole corridor spans its heights at the two ends (it is straight).
  const double a = heightAt(0.0), b = heightAt(corridor_.length());
  return above_ ? box.max.z > std::min(a, b) : box.min.z < std::max(a, b);
}

}  // namespace pcv
