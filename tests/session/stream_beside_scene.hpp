/// @brief The scene of the tests of a stream with files beside it: a COPC file of the cylinders
/// streamed on a CPU renderer, the grid LAS file read whole beside it, both settled.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "pcv/core/camera_framing.hpp"
#include "pcv/raster/backend_choice.hpp"
#include "pcv/session/scene_model.hpp"
#include "reported_errors.hpp"
#include "session_test_files.hpp"

namespace pcv::test {

// The COPC cylinders sit 10 units south of the grid LAS file: UTM-sized coordinates, and an
// origin of their own.
inline const glm::dvec3 kStreamCentre{500050.0, 4999990.0, 100.0};

/// Frames of `camera` over a viewPx x viewPx view until the stream and the loader are idle (at
/// most ~10 s).
inline void settle(SceneModel& scene, const Camera& camera, int viewPx = 128) {
  for (int frame = 0; frame < 2000; ++frame) {
    scene.poll();
    scene.updateStream(camera, viewPx, viewPx);
    if (!scene.loading()) {
      scene.poll();
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "the scene did not settle";
}

/// A COPC file streamed on a CPU renderer with the grid LAS file added beside it, settled with
/// frames of a viewPx-pixel square view framed on the stream.
struct StreamWithFileBeside {
  TempDir dir;
  std::string copc = writeCylinderCopc(dir.file("c.copc.laz"), 20'000, kStreamCentre);
  std::string las = writeGridLas(dir.file("grid.las")).string();
  std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  ReportedErrors errors;
  SceneModel scene{*renderer,
                   DemoCylinders{.pointCount = 1000, .seed = 1},
                   {},
                   {.pointBudget = 10'000'000, .gpuMemoryBytes = 16 << 20},
                   errors.report()};
  Camera camera;
  int viewPx = 128;

  explicit StreamWithFileBeside(int viewSizePx = 128) : viewPx(viewSizePx) {
    scene.open({copc}, true);
    camera = frameBounds(*scene.poll(), 1.0f);
    test::settle(scene, camera, viewPx);
    scene.open({las}, false);
    test::settle(scene, camera, viewPx);
  }
  void settle() { test::settle(scene, camera, viewPx); }
};

}  // namespace pcv::test
