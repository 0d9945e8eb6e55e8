#include "viewer/tools/filter_tool.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pcv/core/error.hpp"
#include "pcv/session/selection_export.hpp"
#include "viewer/input_script.hpp"
#include "viewer/panels/filter_section.hpp"

namespace pcv::app {

FilterTool::~FilterTool() {
  if (!job_) return;
  job_->progress.cancel = true;  // a window closing does not wait for a long export
  if (job_->thread.joinable()) job_->thread.join();
}

void FilterTool::onSceneShown() {
  const PointCloud& cloud = host_.scene().cloud();
  panel_.classCounts.fill(0);
  panel_.countsKnown = host_.scene().streamed() == nullptr;
  if (const ScalarAttribute* classes = cloud.findAttribute("classification")) {
    for (const float value : classes->values) {
      if (value >= 0.0f && value <= 255.0f) ++panel_.classCounts[uint32_t(value)];
    }
  }
  panel_.attributes.clear();
  for (const ScalarAttribute& attribute : cloud.attributes) {
    panel_.attributes.push_back(attribute.name);
  }
  if (!panel_.rangeAttribute.empty()) chooseRange(panel_.rangeAttribute);
}

void FilterTool::chooseRange(const std::string& attribute) {
  panel_.rangeAttribute = attribute;
  PointFilter& filter = host_.settings().filter;
  filter.ranges.clear();
  if (attribute.empty()) return;
  const ScalarAttribute* values = host_.scene().cloud().findAttribute(attribute);
  float low = INFINITY, high = -INFINITY;
  if (values) {
    for (const float v : values->values) {
      if (std::isnan(v)) continue;
      low = std::min(low, v);
      high = std::max(high, v);
    }
  }
  panel_.rangeLow = low <= high ? low : 0.0;
  panel_.rangeHigh = low <= high ? high : 0.0;
  // The renderer holds one attribute's values for ranges: this one's, from now on.
  host_.scene().keepFilterData(true, attribute);
  filter.ranges = {{attribute, panel_.rangeLow, panel_.rangeHigh}};
}

void FilterTool::drawSection() {
  FilterSectionActions actions =
      drawFilterSection(host_.settings().filter, panel_, job_ ? &job_->progress : nullptr,
                        job_ ? std::string() : lastOutcome_);
  if (actions.rangeAttribute) chooseRange(*actions.rangeAttribute);
  if (actions.exportTo) startExport(*actions.exportTo);
  if (actions.cancelExport && job_) job_->progress.cancel = true;
  exportDone();
}

bool FilterTool::startExport(const std::string& path) {
  if (job_) {
    host_.showError("an export is running: cancel it or wait for it");
    return false;
  }
  const ViewDescription view = host_.describeView();
  if (view.files.empty()) {
    host_.showError("export selection: the cylinder scene has no file to export from");
    return false;
  }
  const PointSelection selection{.clip = view.settings.clip, .filter = view.settings.filter};
  job_ = std::make_unique<SelectionExportJob>();
  SelectionExportJob* job = job_.get();
  job->thread = std::thread([job, files = view.files, path, selection] {
    std::string outcome;
    try {
      const ExportSummary summary = exportSelection(files, path, selection, &job->progress);
      outcome = "exported " + std::to_string(summary.points) + " points to " + path + " (" +
                summary.format + ", point format " + std::to_string(summary.pointFormat) + ")";
    } catch (const ConversionCancelled&) {
      outcome = "export to " + path + " cancelled";
    } catch (const std::exception& error) {
      outcome = std::string("export failed: ") + error.what();
    }
    const std::lock_guard lock(job->mutex);
    job->outcome = outcome;
    job->finished = true;
  });
  std::fprintf(stderr, "pcv: exporting the selection to %s\n", path.c_str());
  return true;
}

bool FilterTool::exportDone() {
  if (!job_) return true;
  {
    const std::lock_guard lock(job_->mutex);
    if (!job_->finished) return false;
    lastOutcome_ = job_->outcome;
  }
  job_->thread.join();
  job_.reset();
  std::fprintf(stderr, "pcv: %s\n", lastOutcome_.c_str());
  if (lastOutcome_.rfind("export failed", 0) == 0) host_.showError(lastOutcome_);
  return true;
}

void FilterTool::addScriptCommands(ScriptCommands& commands) {
  commands.add("filter_classes", [this](ScriptLine& line) {
    const std::string list = line.word("a class list, e.g. 2,6 or 3-5");
    ClassSet classes;
    try {
      classes = parseClassList(list, "filter_classes");
    } catch (const InputError& error) {
      line.fail(error.what());
    }
    return stepOf([this, classes] { host_.settings().filter.classes = classes; });
  });
  commands.add("filter_returns", [this](ScriptLine& line) {
    const std::string choice = line.word("any, first, last, only or a return number");
    PointFilter parsed;
    if (choice != "any") {
      try {
        parseReturnChoice(choice, parsed);
      } catch (const InputError& error) {
        line.fail(error.what());
      }
    }
    return stepOf([this, parsed] {
      host_.settings().filter.returns = parsed.returns;
      host_.settings().filter.returnNumber = parsed.returnNumber;
    });
  });
  commands.add("filter_range", [this](ScriptLine& line) {
    const std::string attribute = line.word("an attribute name");
    const double low = line.number("the range's minimum");
    const double high = line.number("the range's maximum");
    return stepOf([this, attribute, low, high] {
      chooseRange(attribute);
      host_.settings().filter.ranges = {{attribute, low, high}};
    });
  });
  commands.add("filter_off", [this](ScriptLine&) {
    return stepOf([this] {
      host_.settings().filter = {};
      panel_.rangeAttribute.clear();
    });
  });
  commands.add("export_selection", [this](ScriptLine& line) {
    const std::string path = line.word("the output path (.las, .laz or .copc.laz)");
    auto started = std::make_shared<bool>(false);
    return ScriptStep([this, path, started] {
      if (!*started) {
        *started = true;
        if (!startExport(path)) return true;
      }
      return exportDone();
    });
  });
}

}  // namespace pcv::app
