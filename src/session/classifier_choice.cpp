#include "pcv/session/classifier_choice.hpp"

#include "pcv/core/error.hpp"
#include "pcv/raster/renderer.hpp"
#if PCV_WITH_CUDA
#include "pcv/process_cuda/cuda_point_classifier.hpp"
#endif

namespace pcv {

std::vector<std::string> classifierDeviceNames() {
  return {"auto", "cuda", "cpu"};
}

std::shared_ptr<const PointClassifier> choosePointClassifier(const std::string& name,
                                                             std::string* note) {
  if (name == "cpu") {
    if (note) *note = "ground and noise found on the CPU (--device cpu)";
    return cpuPointClassifier();
  }
  if (name != "auto" && name != "cuda") {
    throw InputError("unknown classify device '" + name + "': auto, cuda or cpu");
  }
  std::string whyNot;
  if (cudaAvailable(&whyNot)) {
#if PCV_WITH_CUDA
    if (note) *note = "ground and noise found on the GPU";
    // One for the process: its lock shares the GPU among the threads that classify.
    static const std::shared_ptr<const PointClassifier> gpu = makeCudaPointClassifier();
    return gpu;
#endif
  }
  if (name == "cuda") throw UnavailableError("cannot classify on the GPU: " + whyNot);
  if (note) *note = "ground and noise found on the CPU (" + whyNot + ")";
  return cpuPointClassifier();
}

}  // namespace pcv
