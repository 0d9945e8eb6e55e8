/// @brief A profile's image as a figure to read: points sized from the corridor's density, a
/// distance and an elevation axis with ticks and numbers, and a title naming the line.
#pragma once

#include <string>
#include <vector>

#include "pcv/core/image.hpp"
#include "pcv/core/length_unit.hpp"
#include "pcv/core/point.hpp"
#include "pcv/core/profile_corridor.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/session/profile_extract.hpp"

namespace pcv {

class Renderer;

/// The largest point size profilePointSizePx chooses: beyond it points blur into blocks.
inline constexpr int kMaxProfilePointSizePx = 6;

/// The point width, in pixels, that lights most of the image where the profile has data. The
/// points are projected into the widthPx x heightPx image of `camera` (profileImageCamera); L is
/// the number of distinct pixels they hit at one pixel each, and A the area they occupy: 64 times
/// the number of 8 x 8 pixel cells holding a point. A point s pixels wide lights up to s * s
/// pixels, so the width is the smallest s with L * s * s >= A / 2 (half the occupied area lit),
/// ceil(sqrt(A / 2L)), clamped to 1 .. kMaxProfilePointSizePx. A dense corridor (every pixel of
/// its band hit) keeps 1-pixel points; a sparse one, or a thin line of many points on the same
/// pixels, is drawn wider.
int profilePointSizePx(const ProfilePoints& profile, const Camera& camera, int widthPx,
                       int heightPx);

/// Round tick values, 1, 2 or 5 x 10^k apart, within [low, high]: at most about `maxTicks`.
std::vector<double> roundTicks(double low, double high, int maxTicks);

/// The title of a profile: its vertices "x0,y0 -> x1,y1 [-> ...]" and "width W [unit]".
std::string profileTitle(const ProfileCorridor& corridor, const LengthUnit& unit);

/// What surrounds the data in a figure, in pixels of the whole image.
struct ProfileFigureLayout {
  int left = 0, right = 0, bottom = 0, top = 0;  ///< margins; all 0 when the image is too small
  int glyphScale = 1;                            ///< pixels per glyph cell of the labels
  int dataWidth() const;
  int dataHeight() const;
  int width = 0, height = 0;  ///< the whole image
};

/// The margins of a widthPx x heightPx figure: none when the image is too small for axes.
ProfileFigureLayout profileFigureLayout(int widthPx, int heightPx);

/// Colours of the figure's frame: the margins, and the axes, ticks and text drawn on them.
inline constexpr uint32_t kFigureMarginRgba = packRgba(255, 255, 255);
inline constexpr uint32_t kFigureInkRgba = packRgba(0, 0, 0);

struct ProfileFigureOptions {
  std::string title;            ///< drawn above the data (profileTitle)
  LengthUnit unit;              ///< of the distance axis
  LengthUnit verticalUnit;      ///< of the elevation axis
  bool choosePointSize = true;  ///< profilePointSizePx instead of the settings' size
};

/// A drawn figure and the point width it was drawn with.
struct ProfileFigure {
  Image image;
  int pointSizePx = 1;  ///< profilePointSizePx, or the settings' own when not chosen
};

/// The whole widthPx x heightPx figure: the profile drawn by renderProfileImage into the data
/// area (the image less the margins, at true scale), on `settings.background`, framed by white
/// margins carrying the axes, round ticks with their numbers, the axis names with their units,
/// and the title. The renderer's sets are replaced by the profile's.
ProfileFigure renderProfileFigure(const ProfilePoints& profile, Renderer& renderer, int widthPx,
                                  int heightPx, RenderSettings settings,
                                  const ProfileFigureOptions& options);

}  // namespace pcv
