/// @brief The edit log: the edits applied (each selection's parameters and its action, in
/// order) as a small JSON document, so that a QA session can be reviewed and replayed on another
/// copy with `pcv edit ... --apply edits.json`.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pcv/session/point_edits.hpp"

namespace pcv {

/// The log of `edits`:
///   {"pcv_edits": 1, "edits": [{"select": {...}, "action": "set-class", "class": 6}, ...]}
/// where "select" holds what is given of "box" [x0,y0,z0,x1,y1,z1], "slab"
/// [nx,ny,nz,cx,cy,cz,thickness], "polygon" [x0,y0,x1,y1,...] (world x, y), "view_polygon"
/// {"view", "vertices" [ndc x, y pairs]} (a polygon drawn in a view), "keep" "inside"|"outside"
/// (of the box and slab), "polygon_keep" "inside"|"outside", "brush" {"view", "window" [w, h],
/// "radius" px, "dabs" [x0,y0,...] window pixels}, "profile_line" {"line" [x0,y0,...] (world
/// x, y), "width", "from" [distance, height], "to" [distance, height], "side"
/// "above"|"below"}, "classes" "2,6,9-12", "returns"
/// "first"|"last"|"only"|N, "ranges" [{"attribute", "min", "max"}] (null: unbounded). A view is
/// {"anchor" [x,y,z], "view_projection" [16 numbers, column by column], "minimum_w" (null: none)}
/// (SelectionView), so a selection drawn in the viewer replays on the same points.
std::string editLogText(std::span<const PointEdit> edits);

/// Parses a log; `source` names it in errors (a file name). Throws InputError saying where the
/// document is wrong and what was expected there. Every value is checked: numbers finite, boxes
/// with min <= max, slabs with a non-zero normal and a positive thickness, classes 0-255.
std::vector<PointEdit> parseEditLog(std::string_view text, const std::string& source);

/// The log of `path`; throws InputError when it cannot be read or parsed.
std::vector<PointEdit> readEditLog(const std::filesystem::path& path);
/// Writes the log of `edits` to `path` (replaced where it exists) through a temporary file.
void writeEditLog(const std::filesystem::path& path, std::span<const PointEdit> edits);

}  // namespace pcv
