// A class change in the viewer, timed: a file read whole as the viewer reads it (coloured by
// class, with its filter data), then edits that set the class of the points in a box holding a
// given share of them, alternately 6 and 2, each shown with SceneModel::pushEdit (the class
// applied on the host, the set's colours and filter words replaced in place), the last edit
// undone and redone (as the Edit tool does: its points alone changed back), the whole list
// shown again (setEdits), and one delete of the same box (the set laid out again, for
// comparison). Prints the median and range of the
// times over the runs. On a GPU backend the renderer's work is waited for by drawing a frame.
//   pcv_edit_benchmark FILE [--backend cpu|cuda|vulkan] [--share 0.01] [--runs 9]
//                      [--cases change,undo,replay,frame,delete]  (the parts timed; default all)
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include "pcv/core/camera_framing.hpp"
#include "pcv/raster/backend_choice.hpp"
#include "pcv/raster/render_target.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/session/scene_model.hpp"

namespace {

using namespace pcv;
using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Median, min and max of the times.
void print(const char* what, std::vector<double> times) {
  std::sort(times.begin(), times.end());
  std::printf("%-34s median %9.2f ms  (min %.2f, max %.2f, %zu runs)\n", what,
              times[times.size() / 2], times.front(), times.back(), times.size());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Time a class change of a share of a file's points as the viewer shows it"};
  std::string file, backend = "cpu";
  double share = 0.01;
  int runs = 9;
  app.add_option("file", file, "A LAS, LAZ or COPC file (read whole)")->required();
  app.add_option("--backend", backend, "cpu, cuda or vulkan")->capture_default_str();
  app.add_option("--share", share, "Share of the points in the box edited")->capture_default_str();
  app.add_option("--runs", runs, "Class changes timed")->capture_default_str();
  std::string cases = "change,undo,replay,frame,delete";
  app.add_option("--cases", cases,
                 "The parts timed, comma-separated: change, undo, replay, frame, delete (on a "
                 "billion points replay and delete take seconds a run)")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  const auto wanted = [&](const std::string& name) {
    return ("," + cases + ",").find("," + name + ",") != std::string::npos;
  };

  const std::unique_ptr<Renderer> renderer = createRenderer(backend);
  SceneModel scene(*renderer, DemoCylinders{.pointCount = 1000, .seed = 1},
                   ColoringOptions{.mode = ColorMode::Classification},
                   StreamLimits{.inCore = true});
  scene.keepFilterData(true);
  const Clock::time_point loadStart = Clock::now();
  scene.open({file}, true);
  while (scene.loading() || !scene.parts().inCore.colored().set()) {
    scene.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const uint64_t points = scene.parts().inCore.cloud().size();
  std::printf("%s: %llu points read and laid out in %.0f ms on %s\n", file.c_str(),
              static_cast<unsigned long long>(points), millisecondsSince(loadStart),
              renderer->deviceDescription().c_str());

  // A box across x holding about `share` of the points: the bounds cut at that fraction.
  const Box3d bounds = scene.shownBounds();
  PointEdit edit;
  edit.selection.clip.box = ClipBox{
      .min = bounds.min,
      .max = {bounds.min.x + share * (bounds.max.x - bounds.min.x), bounds.max.y, bounds.max.z}};
  edit.action = EditAction::SetClass;

  const Camera camera = frameBounds(bounds, 1.0f);
  std::vector<uint32_t> pixels(1280 * 720);
  const RenderTarget target{.rgba = pixels.data(), .width = 1280, .height = 720};
  const ViewTransform view = makeViewTransform(camera, 1280, 720, scene.parts().origin);
  // A host target: render() returns once the frame is in `pixels`, the edit's work done.
  const auto frame = [&] { renderer->render(view, {}, target); };
  frame();
  // A new edit (the Edit tool's action: only it applied to the points as they are) and the
  // whole list shown again (undo and redo: the values read restored, every edit applied).
  std::vector<double> changes, wholeLists;
  for (int run = 0; run < runs && wanted("change"); ++run) {
    edit.classification = run % 2 == 0 ? 6 : 2;
    const Clock::time_point start = Clock::now();
    scene.pushEdit(edit);
    frame();
    changes.push_back(millisecondsSince(start));
  }
  if (wanted("change")) {
    // The first edit also prepares what every later one reuses (the edit attributes, the
    // record of the values read, the renderer's index of the points' places).
    std::printf("%-34s %9.2f ms\n", "first class change + next frame", changes.front());
    print("class change + next frame", changes);
  }
  // Undo as the viewer's Edit tool does it (the last edit taken back at the cost of its points),
  // and redo (the edit pushed again).
  std::vector<double> undos, redos;
  for (int run = 0; run < runs && wanted("undo") && !scene.edits().empty(); ++run) {
    const PointEdit last = scene.edits().back();
    Clock::time_point start = Clock::now();
    scene.undoLastEdit();
    frame();
    undos.push_back(millisecondsSince(start));
    start = Clock::now();
    scene.pushEdit(last);
    frame();
    redos.push_back(millisecondsSince(start));
  }
  if (!undos.empty()) {
    print("undo + next frame", undos);
    print("redo + next frame", redos);
  }
  for (int run = 0; run < runs && wanted("replay"); ++run) {
    const Clock::time_point start = Clock::now();
    scene.setEdits(scene.edits());
    frame();
    wholeLists.push_back(millisecondsSince(start));
  }
  if (wanted("replay")) print("every edit again + frame", wholeLists);
  std::vector<double> frames;
  for (int run = 0; run < runs && wanted("frame"); ++run) {
    const Clock::time_point start = Clock::now();
    frame();
    frames.push_back(millisecondsSince(start));
  }
  if (wanted("frame")) print("a frame alone", frames);
  PointEdit remove = edit;
  remove.action = EditAction::Delete;
  std::vector<double> deletes;
  for (int run = 0; run < 3 && wanted("delete"); ++run) {
    const Clock::time_point start = Clock::now();
    scene.setEdits(run % 2 == 0 ? std::vector<PointEdit>{remove} : std::vector<PointEdit>{});
    frame();
    deletes.push_back(millisecondsSince(start));
  }
  if (wanted("delete")) print("delete / restore (laid out again)", deletes);
  return 0;
}
