#include "pcv/gl/egl_context.hpp"

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

bool hasExtension(const char* extensions, const char* name) {
  if (!extensions) return false;
  const size_t length = std::strlen(name);
  for (const char* at = std::strstr(extensions, name); at; at = std::strstr(at + 1, name)) {
    if ((at == extensions || at[-1] == ' ') && (at[length] == ' ' || at[length] == '\0')) {
      return true;
    }
  }
  return false;
}

std::string eglErrorText() {
  char text[32];
  std::snprintf(text, sizeof text, "EGL error 0x%04x", unsigned(eglGetError()));
  return text;
}

struct DisplayChoice {
  EGLDisplay display = EGL_NO_DISPLAY;
  std::string platform;
};

/// EGL devices, CUDA-capable ones first (on a machine with NVIDIA and Mesa both installed the
/// list holds both, and only the NVIDIA one can share memory with CUDA).
DisplayChoice openDeviceDisplay(std::string& whyNot) {
  const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!hasExtension(clientExtensions, "EGL_EXT_device_enumeration") &&
      !hasExtension(clientExtensions, "EGL_EXT_device_base")) {
    whyNot = "no EGL_EXT_device_enumeration";
    return {};
  }
  if (!hasExtension(clientExtensions, "EGL_EXT_platform_device")) {
    whyNot = "no EGL_EXT_platform_device";
    return {};
  }
  EGLint count = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &count) || count == 0) {
    whyNot = "eglQueryDevicesEXT found no device";
    return {};
  }
  std::vector<EGLDeviceEXT> devices(static_cast<size_t>(count));
  eglQueryDevicesEXT(count, devices.data(), &count);
  std::vector<EGLDeviceEXT> ordered;
  for (EGLDeviceEXT device : devices) {
    if (hasExtension(eglQueryDeviceStringEXT(device, EGL_EXTENSIONS), "EGL_NV_device_cuda")) {
      ordered.push_back(device);
    }
  }
  for (EGLDeviceEXT device : devices) {
    if (!hasExtension(eglQueryDeviceStringEXT(device, EGL_EXTENSIONS), "EGL_NV_device_cuda")) {
      ordered.push_back(device);
    }
  }
  for (EGLDeviceEXT device : ordered) {
    EGLDisplay display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
    if (display == EGL_NO_DISPLAY) continue;
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) continue;
    const char* deviceExtensions = eglQueryDeviceStringEXT(device, EGL_EXTENSIONS);
    return {
        display,
        std::string("EGL device platform") +
            (hasExtension(deviceExtensions, "EGL_NV_device_cuda") ? " (EGL_NV_device_cuda)" : "")};
  }
  whyNot = "no EGL device could be initialized (" + eglErrorText() + ")";
  return {};
}

DisplayChoice openSurfacelessDisplay(std::string& whyNot) {
  const char* clientExtensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!hasExtension(clientExtensions, "EGL_MESA_platform_surfaceless")) {
    whyNot += "; no EGL_MESA_platform_surfaceless";
    return {};
  }
  EGLDisplay display =
      eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  EGLint major = 0, minor = 0;
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, &major, &minor)) {
    whyNot += "; Mesa surfaceless display failed (" + eglErrorText() + ")";
    return {};
  }
  return {display, "EGL Mesa surfaceless platform"};
}

}  // namespace

EglContext::EglContext() {
  std::string whyNot;
  DisplayChoice choice = openDeviceDisplay(whyNot);
  if (choice.display == EGL_NO_DISPLAY) choice = openSurfacelessDisplay(whyNot);
  if (choice.display == EGL_NO_DISPLAY) {
    throw UnavailableError("no headless OpenGL context: " + whyNot);
  }
  display_ = choice.display;
  EGLDisplay display = choice.display;
  // From here on, a failure must release the display: the destructor does not run.
  auto fail = [&](const std::string& what) -> UnavailableError {
    if (context_) eglDestroyContext(display, context_);
    if (surface_) eglDestroySurface(display, surface_);
    eglTerminate(display);
    return UnavailableError("no headless OpenGL context: " + what + " (" + eglErrorText() + ")");
  };
  if (!eglBindAPI(EGL_OPENGL_API)) throw fail("eglBindAPI(EGL_OPENGL_API)");

  const EGLint configAttributes[] = {EGL_SURFACE_TYPE,
                                     EGL_PBUFFER_BIT,
                                     EGL_RENDERABLE_TYPE,
                                     EGL_OPENGL_BIT,
                                     EGL_RED_SIZE,
                                     8,
                                     EGL_GREEN_SIZE,
                                     8,
                                     EGL_BLUE_SIZE,
                                     8,
                                     EGL_ALPHA_SIZE,
                                     8,
                                     EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configCount = 0;
  if (!eglChooseConfig(display, configAttributes, &config, 1, &configCount) || configCount == 0) {
    // Surfaceless platforms may offer configs without EGL_PBUFFER_BIT.
    const EGLint anyConfig[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    if (!eglChooseConfig(display, anyConfig, &config, 1, &configCount) || configCount == 0) {
      throw fail("no EGL config for OpenGL");
    }
  }
  for (const auto& [major, minor] : {std::pair{4, 5}, std::pair{3, 3}}) {
    const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                        major,
                                        EGL_CONTEXT_MINOR_VERSION,
                                        minor,
                                        EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                        EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                        EGL_NONE};
    context_ = eglCreateContext(display, config, EGL_NO_CONTEXT, contextAttributes);
    if (context_) break;
  }
  if (!context_) throw fail("eglCreateContext for OpenGL 4.5 or 3.3 core");

  if (!hasExtension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context")) {
    const EGLint pbufferAttributes[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    surface_ = eglCreatePbufferSurface(display, config, pbufferAttributes);
    if (!surface_) throw fail("no surfaceless contexts and eglCreatePbufferSurface failed");
  }
  if (!eglMakeCurrent(display, surface_, surface_, context_)) throw fail("eglMakeCurrent");

  description_ = choice.platform + ", OpenGL " +
                 reinterpret_cast<const char*>(glGetString(GL_VERSION)) + ", " +
                 reinterpret_cast<const char*>(glGetString(GL_RENDERER));
}

EglContext::~EglContext() {
  EGLDisplay display = display_;
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_ && !eglDestroyContext(display, context_)) {
    std::fprintf(stderr, "pcv: eglDestroyContext failed: %s\n", eglErrorText().c_str());
  }
  if (surface_) eglDestroySurface(display, surface_);
  eglTerminate(display);
}

void EglContext::makeCurrent() {
  if (!eglMakeCurrent(display_, surface_, surface_, context_)) {
    throw UnavailableError("eglMakeCurrent failed: " + eglErrorText());
  }
}

}  // namespace pcv
