// Saved views: the JSON reader, the bookmarks file round trip (every camera bit kept), where the
// file lives, and malformed files named with the byte and what was expected.
#include <cstdlib>
#include <fstream>

#include "pcv/core/error.hpp"
#include "test_support.hpp"
#include "viewer/views/bookmarks.hpp"
#include "viewer/views/json_value.hpp"

namespace pcv::app {
namespace {

TEST(JsonValue, ReadsObjectsArraysStringsNumbersAndLiterals) {
  const JsonValue v =
      parseJson(R"({"a": [1, -2.5e3, true, false, null], "s": "q\"\\\n\u00e9", "o": {}})", "test");
  ASSERT_EQ(v.type, JsonValue::Type::Object);
  const JsonValue* a = v.find("a");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->array.size(), 5u);
  EXPECT_EQ(a->array[1].number, -2500.0);
  EXPECT_TRUE(a->array[2].boolean);
  EXPECT_EQ(a->array[3].type, JsonValue::Type::Bool);
  EXPECT_FALSE(a->array[3].boolean);
  EXPECT_EQ(a->array[4].type, JsonValue::Type::Null);
  EXPECT_EQ(v.find("s")->string, "q\"\\\n\xc3\xa9");
  EXPECT_EQ(parseJson(jsonQuoted("tab\there \"q\" \x01"), "q").string, "tab\there \"q\" \x01");
}

TEST(JsonValue, MalformedTextNamesTheByteAndWhatWasExpected) {
  try {
    parseJson(R"({"a": [1, 2})", "views.json");
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "views.json: byte 11: expected ']'");
  }
  EXPECT_THROW(parseJson(R"({"a": 1} x)", "t"), InputError);
  EXPECT_THROW(parseJson(R"("open)", "t"), InputError);
  EXPECT_THROW(parseJson(std::string(100, '['), "t"), InputError);  // too deep
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
