// Link edges: the headless pcv (render, convert, info, bench, compare) reaches neither GLFW nor
// ImGui nor X11, so it starts on a server without X libraries. Read from the built executable:
// `ldd` lists every shared library the loader would pull in, transitively (GLFW, X11, xcb, GLX);
// `nm` lists the symbols static libraries left behind (Debian's ImGui is a static library, which
// ldd cannot see). pcv-view, which links them all, is the planted violation. And the other way:
// pcv-view never links the headless commands (pcv_cli), neither as a link edge CMake has nor as
// their code in the executable; pcv, which does, is the planted violation.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <regex>
#include <set>
#include <sstream>
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

/// The project libraries in a comma-separated list of link edges (PCV_LINKS, PCV_VIEW_LINKS).
std::set<std::string> linkedLibraries(const std::string& commaSeparated) {
  std::set<std::string> libraries;
  std::stringstream in(commaSeparated);
  for (std::string name; std::getline(in, name, ',');) {
    if (!name.empty()) libraries.insert(name);
  }
  return libraries;
}

/// The headless commands whose code `nmOutput` shows ("addRenderCommand", ...).
std::set<std::string> headlessCommandsIn(const std::string& nmOutput) {
  static const std::regex commands(
      R"(_ZN3pcv3app[0-9]+(add(Render|Convert|Info|Bench|Compare)Command))");
  std::set<std::string> found;
  for (auto it = std::sregex_iterator(nmOutput.begin(), nmOutput.end(), commands);
       it != std::sregex_iterator(); ++it) {
    found.insert((*it)[1]);
  }
  return found;
}

/// Whether `lddOutput` lists Open MPI's libraries (what pcv convert --tiles links for ranks).
bool reachesMpi(const std::string& lddOutput) {
  static const std::regex mpi(R"(\blib(mpi|open-pal|open-rte|pmix)[a-z_]*\.so)");
  return std::regex_search(lddOutput, mpi);
}

TEST(HeadlessLinks, TheMpiCheckSeesOpenMpi) {
  EXPECT_TRUE(reachesMpi("\tlibmpi.so.40 => /lib/x86_64-linux-gnu/libmpi.so.40 (0x00007f00)\n"));
  EXPECT_TRUE(reachesMpi("\tlibopen-pal.so.40 => /lib/x86_64-linux-gnu/libopen-pal.so.40\n"));
  EXPECT_FALSE(reachesMpi("\tlibpng16.so.16 => /lib/x86_64-linux-gnu/libpng16.so.16\n"));
}

TEST(HeadlessLinks, TheLinkCheckSeesPcvLinkingTheCommands) {
  const std::set<std::string> pcv = linkedLibraries(PCV_LINKS);
  EXPECT_TRUE(pcv.contains("pcv_cli")) << PCV_LINKS;
  EXPECT_TRUE(pcv.contains("pcv_options")) << PCV_LINKS;
  bool ran = false;
  const std::string nm = outputOf("nm '" + std::string(PCV_EXECUTABLE) + "'", ran);
  if (!ran) GTEST_SKIP() << "nm could not read " << PCV_EXECUTABLE;
  EXPECT_TRUE(headlessCommandsIn(nm).contains("addRenderCommand"));
}

#ifdef PCV_VIEW_EXECUTABLE
TEST(HeadlessLinks, PcvViewLinksNoHeadlessCommand) {
  const std::set<std::string> view = linkedLibraries(PCV_VIEW_LINKS);
  EXPECT_TRUE(view.contains("pcv_viewer")) << "the link edges were not read: " << PCV_VIEW_LINKS;
  EXPECT_TRUE(view.contains("pcv_options")) << PCV_VIEW_LINKS;
  EXPECT_FALSE(view.contains("pcv_cli")) << "pcv-view links " << PCV_VIEW_LINKS;
  bool ran = false;
  const std::string nm = outputOf("nm '" + std::string(PCV_VIEW_EXECUTABLE) + "'", ran);
  if (!ran) GTEST_SKIP() << "nm could not read " << PCV_VIEW_EXECUTABLE;
  const std::set<std::string> commands = headlessCommandsIn(nm);
  EXPECT_TRUE(commands.empty()) << PCV_VIEW_EXECUTABLE << " holds " << names(commands);
}

TEST(HeadlessLinks, PcvViewLinksNoMpi) {
  bool ran = false;
  const std::string ldd = outputOf("ldd '" + std::string(PCV_VIEW_EXECUTABLE) + "'", ran);
  if (!ran) GTEST_SKIP() << "ldd could not read " << PCV_VIEW_EXECUTABLE;
  EXPECT_FALSE(reachesMpi(ldd)) << PCV_VIEW_EXECUTABLE << " reaches MPI:\n" << ldd;
}

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
