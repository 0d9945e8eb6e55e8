#include "gl_render.hpp"

#include <cstdio>

#include "pcv/gl/egl_context.hpp"
#include "pcv/gl/frame_presenter.hpp"

namespace pcv::app {

Image renderThroughGl(Renderer& renderer, const ViewTransform& view, const RenderSettings& settings,
                      const std::string& interop) {
  const InteropPath requested = parseInteropPath(interop);
  EglContext context;
  std::fprintf(stderr, "pcv: %s\n", context.description().c_str());
  FramePresenter presenter(renderer, requested);
  presenter.render(view, settings);
  Image image = presenter.readImage();
  std::fprintf(stderr, "pcv: interop path '%s'\n", interopPathName(presenter.path()));
  return image;
}

}  // namespace pcv::app
