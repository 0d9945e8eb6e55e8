#include "pcv/session/scene_camera.hpp"

#include "pcv/core/camera_framing.hpp"
#include "pcv/session/scene.hpp"

namespace pcv {

CameraRequest cameraRequestFrom(const CameraOptions& options) {
  return {.camera = cameraFromOptions(options),
          .eyeGiven = options.eye.has_value(),
          .clipPlanesGiven = options.nearPlane || options.farPlane,
          .orthoView = options.orthographic ? options.orthoView : std::nullopt,
          .orthoWidthGiven = options.orthographic && options.orthoWidth.has_value()};
}

Camera startCamera(SceneKind kind, const Box3d& worldBounds, float aspect,
                   const CameraRequest& request, std::span<const glm::dvec3> samples) {
  Camera camera = request.camera;
  if (camera.orthographic()) {
    const std::optional<double> width =
        request.orthoWidthGiven ? std::optional(camera.orthoWidth) : std::nullopt;
    if (!request.eyeGiven) {
      return frameOrtho(request.orthoView.value_or(OrthoView::Plan), worldBounds, aspect, width,
                        camera);
    }
    // An eye given by hand keeps its place; the width fits the bounds unless it was given too.
    if (!width) {
      OrthoView nearest = request.orthoView.value_or(OrthoView::Plan);
      camera.orthoWidth = frameOrtho(nearest, worldBounds, aspect, std::nullopt, camera).orthoWidth;
    }
    if (!request.clipPlanesGiven) fitClipPlanes(camera, worldBounds);
    return camera;
  }
  if (kind == SceneKind::Cylinders) return camera;  // the seed's view, exactly
  if (!request.eyeGiven) return frameBounds(worldBounds, aspect, {}, camera, samples);
  // A camera placed by hand still sees the whole cloud, unless --near/--far say otherwise.
  if (!request.clipPlanesGiven) fitClipPlanes(camera, worldBounds);
  return camera;
}

std::vector<glm::dvec3> framingSamples(const Scene& scene) {
  if (scene.kind() != SceneKind::InCore) return {};
  return framingSamples(scene.cloud());
}

}  // namespace pcv
