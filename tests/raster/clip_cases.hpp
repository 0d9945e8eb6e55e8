/// @brief The clip regions the GPU backends are compared with the CPU backend on: boxes, slabs
/// and polygons of every kind, kept and cut away.
#pragma once

#include <utility>
#include <vector>

#include "pcv/raster/clip_settings.hpp"
#include "pcv/demo/cylinder_viewpoints.hpp"

namespace pcv::test {

/// Clip regions of every kind: box, axis slab (folded into the box), oblique slab, cut away.
inline std::vector<std::pair<const char*, ClipSettings>> clipCases() {
  const ClipBox box{{-0.6, -0.5, -0.4}, {0.5, 0.6, 0.7}};
  const ClipSlab axisSlab{.normal = {0, 0, 1}, .centre = {0, 0, 0.1}, .thickness = 0.6};
  const ClipSlab oblique{.normal = {1, 2, -0.5}, .centre = {0.1, 0, 0}, .thickness = 0.4};
  return {{"box", {.box = box}},
          {"box cut away", {.box = box, .keep = ClipKeep::Outside}},
          {"axis slab", {.slab = axisSlab}},
          {"oblique slab and box", {.box = box, .slab = oblique}},
          {"oblique slab cut away", {.slab = oblique, .keep = ClipKeep::Outside}}};
}

/// Clip polygons: a concave plan polygon (a prism through the cylinders) kept inside and cut
/// away, one drawn on the screen of a perspective view, and one with a box.
inline std::vector<std::pair<const char*, ClipSettings>> polygonCases() {
  const std::vector<glm::dvec2> star = {{-0.9, -0.8}, {0.1, -0.3}, {0.8, -0.9}, {0.4, 0.1},
                                        {0.9, 0.8},   {0.0, 0.3},  {-0.7, 0.9}, {-0.2, 0.0}};
  const Camera drawnFrom = kCylinderViewpoints[0].camera();
  const PolygonSelection screen(drawnFrom, 640.0, 360.0,
                                {{100.0, 60.0}, {500.0, 90.0}, {420.0, 330.0}, {300.0, 150.0},
                                 {140.0, 300.0}});
  const ClipBox box{{-0.6, -0.5, -0.4}, {0.5, 0.6, 0.7}};
  return {{"plan polygon", {.polygon = PolygonSelection::plan(star)}},
          {"plan polygon cut away", {.polygon = PolygonSelection::plan(star, false)}},
          {"screen polygon", {.polygon = screen}},
          {"box and polygon", {.box = box, .polygon = PolygonSelection::plan(star)}}};
}

}  // namespace pcv::test
