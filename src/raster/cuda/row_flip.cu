#include "row_flip.cuh"

namespace pcv::cuda {

__global__ void flipRowsKernel(FlipRowsParams p) {
  flipRows(p);
}

}  // namespace pcv::cuda
