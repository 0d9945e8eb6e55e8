// A line drawn in a profile selects the corridor's points above or below it, extended beyond
// its two points; boxes that cannot hold such a point are refused; bad lines are InputErrors.
#include "pcv/core/profile_line_selection.hpp"

#include <gtest/gtest.h>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

/// A corridor 2 wide along x from (100, 50) to (110, 50); the line rises from height 1 at
/// distance 0 to 3 at distance 10 (drawn between distances 2 and 4).
ProfileLineSelection line(bool above) {
  return ProfileLineSelection(ProfileCorridor({{100.0, 50.0}, {110.0, 50.0}}, 2.0), {2.0, 1.4},
                              {4.0, 1.8}, above);
}

TEST(ProfileLineSelection, SelectsTheCorridorsPointsOnOneSide) {
  const ProfileLineSelection above = line(true), below = line(false);
  EXPECT_TRUE(above.selects({105.0, 50.5, 2.5}));  // line at 2.0 there
  EXPECT_FALSE(below.selects({105.0, 50.5, 2.5}));
  EXPECT_TRUE(below.selects({105.0, 49.5, 1.5}));
  EXPECT_TRUE(above.selects({109.0, 50.0, 2.9}));   // beyond the drawn points: 2.8 there
  EXPECT_FALSE(above.selects({105.0, 52.0, 9.0}));  // outside the corridor
  EXPECT_FALSE(below.selects({99.0, 50.0, -9.0}));  // before its start
  EXPECT_FALSE(above.selects({105.0, 50.0, 2.0}));  // on the line: neither side
  EXPECT_FALSE(below.selects({105.0, 50.0, 2.0}));
}

TEST(ProfileLineSelection, MayMeetOnlyBoxesReachingItsSide) {
  const ProfileLineSelection above = line(true), below = line(false);
  EXPECT_TRUE(above.mayMeet(Box3d{{104.0, 49.0, 0.0}, {106.0, 51.0, 5.0}}));
  EXPECT_FALSE(above.mayMeet(Box3d{{104.0, 49.0, -5.0}, {106.0, 51.0, 0.5}}));  // all below 1
  EXPECT_TRUE(below.mayMeet(Box3d{{104.0, 49.0, -5.0}, {106.0, 51.0, 0.5}}));
  EXPECT_FALSE(below.mayMeet(Box3d{{104.0, 49.0, 3.5}, {106.0, 51.0, 9.0}}));  // all above 3
  EXPECT_FALSE(above.mayMeet(Box3d{{104.0, 60.0, 0.0}, {106.0, 61.0, 5.0}}));  // beside it
}

TEST(ProfileLineSelection, BadLinesAreRefused) {
  const ProfileCorridor corridor({{0.0, 0.0}, {10.0, 0.0}}, 1.0);
  EXPECT_THROW(ProfileLineSelection(corridor, {3.0, 1.0}, {3.0, 2.0}, true), InputError);
  EXPECT_THROW(ProfileLineSelection(corridor, {NAN, 1.0}, {3.0, 2.0}, true), InputError);
}

}  // namespace
}  // namespace pcv
