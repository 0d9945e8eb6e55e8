#include "options/octree_sampler_choice.hpp"

#include "pcv/core/error.hpp"
#include "pcv/raster/renderer.hpp"
#if PCV_WITH_CUDA
#include "pcv/octree/octree_lod_cuda.hpp"
#endif

namespace pcv::app {

std::vector<std::string> octreeSamplerNames() {
  return {"auto", "cuda", "cpu"};
}

std::unique_ptr<OctreeLodSampler> chooseOctreeSampler(const std::string& name, std::string* note) {
  if (name == "cpu") {
    if (note) *note = "octree keys sorted and levels sampled on the CPU (--sort cpu)";
    return makeCpuOctreeLodSampler();
  }
  if (name != "auto" && name != "cuda") {
    throw InputError("unknown octree sort '" + name + "': auto, cuda or cpu");
  }
  std::string whyNot;
  if (cudaAvailable(&whyNot)) {
#if PCV_WITH_CUDA
    if (note) *note = "octree keys sorted and levels sampled on the GPU";
    return makeCudaOctreeLodSampler();
#endif
  }
  if (name == "cuda") throw UnavailableError("cannot sort octree keys on the GPU: " + whyNot);
  if (note) *note = "octree keys sorted and levels sampled on the CPU (" + whyNot + ")";
  return makeCpuOctreeLodSampler();
}

}  // namespace pcv::app
