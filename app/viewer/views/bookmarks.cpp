#include "viewer/views/bookmarks.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "pcv/core/number_text.hpp"
#include "pcv/core/error.hpp"
#include "viewer/views/json_value.hpp"

namespace pcv::app {
namespace {

constexpr int kVersion = 1;

std::string bookmarkJson(const Bookmark& b) {
  const Camera& c = b.camera;
  return "{\"name\": " + jsonQuoted(b.name) + ", \"eye\": [" + exactText(c.eye.x) + ", " +
         exactText(c.eye.y) + ", " + exactText(c.eye.z) +
         "], \"yaw_radians\": " + exactText(c.yawRadians) +
         ", \"pitch_radians\": " + exactText(c.pitchRadians) +
         ", \"fov_y_radians\": " + exactText(c.fovYRadians) +
         ", \"near\": " + exactText(c.nearPlane) + ", \"far\": " + exactText(c.farPlane) +
         ", \"up\": \"" + (c.upAxis == UpAxis::Y ? "y" : "z") + "\"}";
}

/// Reads a bookmark object; `where` names it in errors.
Bookmark bookmarkFrom(const JsonValue& value, const std::string& where) {
  auto number = [&](const char* key) {
    const JsonValue* member = value.find(key);
    if (!member || member->type != JsonValue::Type::Number) {
      throw InputError(where + ": expected a number \"" + key + "\"");
    }
    return member->number;
  };
  const JsonValue* name = value.find("name");
  const JsonValue* eye = value.find("eye");
  if (value.type != JsonValue::Type::Object || !name || name->type != JsonValue::Type::String) {
    throw InputError(where + ": expected an object with a string \"name\"");
  }
  if (!eye || eye->type != JsonValue::Type::Array || eye->array.size() != 3) {
    throw InputError(where + ": expected \"eye\" as [x, y, z]");
  }
  Bookmark b{.name = name->string};
  for (int axis = 0; axis < 3; ++axis) {
    if (eye->array[axis].type != JsonValue::Type::Number) {
      throw InputError(where + ": expected \"eye\" as [x, y, z] of numbers");
    }
    b.camera.eye[axis] = eye->array[axis].number;
  }
  b.camera.yawRadians = float(number("yaw_radians"));
  b.camera.pitchRadians = float(number("pitch_radians"));
  b.camera.fovYRadians = float(number("fov_y_radians"));
  b.camera.nearPlane = float(number("near"));
  b.camera.farPlane = float(number("far"));
  const JsonValue* up = value.find("up");
  b.camera.upAxis =
      up && up->type == JsonValue::Type::String && up->string == "y" ? UpAxis::Y : UpAxis::Z;
  return b;
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
  const JsonValue root = parseJson(text, sourceName);
  const JsonValue* version = root.find("version");
  if (!version || version->type != JsonValue::Type::Number || version->number != kVersion) {
    throw InputError(sourceName + ": expected \"version\": " + std::to_string(kVersion));
  }
  const JsonValue* scenes = root.find("scenes");
  if (!scenes || scenes->type != JsonValue::Type::Object) {
    throw InputError(sourceName + ": expected an object \"scenes\"");
  }
  BookmarkTable table;
  for (const auto& [key, list] : scenes->object) {
    if (list.type != JsonValue::Type::Array) {
      throw InputError(sourceName + ": scene \"" + key + "\": expected an array of bookmarks");
    }
    for (size_t i = 0; i < list.array.size(); ++i) {
      table[key].push_back(bookmarkFrom(
          list.array[i], sourceName + ": scene \"" + key + "\", bookmark " + std::to_string(i)));
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
  const std::filesystem::path temporary = path_.string() + ".tmp";
  {
    std::ofstream out(temporary);
    out << bookmarksJson(table_);
    if (!out) throw Error("cannot write the bookmarks to '" + temporary.string() + "'");
  }
  std::filesystem::rename(temporary, path_, error);
  if (error) {
    throw Error("cannot write the bookmarks to '" + path_.string() + "': " + error.message());
  }
}

}  // namespace pcv::app
