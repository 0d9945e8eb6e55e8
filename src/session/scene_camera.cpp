#include "pcv/session/scene_camera.hpp"

#include "pcv/core/camera_framing.hpp"

namespace pcv {

Camera startCamera(SceneKind kind, const Box3d& worldBounds, float aspect,
                   const CameraRequest& request) {
  Camera camera = request.camera;
  if (kind == SceneKind::Cylinders) return camera;  // the seed's view, exactly
  if (!request.eyeGiven) return frameBounds(worldBounds, aspect, {}, camera);
  // A camera placed by hand still sees the whole cloud, unless --near/--far say otherwise.
  if (!request.clipPlanesGiven) fitClipPlanes(camera, worldBounds);
  return camera;
}

}  // namespace pcv
