// Files read whole arrive in two ways: the decoded prefix of the file being read (a preview,
// replaced as it grows) and each finished file, which ends the preview and joins the files in
// core. What the scene does then (recolouring, the cylinders back) is its owner's.
#include "pcv/session/whole_file_feed.hpp"

#include "pcv/core/number_text.hpp"

namespace pcv {

WholeFileFeed::WholeFileFeed(SceneParts& parts, const SessionReport& report)
    : parts_(parts), report_(report) {}

void WholeFileFeed::read(const std::vector<std::string>& files, bool replace,
                         const ReadOptions& options) {
  // Added files go beside a stream (its nodes live in a reserved pool of the renderer, they in
  // the rest of its memory); files that replace the scene replace the stream too.
  if (replace) parts_.closeStream();
  if (!loader_) loader_ = std::make_unique<CloudLoader>();
  for (const std::string& file : files) report_.say("loading " + file);
  loader_->load(files, replace, options);
}

void WholeFileFeed::cancel() {
  if (!loader_) return;
  loader_->cancel();
  loader_->takeFinished();
  loader_->takePreview();
}

TakenFiles WholeFileFeed::takeFinished() {
  if (!loader_) return {};
  std::vector<LoadedFile> finished = loader_->takeFinished();
  TakenFiles taken{.finished = finished.size()};
  if (finished.empty()) return taken;
  for (LoadedFile& file : finished) {
    for (const std::string& warning : file.warnings) {
      report_.warn(warning);
    }
    if (file.cancelled) {
      report_.say(file.error);
      continue;
    }
    if (!file.error.empty()) {
      // The scene keeps what it had: a bad file costs only itself.
      report_.fail(file.error);
      continue;
    }
    report_.say("loaded " + file.path + ": " + std::to_string(file.cloud.size()) + " points in " +
                fixedText(file.seconds, 3) + " s");
    parts_.inCore.add(std::move(file.cloud), file.path, file.worldBounds, file.replaces);
    ++taken.added;
  }
  // The preview ends with its file, whatever happened to it.
  parts_.preview.clear();
  return taken;
}

std::optional<Box3d> WholeFileFeed::takePreview() {
  if (!loader_) return std::nullopt;
  const std::optional<LoadPreview> update = loader_->takePreview();
  if (!update || update->points.empty()) return std::nullopt;
  const std::optional<Box3d> shown = parts_.showPreview(*update);
  if (shown) {
    report_.say("showing " + std::to_string(parts_.preview.points()) + " points of " +
                update->path + " so far");
  }
  return shown;
}

}  // namespace pcv
