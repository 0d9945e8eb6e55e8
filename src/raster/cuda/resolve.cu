#include "resolve.cuh"

namespace pcv::cuda {

__global__ void clearWordsKernel(ClearWordsParams p) {
  clearWords(p);
}
__global__ void resolveIndexWordsKernel(ResolveParams p) {
  resolveIndexWords(p);
}

}  // namespace pcv::cuda
