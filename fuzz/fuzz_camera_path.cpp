// libFuzzer target for camera path files (pcv render --path, the viewer's Path tool): the parser
// on arbitrary bytes must return keys that make a path, or throw CameraPathError, never crash,
// hang or allocate without bound. What it returns is made into a path and sampled, as pcv does.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pcv/core/camera_path.hpp"
#include "pcv/session/camera_path_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const pcv::CameraPath path(pcv::parseCameraPath(text, "fuzz.json"));
    for (uint64_t frame = 0; frame < 16; ++frame) {
      path.at(path.frameTime(frame, 16));
      path.at(path.timeAtDistance(double(frame) / 15.0));
    }
    // What the viewer saves reads back.
    pcv::parseCameraPath(pcv::cameraPathJson(path.keys()), "fuzz.json");
  } catch (const pcv::CameraPathError&) {
  }
  return 0;
}
