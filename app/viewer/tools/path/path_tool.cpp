#include "viewer/tools/path/path_tool.hpp"

#include <cstdio>

#include "pcv/core/error.hpp"
#include "pcv/session/camera_path_file.hpp"
#include "viewer/input/input_script.hpp"
#include "viewer/tools/views/bookmarks.hpp"

namespace pcv::app {

void PathTool::drawSection() {
  // Carried out after the section is drawn: its list of keys is not changed while it is walked.
  PathRequests requests;
  drawPathSection(player_, panel_, requests);
  if (requests.addView) addView();
  if (requests.fromBookmarks) fromBookmarks();
  if (requests.clear) player_.clear();
  if (requests.goToKey && *requests.goToKey < player_.keys().size()) {
    player_.setPlaying(false);
    if (const CameraPath* path = player_.path()) {
      player_.seek(path->keyTimes()[*requests.goToKey] - path->startSeconds());
      showPose();
    }
  }
  if (requests.removeKey) player_.remove(*requests.removeKey);
  if (requests.loop) player_.setLooping(*requests.loop);
  if (requests.speed) player_.setSpeed(*requests.speed);
  if (requests.seek) {
    player_.seek(*requests.seek);
    showPose();
  }
  if (requests.play) setPlaying(*requests.play);
  if (requests.save) save(panel_.file);
  if (requests.load) load(panel_.file);
}

void PathTool::drawOverlay(const ScreenProjector& projector) {
  // Not while it plays: the camera is on the line, which would only flicker across the view.
  if (panel_.showPath && !player_.playing()) drawPathOverlay(player_, projector);
}

void PathTool::addScriptCommands(ScriptCommands& commands) {
  commands.add("path_add", [this](ScriptLine&) { return stepOf([this] { addView(); }); });
  commands.add("path_from_bookmarks",
               [this](ScriptLine&) { return stepOf([this] { fromBookmarks(); }); });
  commands.add("path_clear", [this](ScriptLine&) { return stepOf([this] { player_.clear(); }); });
  commands.add("path_play", [this](ScriptLine&) { return stepOf([this] { setPlaying(true); }); });
  commands.add("path_pause", [this](ScriptLine&) { return stepOf([this] { setPlaying(false); }); });
  commands.add("path_loop", [this](ScriptLine& line) {
    const bool on = line.oneOf({"on", "off"}, "on or off") == "on";
    return stepOf([this, on] { player_.setLooping(on); });
  });
  commands.add("path_speed", [this](ScriptLine& line) {
    const double speed = line.number("a speed factor");
    if (!(speed > 0.0)) line.fail("the speed must be above 0");
    return stepOf([this, speed] { player_.setSpeed(speed); });
  });
  commands.add("path_seek", [this](ScriptLine& line) {
    const double seconds = line.number("seconds since the path's start");
    return stepOf([this, seconds] {
      player_.seek(seconds);
      showPose();
    });
  });
  commands.add("path_save", [this](ScriptLine& line) {
    return stepOf([this, file = line.word("a file")] { save(file); });
  });
  commands.add("path_load", [this](ScriptLine& line) {
    return stepOf([this, file = line.word("a file")] { load(file); });
  });
}

void PathTool::onFrame(double nowSeconds) {
  const double dt = lastFrameSeconds_ ? nowSeconds - *lastFrameSeconds_ : 0.0;
  lastFrameSeconds_ = nowSeconds;
  const bool wasPlaying = player_.playing();
  if (player_.advance(dt)) showPose();
  if (wasPlaying && !player_.playing()) say("the camera path ended");
}

void PathTool::addView() {
  player_.add(keyOf(host_.rig().camera()));
  say("camera path: key " + std::to_string(player_.keys().size()) + " added");
}

void PathTool::fromBookmarks() {
  try {
    const BookmarkStore store(defaultBookmarksPath());
    std::vector<CameraKey> keys;
    for (const Bookmark& bookmark : store.bookmarks(host_.scene().parts().key())) {
      keys.push_back(keyOf(bookmark.camera));
    }
    if (keys.empty()) {
      say("no bookmarks for this scene (B saves one)");
      return;
    }
    player_.replace(std::move(keys));
    say("camera path: " + std::to_string(player_.keys().size()) + " keys from the bookmarks");
  } catch (const Error& error) {
    say(error.what());
  }
}

void PathTool::save(const std::string& file) {
  try {
    writeCameraPath(file, player_.keys());
    say("saved the camera path (" + std::to_string(player_.keys().size()) + " keys) to " + file);
  } catch (const Error& error) {
    say(error.what());
  }
}

void PathTool::load(const std::string& file) {
  try {
    player_.replace(readCameraPath(file));
    panel_.file = file;
    say("loaded the camera path (" + std::to_string(player_.keys().size()) + " keys) from " + file);
    showPose();
  } catch (const Error& error) {
    say(error.what());
    host_.showError(error.what());
  }
}

void PathTool::setPlaying(bool playing) {
  player_.setPlaying(playing);
  if (playing && !player_.playing()) {
    say("a camera path needs two keys or more to play");
    return;
  }
  say(player_.playing() ? "playing the camera path" : "camera path paused");
  if (player_.playing()) showPose();
}

void PathTool::showPose() {
  const std::optional<CameraPose> pose = player_.pose();
  if (!pose) return;
  host_.rig().jumpTo(pose->applyTo(host_.rig().camera()));
}

void PathTool::say(const std::string& message) {
  panel_.message = message;
  std::fprintf(stderr, "pcv: %s\n", message.c_str());
}

}  // namespace pcv::app
