#include "viewer/tools/filter/filter_tool.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pcv/core/error.hpp"
#include "viewer/input/input_script.hpp"
#include "viewer/tools/filter/filter_section.hpp"

namespace pcv::app {

void FilterTool::onFrame(double) {
  if (host_.scene().editsVersion() != editsCounted_) onSceneShown();
}

void FilterTool::addToReport(nlohmann::json& report) const {
  nlohmann::json counts = nlohmann::json::object();
  for (uint32_t c = 0; c < 256; ++c) {
    if (panel_.classCounts[c] > 0) counts[std::to_string(c)] = panel_.classCounts[c];
  }
  report["classCounts"] = std::move(counts);
}

void FilterTool::onSceneShown() {
  editsCounted_ = host_.scene().editsVersion();
  const SceneParts& parts = host_.scene().parts();
  const PointCloud& cloud = parts.inCore.cloud();
  panel_.classCounts.fill(0);
  panel_.countsKnown = parts.stream == nullptr;
  // Withheld (deleted) points are not drawn, nor counted.
  const ScalarAttribute* withheld = cloud.findAttribute("withheld");
  if (const ScalarAttribute* classes = cloud.findAttribute("classification")) {
    for (uint64_t i = 0; i < classes->size(); ++i) {
      if (withheld && withheld->value(i) > 0.0) continue;
      const double value = classes->value(i);
      if (value >= 0.0 && value <= 255.0) ++panel_.classCounts[uint32_t(value)];
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
  const ScalarAttribute* values = host_.scene().parts().inCore.cloud().findAttribute(attribute);
  double low = INFINITY, high = -INFINITY;
  if (values) {
    for (uint64_t i = 0; i < values->size(); ++i) {
      const double v = values->value(i);
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
  FilterSectionActions actions = drawFilterSection(host_.settings().filter, panel_,
                                                   exporter_.progress(), exporter_.lastOutcome());
  if (actions.rangeAttribute) chooseRange(*actions.rangeAttribute);
  if (actions.exportTo) exporter_.start(*actions.exportTo);
  if (actions.cancelExport) exporter_.cancel();
  exporter_.done();
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
        if (!exporter_.start(path)) return true;
      }
      return exporter_.done();
    });
  });
}

}  // namespace pcv::app
