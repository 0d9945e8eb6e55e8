// CUDA-GL interop in a headless EGL context: needs a CUDA device that drives the EGL device
// (a machine with an NVIDIA GPU). Every case skips, with the reason, without one.
#include <malloc.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gl_test_support.hpp"
#include "pcv/gl/frame_presenter.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/stream/streamed_cloud.hpp"

#if PCV_WITH_CUDA
#include "pcv/cuda/device_buffer.hpp"
#include "pcv/gl/gl_buffer_in_cuda.hpp"
#include "pcv/gl/gl_check.hpp"
#include "pcv/gl/gl_objects.hpp"
#endif

namespace pcv {
namespace {

#if PCV_WITH_CUDA

/// Resident set size of this process, bytes.
uint64_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * uint64_t(sysconf(_SC_PAGESIZE));
}

/// The reference: the same backend rendering into cudaMalloc'd memory, copied to the host.
Image renderThroughDeviceMemory(Renderer& renderer, const ViewTransform& view,
                                const RenderSettings& settings) {
  DeviceBuffer<uint32_t> pixels;
  pixels.resize(uint64_t(view.width) * view.height);
  renderer.render(view, settings,
                  RenderTarget{pixels.data(), view.width, view.height, MemorySpace::Device});
  Image image(view.width, view.height, test::kPoisonPixel);
  const auto stream = static_cast<cudaStream_t>(renderer.cudaStream());
  CUDA_CHECK(cudaMemcpyAsync(image.pixels.data(), pixels.data(), pixels.size() * 4,
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return image;
}

class Interop : public ::testing::TestWithParam<InteropPath> {};

TEST_P(Interop, EglRenderIsPixelIdenticalToTheDeviceBufferRender) {
  PCV_REQUIRE_CUDA();
  PCV_REQUIRE_EGL();
  auto renderer = createRenderer("cuda");
  renderer->addSet(CylinderProducer(makeCylinderSet(1), kSeedPointCount));
  RenderSettings settings;
  for (const RasterMethod method : renderer->methods()) {
    // The seed's colour pass races on equal depths: two of its renders need not agree.
    if (method == RasterMethod::Seed) continue;
    SCOPED_TRACE(methodName(method));
    settings.method = method;
    FramePresenter presenter(*renderer, GetParam());
    ASSERT_EQ(presenter.path(), GetParam()) << presenter.fallbackReason();
    for (const auto& size : {test::ImageSizeCase{1280, 720}, test::ImageSizeCase{333, 211}}) {
      const ViewTransform view = test::makeView(Camera{}, size.width, size.height);
      presenter.render(view, settings);
      const Image viaGl = presenter.readImage();
      const Image reference = renderThroughDeviceMemory(*renderer, view, settings);
      EXPECT_EQ(test::countDifferentPixels(viaGl, reference), 0u)
          << size.width << "x" << size.height;
      EXPECT_GT(test::countLitPixels(viaGl, settings.background), 1000u);
    }
  }
}

TEST_P(Interop, TenThousandFramesGrowNeitherGpuNorHostMemory) {
  PCV_REQUIRE_CUDA();
  PCV_REQUIRE_EGL();
  auto renderer = createRenderer("cuda");
  renderer->addSet(CylinderProducer(makeCylinderSet(1), 1'000'000));
  FramePresenter presenter(*renderer, GetParam());
  ASSERT_EQ(presenter.path(), GetParam()) << presenter.fallbackReason();
  RenderSettings settings;
  Camera camera;
  auto frame = [&](int i) {
    camera.yawRadians = 0.001f * float(i % 100);
    presenter.render(test::makeView(camera, 1280, 720), settings);
    presenter.blitTo(presenter.screenBuffer()->framebuffer(), 1280, 720);  // GL work too
    if (i % 1000 == 999) renderer->lastTimings();
  };
  for (int i = 0; i < 200; ++i) frame(i);  // warm-up: lazily allocated buffers, driver pools
  glFinish();
  size_t freeBefore = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBefore, &total));
  const uint64_t rssBefore = residentBytes();
  for (int i = 0; i < 10'000; ++i) frame(i);
  glFinish();
  size_t freeAfter = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeAfter, &total));
  const uint64_t rssAfter = residentBytes();
  std::printf("interop %s: GPU free %zu -> %zu bytes, host RSS %llu -> %llu bytes\n",
              interopPathName(GetParam()), freeBefore, freeAfter,
              static_cast<unsigned long long>(rssBefore),
              static_cast<unsigned long long>(rssAfter));
  EXPECT_LE(double(freeBefore) - double(freeAfter), 2.0 * 1024 * 1024);
  EXPECT_LE(double(rssAfter) - double(rssBefore), 8.0 * 1024 * 1024);
}

TEST_P(Interop, StreamingFlyThroughGrowsNeitherGpuNorHostMemory) {
  PCV_REQUIRE_CUDA();
  PCV_REQUIRE_EGL();
  const std::filesystem::path copc = test::testDataDir() / "laz-corpus" / "lone-star.copc.laz";
  if (test::testDataDir().empty() || !std::filesystem::exists(copc)) {
    GTEST_SKIP() << "lone-star.copc.laz not found in the shared data";
  }
  // glibc gives each decoding thread an arena of its own, whose high-water marks creep up for
  // tens of thousands of frames (measured: +38 MB over 30 000 frames with 15 decoders, +5 MB
  // with two arenas): two arenas keep the allocator's slack from hiding a leak.
  mallopt(M_ARENA_MAX, 2);
  // A GPU budget of about half the file: flying between its two ends evicts and adds nodes
  // all the time, while frames are still in flight on the renderer's stream.
  auto file = std::make_shared<const CopcFile>(copc);
  auto renderer = createRenderer("cuda", {.storage = PointStorage::Compact});
  StreamedCloud cloud(file, *renderer, {.pointBudget = 250'000, .gpuMemoryBytes = 300'000 * 8});
  FramePresenter presenter(*renderer, GetParam());
  ASSERT_EQ(presenter.path(), GetParam()) << presenter.fallbackReason();
  const Box3d box = cloud.bounds();
  const int frames =
      std::getenv("PCV_SOAK_FRAMES") ? std::atoi(std::getenv("PCV_SOAK_FRAMES")) : 10'000;
  auto frame = [&](int i) {
    // Back and forth along x, a swing every 400 frames, looking along the path.
    const double t = std::abs(double(i % 400) / 200.0 - 1.0);
    const Camera camera = Camera::lookingFrom(box.center() + glm::dvec3((t - 0.5) * 40.0, 0.0, 0.0),
                                              t < 0.5 ? 0.0f : 180.0f, -10.0f);
    const std::vector<PointSetId> sets = cloud.update(camera, 640, 360);
    presenter.render(makeViewTransform(camera, 640, 360, cloud.origin()), {},
                     SetSelection::only(sets));
    presenter.blitTo(presenter.screenBuffer()->framebuffer(), 640, 360);
    if (i % 1000 == 999) renderer->lastTimings();
  };
  for (int i = 0; i < 400; ++i) frame(i);  // warm-up: one swing, the pool's slots all used
  glFinish();
  size_t freeBefore = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBefore, &total));
  const uint64_t rssBefore = residentBytes();
  const uint64_t evictedBefore = cloud.stats().evictedNodes;
  for (int i = 0; i < frames; ++i) frame(i);
  glFinish();
  size_t freeAfter = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeAfter, &total));
  const uint64_t rssAfter = residentBytes();
  std::printf(
      "streaming %s: %d frames, %llu nodes evicted, %llu repacks; GPU free %zu -> %zu "
      "bytes, host RSS %llu -> %llu bytes\n",
      interopPathName(GetParam()), frames,
      static_cast<unsigned long long>(cloud.stats().evictedNodes - evictedBefore),
      static_cast<unsigned long long>(cloud.stats().repacks), freeBefore, freeAfter,
      static_cast<unsigned long long>(rssBefore), static_cast<unsigned long long>(rssAfter));
  EXPECT_GT(cloud.stats().evictedNodes, evictedBefore) << "the path must evict to test anything";
  EXPECT_LE(double(freeBefore) - double(freeAfter), 2.0 * 1024 * 1024);
  EXPECT_LE(double(rssAfter) - double(rssBefore), 16.0 * 1024 * 1024);
}

INSTANTIATE_TEST_SUITE_P(Paths, Interop,
                         ::testing::Values(InteropPath::CudaSurface, InteropPath::CudaPixelBuffer),
                         [](const auto& info) { return std::string(interopPathName(info.param)); });

TEST(GlBufferInCuda, ViewBeyondTheMappedSizeThrowsAndUnmapHandsBack) {
  PCV_REQUIRE_CUDA();
  PCV_REQUIRE_EGL();
  GlBuffer buffer = GlBuffer::create();
  GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, buffer.id()));
  GL_CHECK(glBufferData(GL_ARRAY_BUFFER, 1000, nullptr, GL_STREAM_DRAW));
  GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
  GlBufferInCuda inCuda(buffer.id());
  EXPECT_THROW(inCuda.view<float>(), Error);  // not mapped yet
  inCuda.map(nullptr);
  EXPECT_GE(inCuda.mappedBytes(), 1000u);
  EXPECT_EQ(inCuda.view<float>(250).count, 250u);
  EXPECT_THROW(inCuda.view<float>(inCuda.mappedBytes() / 4 + 1), InputError);
  CUDA_CHECK(cudaMemset(inCuda.view<uint8_t>(1000).data, 0x5a, 1000));
  inCuda.unmap(nullptr);
  EXPECT_FALSE(inCuda.mapped());
  // GL sees CUDA's bytes after the unmap.
  std::vector<uint8_t> bytes(1000);
  GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, buffer.id()));
  GL_CHECK(glGetBufferSubData(GL_ARRAY_BUFFER, 0, 1000, bytes.data()));
  GL_CHECK(glBindBuffer(GL_ARRAY_BUFFER, 0));
  EXPECT_EQ(std::count(bytes.begin(), bytes.end(), 0x5a), 1000);
  GlBufferInCuda moved = std::move(inCuda);  // move-only, one unregister
}

TEST(FramePresenter, CudaBackendOnAForeignGlContextFallsBackToTheHostPath) {
  PCV_REQUIRE_CUDA();
  std::string whyNot;
  EglContext* context = test::sharedEglContext(&whyNot);
  if (!context) GTEST_SKIP() << whyNot;
  if (context->description().find("EGL_NV_device_cuda") != std::string::npos) {
    GTEST_SKIP() << "the EGL device is CUDA's: registration works here";
  }
  auto renderer = createRenderer("cuda");
  renderer->addSet(CylinderProducer(makeCylinderSet(1), 10000));
  FramePresenter presenter(*renderer, InteropPath::CudaSurface);
  presenter.render(test::makeView(Camera{}, 64, 48), RenderSettings{});
  EXPECT_EQ(presenter.path(), InteropPath::HostUpload);
  EXPECT_FALSE(presenter.fallbackReason().empty());
}

#else

TEST(Interop, NeedsCuda) {
  GTEST_SKIP() << "built without CUDA";
}

#endif

}  // namespace
}  // namespace pcv
