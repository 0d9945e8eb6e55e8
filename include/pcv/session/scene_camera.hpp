/// @brief The camera a scene starts with: the seed's cylinders keep the seed's camera exactly;
/// files are framed so that their bounds fill the view; a camera placed by hand stays, its near
/// and far planes fitted to the scene unless they were given too.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/camera_framing.hpp"
#include "pcv/core/camera_options.hpp"
#include "pcv/session/scene_sources.hpp"

namespace pcv {
class Scene;
}

namespace pcv {

struct CameraRequest {
  Camera camera;                 ///< the given camera, or the base (fov, up axis) to frame with
  bool eyeGiven = false;         ///< the camera was placed by hand (--eye)
  bool clipPlanesGiven = false;  ///< --near or --far was given
  /// An orthographic view named on the command line (--ortho plan|front|side): framed on the
  /// scene's bounds unless the eye was given; empty with the camera's own direction.
  std::optional<OrthoView> orthoView;
  bool orthoWidthGiven = false;  ///< --ortho-width was given: the camera's orthoWidth stays
};

/// The request of a camera typed by a front end: the camera (checked as cameraFromOptions
/// checks it), and which parts were given so that the rest is fitted to the scene.
CameraRequest cameraRequestFrom(const CameraOptions& options);

/// The start camera of a scene of `kind` with `worldBounds`, in an image of width/height
/// `aspect` (see the brief). A perspective view framed here is fitted to `samples` of the data
/// where given (framingSamples), so the data, not its box, fills the image.
Camera startCamera(SceneKind kind, const Box3d& worldBounds, float aspect,
                   const CameraRequest& request, std::span<const glm::dvec3> samples = {});

/// framingSamples of the points `scene` read whole; empty for a stream and the cylinders, which
/// are framed on their bounds.
std::vector<glm::dvec3> framingSamples(const Scene& scene);

}  // namespace pcv
