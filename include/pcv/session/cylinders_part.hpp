/// @brief The seed's cylinders as one set of a renderer: what a scene shows without files, for
/// `pcv render` and the viewer alike (the viewer lays it out on a thread of its own).
#pragma once

#include "pcv/core/bounds.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/scene_sources.hpp"
#include "pcv/session/session_report.hpp"

namespace pcv {

class CylindersPart {
 public:
  /// Lays out the cylinders of `demo` on `renderer`, which must outlive this (seconds for 10 M
  /// points on the CPU backend: `report` shows how far). Throws what the renderer throws.
  CylindersPart(const DemoCylinders& demo, Renderer& renderer, const SessionReport& report = {});
  ~CylindersPart();
  CylindersPart(const CylindersPart&) = delete;
  CylindersPart& operator=(const CylindersPart&) = delete;

  PointSetId set() const { return set_; }
  /// World bounds of the cylinders (demoCylindersBounds).
  const Box3d& bounds() const { return bounds_; }

 private:
  Renderer& renderer_;
  PointSetId set_ = 0;
  Box3d bounds_;
};

}  // namespace pcv
