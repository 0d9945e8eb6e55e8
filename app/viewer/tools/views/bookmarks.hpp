/// @brief Saved views: named cameras kept per scene (the files shown, or the cylinders) in a
/// small JSON file beside the user's configuration ($XDG_CONFIG_HOME/pcv/bookmarks.json, else
/// ~/.config/pcv/bookmarks.json), so a view of a file can be restored in a later session.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"

namespace pcv::app {

struct Bookmark {
  std::string name;
  Camera camera;  ///< eye, yaw, pitch, field of view, near, far and up axis, exactly
};

/// Bookmarks by scene key, each scene's in the order they were saved.
using BookmarkTable = std::map<std::string, std::vector<Bookmark>>;

/// The file's text: {"version": 1, "scenes": {"<key>": [{"name": ..., "eye": [x, y, z], ...}]}}
/// with every number written so it reads back to the same bits.
std::string bookmarksJson(const BookmarkTable& table);
/// Reads bookmarksJson's text; throws InputError naming `sourceName`, the byte and what was
/// expected.
BookmarkTable parseBookmarks(const std::string& text, const std::string& sourceName);

/// $XDG_CONFIG_HOME/pcv/bookmarks.json, else $HOME/.config/pcv/bookmarks.json; empty when
/// neither variable is set.
std::filesystem::path defaultBookmarksPath();

/// The bookmarks of one file on disk, read when made and written after every change.
class BookmarkStore {
 public:
  /// Reads `path` (a missing file is an empty store); throws InputError for a malformed one.
  explicit BookmarkStore(std::filesystem::path path);
  const std::filesystem::path& path() const { return path_; }

  std::vector<Bookmark> bookmarks(const std::string& sceneKey) const;
  /// Adds `bookmark` to the scene's (replacing one of the same name) and saves the file.
  void add(const std::string& sceneKey, const Bookmark& bookmark);
  /// Removes the scene's bookmark `name` and saves the file.
  void remove(const std::string& sceneKey, const std::string& name);

 private:
  /// Writes the file through a temporary one beside it, creating the folder; throws Error
  /// naming the path when it cannot.
  void save() const;
  std::filesystem::path path_;
  BookmarkTable table_;
};

}  // namespace pcv::app
