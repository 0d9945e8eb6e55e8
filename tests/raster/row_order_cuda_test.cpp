// The CUDA backend's images drawn top row first, into host memory (pageable and pinned) and
// device memory, against the CPU backend's bottom-up image flipped. Skipped without a device.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pcv/cuda/device_buffer.hpp"
#include "pcv/raster/host_image_pool.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinder_viewpoints.hpp"
#include "row_order_support.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

using namespace row_order_test;


TEST(RowOrder, CudaHostTargetsMatchTheCpuImageFlipped) {
  PCV_REQUIRE_CUDA();
  const auto cpu = cylinders("cpu");
  const auto cuda = cylinders("cuda");
  HostImagePool pool;
  for (const auto& size : kSizes) {
    const ViewTransform view =
        test::makeView(kCylinderViewpoints[1].camera(), size.width, size.height);
    RenderSettings settings;
    settings.method = RasterMethod::Compact;
    const Image expected = flipped(test::renderToImage(*cpu, view, settings));
    // Pageable memory, then pinned memory from the pool.
    EXPECT_EQ(test::countDifferentPixels(renderTopRowFirst(*cuda, view, settings), expected), 0u);
    HostImageBuffer pinned = pool.acquireFor(*cuda, uint64_t(size.width) * size.height);
    EXPECT_TRUE(pinned.pinned());
    std::fill_n(pinned.pixels(), pinned.pixelCount(), test::kPoisonPixel);
    cuda->render(view, settings,
                 RenderTarget{.rgba = pinned.pixels(),
                              .width = size.width,
                              .height = size.height,
                              .memory = MemorySpace::Host,
                              .topRowFirst = true});
    Image drawn(size.width, size.height);
    std::copy_n(pinned.pixels(), drawn.pixels.size(), drawn.pixels.begin());
    EXPECT_EQ(test::countDifferentPixels(drawn, expected), 0u);
    std::string stages;
    for (const StageTiming& stage : cuda->lastReadbackTimings()) stages += stage.stage + " ";
    EXPECT_EQ(stages, "copy ");  // the resolve wrote the rows in order: no pass of its own
  }
}

// Every method's resolve and the quality pipeline's write the rows top row first themselves, on
// sizes whose rows are not whole 16-byte stores as well.
TEST(RowOrder, EveryCudaMethodWritesTheTopRowFirst) {
  PCV_REQUIRE_CUDA();
  const auto cuda = cylinders("cuda");
  std::vector<RenderSettings> cases;
  for (RasterMethod method : {RasterMethod::Compact, RasterMethod::EarlyZ, RasterMethod::Packed,
                              RasterMethod::Seed}) {
    cases.emplace_back().method = method;
  }
  cases.emplace_back().quality.pointSizePx = 3;  // the quality pipeline
  for (const auto& size : {test::ImageSizeCase{160, 90}, test::ImageSizeCase{333, 217},
                           test::ImageSizeCase{64, 48}}) {
    const ViewTransform view =
        test::makeView(kCylinderViewpoints[0].camera(), size.width, size.height);
    for (const RenderSettings& settings : cases) {
      const Image expected = flipped(test::renderToImage(*cuda, view, settings));
      EXPECT_GT(test::countLitPixels(expected, settings.background), 100u);
      // The seed's colour pass writes any of the points at a pixel's depth, so two of its frames
      // may differ where points of equal depth race; every other method is exact.
      const bool seed = settings.method == RasterMethod::Seed;
      EXPECT_LE(test::countDifferentPixels(renderTopRowFirst(*cuda, view, settings), expected),
                seed ? uint64_t(size.width) * size.height / 500 : 0u)
          << (settings.method ? methodName(*settings.method) : "auto") << " size "
          << settings.quality.pointSizePx << " " << size.width << "x" << size.height;
    }
  }
}

TEST(RowOrder, CudaDeviceTargetsGetTheTopRowFirst) {
  PCV_REQUIRE_CUDA();
  const auto cuda = cylinders("cuda");
  const ViewTransform view = test::makeView(kCylinderViewpoints[0].camera(), 333, 217);
  const Image expected = flipped(test::renderToImage(*cuda, view, {}));
  DeviceBuffer<uint32_t> device(expected.pixels.size());
  CUDA_CHECK(cudaMemset(device.data(), 0x5a, device.bytes()));
  cuda->render(view, {},
               RenderTarget{.rgba = device.data(),
                            .width = 333,
                            .height = 217,
                            .memory = MemorySpace::Device,
                            .topRowFirst = true});
  CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(cuda->cudaStream())));
  Image drawn(333, 217);
  CUDA_CHECK(
      cudaMemcpy(drawn.pixels.data(), device.data(), device.bytes(), cudaMemcpyDeviceToHost));
  EXPECT_EQ(test::countDifferentPixels(drawn, expected), 0u);
}

}  // namespace
}  // namespace pcv
