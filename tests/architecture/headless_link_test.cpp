// Link edges: the headless pcv (render, convert, info, bench, compare) reaches neither GLFW nor
// ImGui nor X11, so it starts on a server without X libraries. Read from the built executable:
// `ldd` lists every shared library the loader would pull in, transitively (GLFW, X11, xcb, GLX);
// `nm` lists the symbols static libraries left behind (Debian's ImGui is a static library, which
// ldd cannot see). pcv-view, which links them all, is the planted violation.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <regex>
#include <set>
#include <string>

namespace pcv::architecture {
namespace {

/// The forbidden libraries `lddOutput` and `nmOutput` show, by name ("glfw", "X11", "ImGui").
std::set<std::string> windowLibrariesIn(const std::string& lddOutput, const std::string& nmOutput) {
  // libGLX and libGL (glvnd) load X11; libepoxy does not, and loads EGL only when asked to.
  static const std::regex shared(
      R"(\blib(glfw|X11|X11-xcb|xcb|Xext|Xrandr|Xi|Xcursor|Xinerama|Xxf86vm|GLX|GL|imgui)\.so)");
  static const std::regex symbols(R"(\b(_ZN5ImGui|glfw[A-Z]))");
  std::set<std::string> found;
  for (auto it = std::sregex_iterator(lddOutput.begin(), lddOutput.end(), shared);
       it != std::sregex_iterator(); ++it) {
    found.insert((*it)[1]);
  }
  for (auto it = std::sregex_iterator(nmOutput.begin(), nmOutput.end(), symbols);
       it != std::sregex_iterator(); ++it) {
    found.insert((*it)[1] == "_ZN5ImGui" ? "ImGui" : "glfw");
  }
  return found;
}

/// Runs `command`; its stdout, or nothing (and `ran` false) when it did not exit with 0.
std::string outputOf(const std::string& command, bool& ran) {
  FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r");
  std::string text;
  if (!pipe) {
    ran = false;
    return text;
  }
  std::array<char, 65536> buffer;
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) text.append(buffer.data(), n);
  const int status = pclose(pipe);
  ran = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return text;
}

/// The window libraries the executable at `path` reaches; `why` says why it could not be read.
std::set<std::string> windowLibrariesOf(const std::string& path, std::string& why) {
  bool lddRan = false, nmRan = false;
  const std::string ldd = outputOf("ldd '" + path + "'", lddRan);
  const std::string nm = outputOf("nm '" + path + "'", nmRan);
  if (!lddRan || !nmRan) why = "ldd or nm could not read " + path;
  return windowLibrariesIn(ldd, nm);
}

std::string names(const std::set<std::string>& libraries) {
  std::string text;
  for (const std::string& name : libraries) text += name + " ";
  return text;
}

TEST(HeadlessLinks, PcvReachesNoWindowLibrary) {
  std::string why;
  const std::set<std::string> found = windowLibrariesOf(PCV_EXECUTABLE, why);
  if (!why.empty()) GTEST_SKIP() << why;
  EXPECT_TRUE(found.empty()) << PCV_EXECUTABLE << " reaches " << names(found);
}

TEST(HeadlessLinks, TheCheckSeesPlantedLibraries) {
  const std::string ldd =
      "\tlibpng16.so.16 => /lib/x86_64-linux-gnu/libpng16.so.16 (0x00007f0000000000)\n"
      "\tlibepoxy.so.0 => /lib/x86_64-linux-gnu/libepoxy.so.0 (0x00007f0000000000)\n"
      "\tlibglfw.so.3 => /lib/x86_64-linux-gnu/libglfw.so.3 (0x00007f0000000000)\n"
      "\tlibX11.so.6 => /lib/x86_64-linux-gnu/libX11.so.6 (0x00007f0000000000)\n";
  const std::string nm =
      "0000000000412345 T _ZN5ImGui5BeginEPKcPbi\n0000000000401000 T main\n"
      "                 U glfwInit\n";
  EXPECT_EQ(windowLibrariesIn(ldd, nm), (std::set<std::string>{"glfw", "X11", "ImGui"}));
  EXPECT_TRUE(windowLibrariesIn(ldd.substr(0, ldd.find("\tlibglfw")), "T main\n").empty());
}

#ifdef PCV_VIEW_EXECUTABLE
TEST(HeadlessLinks, TheCheckSeesTheViewersLibraries) {
  std::string why;
  const std::set<std::string> found = windowLibrariesOf(PCV_VIEW_EXECUTABLE, why);
  if (!why.empty()) GTEST_SKIP() << why;
  EXPECT_TRUE(found.contains("glfw")) << names(found);
  EXPECT_TRUE(found.contains("ImGui")) << names(found);
}
#endif

}  // namespace
}  // namespace pcv::architecture
