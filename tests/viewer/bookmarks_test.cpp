// Saved views: the bookmarks file round trip (every camera bit kept), a file as pcv has written
// it since bookmarks exist, where the file lives, and malformed files named with the file, the
// byte and what was expected.
#include <cstdlib>
#include <fstream>

#include "pcv/core/error.hpp"
#include "test_support.hpp"
#include "viewer/tools/views/bookmarks.hpp"

namespace pcv::app {
namespace {

/// The error `parseBookmarks` gives for `text`, or empty when it gives none.
std::string bookmarksError(const std::string& text, const std::string& sourceName) {
  try {
    parseBookmarks(text, sourceName);
  } catch (const InputError& error) {
    return error.what();
  }
  return {};
}

TEST(Bookmarks, ReadsAFileWrittenBeforeTheJsonLibrary) {
  // Byte for byte what the hand-written writer produced (and still produces).
  const std::string text = R"({
  "version": 1,
  "scenes": {
    "/data/site \"a\".las": [
      {"name": "north", "eye": [637012.123456789, 4849001.1, 0.3333333333333333], "yaw_radians": 0.58119464, "pitch_radians": -0.37873644, "fov_y_radians": 0.9, "near": 0.0123, "far": 4567.8, "up": "y"},
      {"name": "caf\u00e9 \"roof\"", "eye": [1, -2, 3e2], "yaw_radians": 0, "pitch_radians": 0, "fov_y_radians": 1.0471976, "near": 0.01, "far": 100, "up": "z"}
    ],
    "cylinders:10000000:1": [
      {"name": "overview", "eye": [-3, 0, 0], "yaw_radians": 0, "pitch_radians": 0, "fov_y_radians": 1.0471976, "near": 0.01, "far": 100, "up": "z"}
    ]
  }
}
)";
  const BookmarkTable table = parseBookmarks(text, "bookmarks.json");
  ASSERT_EQ(table.size(), 2u);
  const std::vector<Bookmark>& site = table.at("/data/site \"a\".las");
  ASSERT_EQ(site.size(), 2u);
  EXPECT_EQ(site[0].name, "north");
  EXPECT_EQ(site[0].camera.eye, glm::dvec3(637012.123456789, 4849001.1, 1.0 / 3.0));
  EXPECT_EQ(site[0].camera.yawRadians, 0.58119464f);
  EXPECT_EQ(site[0].camera.pitchRadians, -0.37873644f);
  EXPECT_EQ(site[0].camera.fovYRadians, 0.9f);
  EXPECT_EQ(site[0].camera.nearPlane, 0.0123f);
  EXPECT_EQ(site[0].camera.farPlane, 4567.8f);
  EXPECT_EQ(site[0].camera.upAxis, UpAxis::Y);
  EXPECT_EQ(site[1].name, "caf\xc3\xa9 \"roof\"");
  EXPECT_EQ(site[1].camera.eye, glm::dvec3(1.0, -2.0, 300.0));
  EXPECT_EQ(site[1].camera.upAxis, UpAxis::Z);
  EXPECT_EQ(table.at("cylinders:10000000:1")[0].camera.eye, glm::dvec3(-3.0, 0.0, 0.0));
  // And what is written today reads back the same.
  EXPECT_EQ(parseBookmarks(bookmarksJson(table), "again").at("/data/site \"a\".las")[1].name,
            site[1].name);
}

TEST(Bookmarks, MalformedJsonNamesTheFileAndTheByte) {
  // The array is closed by '}' at byte offset 36.
  const std::string error =
      bookmarksError(R"({"version": 1, "scenes": {"a": [1, 2}})", "/home/u/bookmarks.json");
  EXPECT_TRUE(error.starts_with("/home/u/bookmarks.json: byte 36: ")) << error;
  for (const std::string& bad :
       {std::string(R"({"version": 1} x)"), std::string(R"("open)"), std::string(),
        std::string(100000, '['),
        std::string(R"({"version": 1, "scenes": {"a": [)") + std::string(50000, '{')}) {
    EXPECT_TRUE(bookmarksError(bad, "b.json").starts_with("b.json: byte ")) << bad.substr(0, 40);
  }
}

TEST(Bookmarks, WellFormedJsonOfAnotherShapeIsRefused) {
  // Nested deeper than any stack would take recursion: refused, not a crash.
  EXPECT_TRUE(bookmarksError(std::string(200000, '[') + std::string(200000, ']'), "b.json")
                  .starts_with("b.json: "));
  for (const char* bad :
       {"[]", "{}", R"({"version": 2, "scenes": {}})", R"({"version": 1, "scenes": []})",
        R"({"version": 1, "scenes": {"a": {}}})",
        R"({"version": 1, "scenes": {"a": [{"name": "n", "eye": [1, 2]}]}})",
        R"({"version": 1, "scenes": {"a": [{"name": "n", "eye": [1, 2, "3"]}]}})"}) {
    EXPECT_TRUE(bookmarksError(bad, "b.json").starts_with("b.json: ")) << bad;
  }
}

Bookmark sampleBookmark(const std::string& name) {
  Camera camera = Camera::lookingFrom({637012.123456789, 4849001.1, 1.0 / 3.0}, 33.3f, -21.7f);
  camera.nearPlane = 0.0123f;
  camera.farPlane = 4567.8f;
  camera.upAxis = UpAxis::Y;
  camera.fovYRadians = 0.9f;
  return {.name = name, .camera = camera};
}

void expectSameCamera(const Camera& a, const Camera& b) {
  EXPECT_EQ(a.eye, b.eye);
  EXPECT_EQ(a.yawRadians, b.yawRadians);
  EXPECT_EQ(a.pitchRadians, b.pitchRadians);
  EXPECT_EQ(a.fovYRadians, b.fovYRadians);
  EXPECT_EQ(a.nearPlane, b.nearPlane);
  EXPECT_EQ(a.farPlane, b.farPlane);
  EXPECT_EQ(a.upAxis, b.upAxis);
}

TEST(Bookmarks, TheFileKeepsEveryBitOfEachCamera) {
  const BookmarkTable table = {
      {"/data/site \"a\".las", {sampleBookmark("north"), sampleBookmark("roof")}},
      {"cylinders:10000000:1", {sampleBookmark("overview")}}};
  const BookmarkTable back = parseBookmarks(bookmarksJson(table), "bookmarks.json");
  ASSERT_EQ(back.size(), 2u);
  const std::vector<Bookmark>& site = back.at("/data/site \"a\".las");
  ASSERT_EQ(site.size(), 2u);
  EXPECT_EQ(site[1].name, "roof");
  expectSameCamera(site[1].camera, sampleBookmark("roof").camera);
  EXPECT_TRUE(parseBookmarks(bookmarksJson({}), "empty").empty());
}

TEST(Bookmarks, StoreSavesBesideTheConfigAndReadsBack) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pcv_bookmarks_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
  const std::filesystem::path file = defaultBookmarksPath();
  EXPECT_EQ(file, dir / "pcv" / "bookmarks.json");
  {
    BookmarkStore store(file);  // no file yet
    EXPECT_TRUE(store.bookmarks("a.las").empty());
    store.add("a.las", sampleBookmark("one"));
    store.add("a.las", sampleBookmark("two"));
    Bookmark replaced = sampleBookmark("one");
    replaced.camera.eye.x = 5.0;
    store.add("a.las", replaced);
    store.add("b.las", sampleBookmark("other"));
    store.remove("b.las", "other");
  }
  const BookmarkStore reread(file);
  const std::vector<Bookmark> a = reread.bookmarks("a.las");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].name, "two");
  EXPECT_EQ(a[1].camera.eye.x, 5.0);
  EXPECT_TRUE(reread.bookmarks("b.las").empty());
  // A broken file is an error naming it, not silently lost bookmarks.
  std::ofstream(file) << "{\"version\": 1, \"scenes\": {\"x\": [{\"name\": 3}]}}";
  try {
    BookmarkStore broken(file);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(file.string() + ": scene \"x\", bookmark 0"),
              std::string::npos)
        << error.what();
  }
  unsetenv("XDG_CONFIG_HOME");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pcv::app
