#include "viewer/tools/views/bookmarks.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "pcv/core/number_text.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/partial_file.hpp"

namespace pcv::app {
namespace {

constexpr int kVersion = 1;

/// `text` as a JSON string literal; bytes that are not UTF-8 (a path on a Latin-1 file system)
/// become U+FFFD rather than an error.
std::string jsonQuoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string bookmarkJson(const Bookmark& b) {
  const Camera& c = b.camera;
  return "{\"name\": " + jsonQuoted(b.name) + ", \"eye\": [" + exactText(c.eye.x) + ", " +
         exactText(c.eye.y) + ", " + exactText(c.eye.z) +
         "], \"yaw_radians\": " + exactText(c.yawRadians) +
         ", \"pitch_radians\": " + exactText(c.pitchRadians) +
         ", \"fov_y_radians\": " + exactText(c.fovYRadians) +
         ", \"near\": " + exactText(c.nearPlane) + ", \"far\": " + exactText(c.farPlane) +
         ", \"up\": \"" + (c.upAxis == UpAxis::Y ? "y" : "z") + "\"" +
         (c.orthographic() ? ", \"ortho_width\": " + exactText(c.orthoWidth) : std::string()) + "}";
}

/// Reads a bookmark object; `where` names it in errors.
Bookmark bookmarkFrom(const nlohmann::json& value, const std::string& where) {
  if (!value.is_object() || !value.contains("name") || !value["name"].is_string()) {
    throw InputError(where + ": expected an object with a string \"name\"");
  }
  auto number = [&](const char* key) {
    const auto member = value.find(key);
    if (member == value.end() || !member->is_number()) {
      throw InputError(where + ": expected a number \"" + key + "\"");
    }
    return member->get<double>();
  };
  const auto eye = value.find("eye");
  if (eye == value.end() || !eye->is_array() || eye->size() != 3) {
    throw InputError(where + ": expected \"eye\" as [x, y, z]");
  }
  Bookmark b{.name = value["name"].get<std::string>()};
  for (int axis = 0; axis < 3; ++axis) {
    if (!(*eye)[axis].is_number()) {
      throw InputError(where + ": expected \"eye\" as [x, y, z] of numbers");
    }
    b.camera.eye[axis] = (*eye)[axis].get<double>();
  }
  b.camera.yawRadians = float(number("yaw_radians"));
  b.camera.pitchRadians = float(number("pitch_radians"));
  b.camera.fovYRadians = float(number("fov_y_radians"));
  b.camera.nearPlane = float(number("near"));
  b.camera.farPlane = float(number("far"));
  const auto up = value.find("up");
  b.camera.upAxis = up != value.end() && *up == "y" ? UpAxis::Y : UpAxis::Z;
  // An orthographic view keeps its width; bookmarks without one are perspective.
  if (value.contains("ortho_width")) {
    b.camera.projection = Projection::Orthographic;
    b.camera.orthoWidth = number("ortho_width");
    if (!(b.camera.orthoWidth > 0.0)) throw InputError(where + ": \"ortho_width\" must be > 0");
  }
  return b;
}

/// The document in `text`; a syntax error names the file, the byte and what was expected.
nlohmann::json parseDocument(const std::string& text, const std::string& sourceName) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    // The library's message is "[json.exception.parse_error.101] parse error at line 1, column
    // 12: syntax error while parsing ... - unexpected ...; expected ..."; its tag says nothing
    // to a user and the byte is given separately.
    std::string what = error.what();
    if (const size_t tag = what.find("] ");
        what.starts_with("[json.") && tag != std::string::npos) {
      what.erase(0, tag + 2);
    }
    // The library counts bytes read, up to the offending one; pcv's errors give its offset.
    const size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    throw InputError(sourceName + ": byte " + std::to_string(offset) + ": " + what);
  }
}

}  // namespace

std::string bookmarksJson(const BookmarkTable& table) {
  std::string json = "{\n  \"version\": " + std::to_string(kVersion) + ",\n  \"scenes\": {";
  bool firstScene = true;
  for (const auto& [key, bookmarks] : table) {
    if (bookmarks.empty()) continue;
    json += std::string(firstScene ? "\n" : ",\n") + "    " + jsonQuoted(key) + ": [";
    for (size_t i = 0; i < bookmarks.size(); ++i) {
      json += std::string(i ? ",\n      " : "\n      ") + bookmarkJson(bookmarks[i]);
    }
    json += "\n    ]";
    firstScene = false;
  }
  json += firstScene ? "}\n}\n" : "\n  }\n}\n";
  return json;
}

BookmarkTable parseBookmarks(const std::string& text, const std::string& sourceName) {
  const nlohmann::json root = parseDocument(text, sourceName);
  const auto version = root.is_object() ? root.find("version") : root.end();
  if (version == root.end() || !version->is_number() || version->get<double>() != kVersion) {
    throw InputError(sourceName + ": expected \"version\": " + std::to_string(kVersion));
  }
  const auto scenes = root.find("scenes");
  if (scenes == root.end() || !scenes->is_object()) {
    throw InputError(sourceName + ": expected an object \"scenes\"");
  }
  BookmarkTable table;
  for (const auto& [key, list] : scenes->items()) {
    if (!list.is_array()) {
      throw InputError(sourceName + ": scene \"" + key + "\": expected an array of bookmarks");
    }
    for (size_t i = 0; i < list.size(); ++i) {
      table[key].push_back(bookmarkFrom(
          list[i], sourceName + ": scene \"" + key + "\", bookmark " + std::to_string(i)));
    }
  }
  return table;
}

std::filesystem::path defaultBookmarksPath() {
  if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config) {
    return std::filesystem::path(config) / "pcv" / "bookmarks.json";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".config" / "pcv" / "bookmarks.json";
  }
  return {};
}

BookmarkStore::BookmarkStore(std::filesystem::path path) : path_(std::move(path)) {
  std::ifstream in(path_);
  if (!in) return;  // no file yet: no bookmarks
  std::ostringstream text;
  text << in.rdbuf();
  table_ = parseBookmarks(text.str(), path_.string());
}

std::vector<Bookmark> BookmarkStore::bookmarks(const std::string& sceneKey) const {
  const auto found = table_.find(sceneKey);
  return found == table_.end() ? std::vector<Bookmark>{} : found->second;
}

void BookmarkStore::add(const std::string& sceneKey, const Bookmark& bookmark) {
  std::vector<Bookmark>& list = table_[sceneKey];
  std::erase_if(list, [&](const Bookmark& b) { return b.name == bookmark.name; });
  list.push_back(bookmark);
  save();
}

void BookmarkStore::remove(const std::string& sceneKey, const std::string& name) {
  std::vector<Bookmark>& list = table_[sceneKey];
  std::erase_if(list, [&](const Bookmark& b) { return b.name == name; });
  save();
}

void BookmarkStore::save() const {
  if (path_.empty()) throw Error("no place for bookmarks: neither XDG_CONFIG_HOME nor HOME is set");
  std::error_code error;
  std::filesystem::create_directories(path_.parent_path(), error);
  PartialFile partial(path_, {.existing = ExistingOutput::Replace});
  {
    std::ofstream out(partial.path());
    out << bookmarksJson(table_);
    if (!out) throw Error("cannot write the bookmarks to '" + path_.string() + "'");
  }
  partial.commit();
}

}  // namespace pcv::app
