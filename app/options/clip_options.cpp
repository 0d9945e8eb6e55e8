#include "options/clip_options.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "pcv/core/number_text.hpp"
#include "pcv/core/error.hpp"

namespace pcv::app {
namespace {

/// `count` finite comma-separated numbers, or empty.
std::vector<double> parseNumbers(const std::string& text, size_t count) {
  std::vector<double> values;
  const char* cursor = text.c_str();
  for (size_t i = 0; i < count; ++i) {
    char* end = nullptr;
    const double value = std::strtod(cursor, &end);
    const char expected = i + 1 < count ? ',' : '\0';
    if (end == cursor || *end != expected || !std::isfinite(value)) return {};
    values.push_back(value);
    cursor = end + 1;
  }
  return values;
}

std::string joined(std::initializer_list<double> values) {
  std::string text;
  for (double value : values) text += (text.empty() ? "" : ",") + exactText(value);
  return text;
}

}  // namespace

ClipBox parseClipBox(const std::string& text) {
  const std::vector<double> v = parseNumbers(text, 6);
  if (v.empty()) {
    throw InputError("bad --clip-box '" + text +
                     "': expected six numbers x0,y0,z0,x1,y1,z1 (world coordinates)");
  }
  const ClipBox box{.min = {v[0], v[1], v[2]}, .max = {v[3], v[4], v[5]}};
  for (int axis = 0; axis < 3; ++axis) {
    if (box.min[axis] > box.max[axis]) {
      throw InputError("bad --clip-box '" + text + "': the minimum corner comes first, but " +
                       "xyz"[axis] + "0 = " + exactText(box.min[axis]) + " > " + "xyz"[axis] +
                       "1 = " + exactText(box.max[axis]));
    }
  }
  return box;
}

ClipSlab parseClipSlab(const std::string& text) {
  const std::vector<double> v = parseNumbers(text, 7);
  const ClipSlab slab =
      v.empty()
          ? ClipSlab{}
          : ClipSlab{.normal = {v[0], v[1], v[2]}, .centre = {v[3], v[4], v[5]}, .thickness = v[6]};
  if (v.empty() || !(glm::length(slab.normal) > 0.0) || !(slab.thickness > 0.0)) {
    throw InputError("bad --clip-slab '" + text +
                     "': expected nx,ny,nz,cx,cy,cz,thickness (a non-zero normal, a point of "
                     "the slab's middle plane, a positive thickness)");
  }
  return slab;
}

void addClipFlags(CLI::App& command, ClipFlags& flags) {
  command.add_option("--clip-box", flags.box,
                     "Draw only the points in this box, x0,y0,z0,x1,y1,z1 (world coordinates)");
  command.add_option(
      "--clip-slab", flags.slab,
      "Draw only the points within thickness/2 of a plane: nx,ny,nz,cx,cy,cz,thickness");
  command.add_option("--clip-polygon", flags.polygon,
                     "Draw only the points over this polygon of world x,y vertices, "
                     "x0,y0,x1,y1,x2,y2[,...] (a plan polygon, unbounded in z)");
  command
      .add_option("--clip-keep", flags.keep,
                  "inside: draw the points in the box, slab and polygon; outside: cut each away")
      ->check(CLI::IsMember({"inside", "outside"}))
      ->capture_default_str();
}

ClipSettings clipSettingsFrom(const ClipFlags& flags) {
  ClipSettings clip;
  if (!flags.box.empty()) clip.box = parseClipBox(flags.box);
  if (!flags.slab.empty()) clip.slab = parseClipSlab(flags.slab);
  clip.keep = flags.keep == "outside" ? ClipKeep::Outside : ClipKeep::Inside;
  if (!flags.polygon.empty()) {
    clip.polygon = PolygonSelection::plan(parsePolygonVertices(flags.polygon, "--clip-polygon"),
                                          clip.keep == ClipKeep::Inside);
  }
  validateClipSettings(clip);
  return clip;
}

std::string clipArguments(const ClipSettings& clip) {
  std::string text;
  if (clip.box) {
    const ClipBox& b = *clip.box;
    text += " --clip-box " + joined({b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z});
  }
  if (clip.slab) {
    const ClipSlab& s = *clip.slab;
    text += " --clip-slab " + joined({s.normal.x, s.normal.y, s.normal.z, s.centre.x, s.centre.y,
                                      s.centre.z, s.thickness});
  }
  if (clip.polygon && !clip.polygon->planVertices().empty()) {
    text += " --clip-polygon ";
    for (size_t i = 0; i < clip.polygon->planVertices().size(); ++i) {
      const glm::dvec2& v = clip.polygon->planVertices()[i];
      text += (i == 0 ? "" : ",") + joined({v.x, v.y});
    }
  }
  const bool outside = clip.hasRegion() ? clip.keep == ClipKeep::Outside
                                        : clip.polygon && !clip.polygon->keepInside();
  if (outside) text += " --clip-keep outside";
  return text;
}

}  // namespace pcv::app
