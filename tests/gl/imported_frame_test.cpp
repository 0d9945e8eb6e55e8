// The Vulkan backend's frames handed to GL through memory GL imports, in a headless EGL context
// (Mesa's EGL with lavapipe here; NVIDIA's on a machine with an NVIDIA GPU): drawn from the
// imported buffer or copied to the texture first, GL shows the pixels the backend drew.
#include <epoxy/egl.h>

#include "gl_test_support.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/gl/frame_presenter.hpp"
#include "pcv/gl/screen_buffer.hpp"
#include "pcv/raster/vulkan_devices.hpp"

namespace pcv {
namespace {

// NVIDIA's driver ends the process's EGL displays with its last Vulkan instance: the GL context
// must outlive device listings and renderers that come and go.
TEST(VulkanBesideGl, DeviceListsAndRenderersEndingLeaveTheGlContext) {
  PCV_REQUIRE_EGL();
  PCV_REQUIRE_VULKAN();  // lists the devices: an instance made and destroyed
  std::string error;
  EXPECT_FALSE(listVulkanDevices(&error).empty()) << error;
  createRenderer("vulkan").reset();
  EXPECT_NE(eglGetCurrentContext(), EGL_NO_CONTEXT);
  EXPECT_NO_THROW(test::sharedEglContext(nullptr)->makeCurrent());
  EXPECT_NO_THROW(ScreenBuffer(16, 16));
}

class ImportedFrame : public ::testing::TestWithParam<ImportedFrameDrawing> {};

TEST_P(ImportedFrame, GlShowsTheBackendsPixels) {
  PCV_REQUIRE_EGL();
  PCV_REQUIRE_VULKAN();
  auto renderer = createRenderer("vulkan");
  renderer->addSet(CylinderProducer(makeCylinderSet(2), 200'000));
  FramePresenter presenter(*renderer, InteropPath::VulkanMemory, GetParam());
  RenderSettings settings;
  for (const auto& size : {test::ImageSizeCase{320, 180}, test::ImageSizeCase{333, 211}}) {
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    const ViewTransform view = test::makeView(Camera{}, size.width, size.height);
    presenter.render(view, settings);
    if (presenter.path() != InteropPath::VulkanMemory) {
      // Mesa's GL imports lavapipe's memory; another vendor's device may be refused by it.
      ASSERT_EQ(renderer->deviceDescription().find("software"), std::string::npos)
          << presenter.fallbackReason();
      GTEST_SKIP() << "GL imports no memory of this device: " << presenter.fallbackReason();
    }
    EXPECT_EQ(presenter.drawsFromBuffer(), GetParam() == ImportedFrameDrawing::FromBuffer);
    const Image expected = test::renderToImage(*renderer, view, settings);
    EXPECT_GT(test::countLitPixels(expected, settings.background), 1000u);
    EXPECT_EQ(test::countDifferentPixels(presenter.readImage(), expected), 0u);
    // What the window would show.
    ScreenBuffer window(size.width, size.height);
    presenter.blitTo(window.framebuffer(), size.width, size.height);
    EXPECT_EQ(test::countDifferentPixels(window.readTexture(), expected), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Drawings, ImportedFrame,
                         ::testing::Values(ImportedFrameDrawing::FromBuffer,
                                           ImportedFrameDrawing::CopiedToTexture),
                         [](const auto& info) {
                           return info.param == ImportedFrameDrawing::FromBuffer ? "FromBuffer"
                                                                                 : "Copied";
                         });

}  // namespace
}  // namespace pcv
