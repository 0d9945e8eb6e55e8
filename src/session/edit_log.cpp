// The edit log in JSON (nlohmann). Its parser reads outside data: every member is looked up
// with its type checked, and each fault names where it is ("edit 2, select.box") and what was
// expected there. Filters are written in the command line's words (parsed by the same
// functions); boxes, slabs and polygons as arrays of numbers, exact to the last bit.
#include "pcv/session/edit_log.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "pcv/core/error.hpp"
#include "pcv/core/partial_file.hpp"

namespace pcv {
namespace {

using nlohmann::json;

constexpr int kLogVersion = 1;

/// "2,6,9-12" for the classes `set` holds; "" for none.
std::string classListText(const ClassSet& set) {
  std::string list;
  for (uint32_t c = 0; c < 256; ++c) {
    if (!set.contains(c)) continue;
    uint32_t end = c;
    while (end + 1 < 256 && set.contains(end + 1)) ++end;
    if (!list.empty()) list.push_back(',');
    list.append(std::to_string(c));
    if (end > c) {
      list.push_back('-');
      list.append(std::to_string(end));
    }
    c = end;
  }
  return list;
}

json boundJson(double value) {
  return std::isfinite(value) ? json(value) : json(nullptr);
}

/// A view kept with a selection drawn in it: its anchor, its view-projection matrix (16 numbers,
/// column by column) and the least clip w in front of it (null: none, an orthographic view).
json viewJson(const SelectionView& view) {
  json matrix = json::array();
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) matrix.push_back(view.viewProjection[c][r]);
  }
  return {{"anchor", {view.anchor.x, view.anchor.y, view.anchor.z}},
          {"view_projection", matrix},
          {"minimum_w", boundJson(view.minimumW)}};
}

json pairsJson(const std::vector<glm::dvec2>& points) {
  json numbers = json::array();
  for (const glm::dvec2& p : points) {
    numbers.push_back(p.x);
    numbers.push_back(p.y);
  }
  return numbers;
}

json selectionJson(const PointSelection& selection) {
  json select = json::object();
  const ClipSettings& clip = selection.clip;
  if (clip.box) {
    const ClipBox& b = *clip.box;
    select["box"] = {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z};
  }
  if (clip.slab) {
    const ClipSlab& s = *clip.slab;
    select["slab"] = {s.normal.x, s.normal.y, s.normal.z, s.centre.x,
                      s.centre.y, s.centre.z, s.thickness};
  }
  if (clip.hasRegion()) select["keep"] = clip.keep == ClipKeep::Outside ? "outside" : "inside";
  if (clip.polygon) {
    if (clip.polygon->planVertices().empty()) {
      select["view_polygon"] = {{"view", viewJson(clip.polygon->view())},
                                {"vertices", pairsJson(clip.polygon->ndcVertices())}};
    } else {
      select["polygon"] = pairsJson(clip.polygon->planVertices());
    }
    select["polygon_keep"] = clip.polygon->keepInside() ? "inside" : "outside";
  }
  if (selection.brush) {
    const BrushSelection& brush = *selection.brush;
    select["brush"] = {{"view", viewJson(brush.view())},
                       {"window", {brush.windowWidth(), brush.windowHeight()}},
                       {"radius", brush.radiusPx()},
                       {"dabs", pairsJson(brush.dabs())}};
  }
  if (selection.profileLine) {
    const ProfileLineSelection& line = *selection.profileLine;
    select["profile_line"] = {{"line", pairsJson(line.corridor().vertices())},
                              {"width", line.corridor().width()},
                              {"from", {line.from().x, line.from().y}},
                              {"to", {line.to().x, line.to().y}},
                              {"side", line.above() ? "above" : "below"}};
  }
  const PointFilter& filter = selection.filter;
  if (filter.filtersClasses()) select["classes"] = classListText(filter.classes);
  switch (filter.returns) {
    case ReturnChoice::Any:
      break;
    case ReturnChoice::First:
      select["returns"] = "first";
      break;
    case ReturnChoice::Last:
      select["returns"] = "last";
      break;
    case ReturnChoice::Only:
      select["returns"] = "only";
      break;
    case ReturnChoice::Number:
      select["returns"] = std::to_string(filter.returnNumber);
      break;
  }
  if (!filter.ranges.empty()) {
    json ranges = json::array();
    for (const AttributeRange& range : filter.ranges) {
      ranges.push_back({{"attribute", range.attribute},
                        {"min", boundJson(range.min)},
                        {"max", boundJson(range.max)}});
    }
    select["ranges"] = ranges;
  }
  return select;
}

/// Reads one log, naming the place of each fault.
class LogParser {
 public:
  explicit LogParser(const std::string& source) : source_(source) {}

  [[noreturn]] void fail(const std::string& where, const std::string& expected) const {
    throw InputError(source_ + ": " + where + ": expected " + expected);
  }

  const json& member(const json& object, const char* name, const std::string& where) const {
    const auto found = object.find(name);
    if (found == object.end()) fail(where, std::string("a member \"") + name + "\"");
    return *found;
  }

  std::vector<double> numbers(const json& value, const std::string& where, size_t minCount,
                              size_t maxCount, bool pairs) const {
    const std::string expected = "an array of " + std::to_string(minCount) +
                                 (maxCount > minCount ? " to " + std::to_string(maxCount) : "") +
                                 (pairs ? " (in x, y pairs)" : "") + " finite numbers";
    if (!value.is_array() || value.size() < minCount || value.size() > maxCount ||
        (pairs && value.size() % 2 != 0)) {
      fail(where, expected);
    }
    std::vector<double> out;
    for (const json& item : value) {
      if (!item.is_number() || !std::isfinite(item.get<double>())) fail(where, expected);
      out.push_back(item.get<double>());
    }
    return out;
  }

  std::vector<glm::dvec2> pairs(const json& value, const std::string& where, size_t minPairs,
                                size_t maxPairs) const {
    const std::vector<double> v = numbers(value, where, 2 * minPairs, 2 * maxPairs, true);
    std::vector<glm::dvec2> out;
    for (size_t i = 0; i < v.size(); i += 2) out.push_back({v[i], v[i + 1]});
    return out;
  }

  SelectionView view(const json& value, const std::string& where) const {
    if (!value.is_object()) fail(where, "an object with anchor, view_projection and minimum_w");
    SelectionView view;
    const std::vector<double> anchor =
        numbers(member(value, "anchor", where), where + ".anchor", 3, 3, false);
    view.anchor = {anchor[0], anchor[1], anchor[2]};
    const std::vector<double> matrix =
        numbers(member(value, "view_projection", where), where + ".view_projection", 16, 16, false);
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) view.viewProjection[c][r] = matrix[size_t(c * 4 + r)];
    }
    const json& minimumW = member(value, "minimum_w", where);
    if (!minimumW.is_null() && !(minimumW.is_number() && std::isfinite(minimumW.get<double>()))) {
      fail(where + ".minimum_w", "a finite number or null");
    }
    view.minimumW = minimumW.is_null() ? -INFINITY : minimumW.get<double>();
    return view;
  }

  bool inside(const json& value, const std::string& where) const {
    if (value == "inside") return true;
    if (value == "outside") return false;
    fail(where, "\"inside\" or \"outside\"");
  }

  std::string text(const json& value, const std::string& where) const {
    if (!value.is_string()) fail(where, "a string");
    return value.get<std::string>();
  }

  double bound(const json& value, const std::string& where, double unbounded) const {
    if (value.is_null()) return unbounded;
    if (!value.is_number() || std::isnan(value.get<double>())) fail(where, "a number or null");
    return value.get<double>();
  }

  /// The parsers of the command line's words, their errors given the place.
  template <typename Parse>
  auto words(const std::string& where, Parse parse) const {
    try {
      return parse();
    } catch (const InputError& e) {
      throw InputError(source_ + ": " + where + ": " + e.what());
    }
  }

  PointSelection selection(const json& select, const std::string& where) const {
    if (!select.is_object()) fail(where, "an object");
    static const char* const kKnown[] = {"box",          "slab",         "keep",  "polygon",
                                         "view_polygon", "polygon_keep", "brush", "profile_line",
                                         "classes",      "returns",      "ranges"};
    for (const auto& [name, value] : select.items()) {
      if (std::find(std::begin(kKnown), std::end(kKnown), name) == std::end(kKnown)) {
        fail(where + "." + name,
             "one of box, slab, keep, polygon, view_polygon, polygon_keep, brush, "
             "profile_line, classes, returns, ranges");
      }
    }
    if (select.contains("polygon") && select.contains("view_polygon")) {
      fail(where, "one of polygon and view_polygon, not both");
    }
    PointSelection selection;
    ClipSettings& clip = selection.clip;
    if (select.contains("box")) {
      const std::vector<double> v = numbers(select["box"], where + ".box", 6, 6, false);
      clip.box = ClipBox{.min = {v[0], v[1], v[2]}, .max = {v[3], v[4], v[5]}};
      for (int a = 0; a < 3; ++a) {
        if (clip.box->min[a] > clip.box->max[a]) fail(where + ".box", "x0,y0,z0 <= x1,y1,z1");
      }
    }
    if (select.contains("slab")) {
      const std::vector<double> v = numbers(select["slab"], where + ".slab", 7, 7, false);
      clip.slab =
          ClipSlab{.normal = {v[0], v[1], v[2]}, .centre = {v[3], v[4], v[5]}, .thickness = v[6]};
      if (!(glm::length(clip.slab->normal) > 0.0) ||
          !std::isfinite(glm::length(clip.slab->normal)) || !(clip.slab->thickness > 0.0)) {
        fail(where + ".slab", "a non-zero normal and a positive thickness");
      }
    }
    if (select.contains("keep")) {
      clip.keep = inside(select["keep"], where + ".keep") ? ClipKeep::Inside : ClipKeep::Outside;
    }
    if (select.contains("polygon")) {
      const std::vector<double> v = numbers(select["polygon"], where + ".polygon", 6,
                                            2 * PolygonSelection::kMaxVertices, true);
      std::vector<glm::dvec2> vertices;
      for (size_t i = 0; i < v.size(); i += 2) vertices.push_back({v[i], v[i + 1]});
      const bool keepInside = !select.contains("polygon_keep") ||
                              inside(select["polygon_keep"], where + ".polygon_keep");
      clip.polygon = words(where + ".polygon",
                           [&] { return PolygonSelection::plan(std::move(vertices), keepInside); });
    }
    if (select.contains("view_polygon")) {
      const std::string at = where + ".view_polygon";
      const json& drawn = select["view_polygon"];
      if (!drawn.is_object()) fail(at, "an object with view and vertices");
      const SelectionView view = this->view(member(drawn, "view", at), at + ".view");
      const std::vector<glm::dvec2> vertices =
          pairs(member(drawn, "vertices", at), at + ".vertices", 3, PolygonSelection::kMaxVertices);
      const bool keepInside = !select.contains("polygon_keep") ||
                              inside(select["polygon_keep"], where + ".polygon_keep");
      clip.polygon =
          words(at, [&] { return PolygonSelection::inView(view, vertices, keepInside); });
    }
    if (select.contains("brush")) {
      const std::string at = where + ".brush";
      const json& brush = select["brush"];
      if (!brush.is_object()) fail(at, "an object with view, window, radius and dabs");
      const SelectionView view = this->view(member(brush, "view", at), at + ".view");
      const std::vector<double> window =
          numbers(member(brush, "window", at), at + ".window", 2, 2, false);
      const json& radius = member(brush, "radius", at);
      if (!radius.is_number()) fail(at + ".radius", "a number of pixels");
      const std::vector<glm::dvec2> dabs =
          pairs(member(brush, "dabs", at), at + ".dabs", 1, BrushSelection::kMaxDabs);
      selection.brush = words(at, [&] {
        return BrushSelection(view, window[0], window[1], dabs, radius.get<double>());
      });
    }
    if (select.contains("profile_line")) {
      const std::string at = where + ".profile_line";
      const json& drawn = select["profile_line"];
      if (!drawn.is_object()) fail(at, "an object with line, width, from, to and side");
      std::vector<glm::dvec2> line = pairs(member(drawn, "line", at), at + ".line", 2, 4096);
      const json& width = member(drawn, "width", at);
      if (!width.is_number()) fail(at + ".width", "a width in world units");
      const std::vector<double> from =
          numbers(member(drawn, "from", at), at + ".from", 2, 2, false);
      const std::vector<double> to = numbers(member(drawn, "to", at), at + ".to", 2, 2, false);
      const json& side = member(drawn, "side", at);
      if (side != "above" && side != "below") fail(at + ".side", "\"above\" or \"below\"");
      selection.profileLine = words(at, [&] {
        return ProfileLineSelection(ProfileCorridor(std::move(line), width.get<double>()),
                                    {from[0], from[1]}, {to[0], to[1]}, side == "above");
      });
    }
    PointFilter& filter = selection.filter;
    if (select.contains("classes")) {
      const std::string list = text(select["classes"], where + ".classes");
      filter.classes =
          list.empty() ? ClassSet::none()
                       : words(where + ".classes", [&] { return parseClassList(list, "classes"); });
    }
    if (select.contains("returns")) {
      const std::string choice = text(select["returns"], where + ".returns");
      words(where + ".returns", [&] {
        parseReturnChoice(choice, filter);
        return 0;
      });
    }
    if (select.contains("ranges")) {
      const json& ranges = select["ranges"];
      if (!ranges.is_array()) fail(where + ".ranges", "an array");
      for (size_t i = 0; i < ranges.size(); ++i) {
        const std::string at = where + ".ranges[" + std::to_string(i) + "]";
        if (!ranges[i].is_object()) fail(at, "an object with attribute, min, max");
        AttributeRange range{
            .attribute = text(member(ranges[i], "attribute", at), at + ".attribute"),
            .min = bound(member(ranges[i], "min", at), at + ".min", -INFINITY),
            .max = bound(member(ranges[i], "max", at), at + ".max", INFINITY)};
        if (range.attribute.empty()) fail(at + ".attribute", "an attribute name");
        if (range.min > range.max) fail(at, "min <= max");
        filter.ranges.push_back(std::move(range));
      }
    }
    return selection;
  }

  /// A classify edit's filters: every member given, checked as the command line checks them.
  ClassifySettings classifySettings(const json& item, const std::string& where) const {
    ClassifySettings c;
    const auto flag = [&](const char* name) {
      const json& value = member(item, name, where);
      if (!value.is_boolean()) fail(where + "." + name, "true or false");
      return value.get<bool>();
    };
    const auto length = [&](const char* name) {
      const json& value = member(item, name, where);
      if (!value.is_number() || !std::isfinite(value.get<double>())) {
        fail(where + "." + name, "a finite number");
      }
      return value.get<double>();
    };
    c.ground = flag("ground");
    c.noise = flag("noise");
    c.groundFilter.cell = length("cell");
    c.groundFilter.slope = length("slope");
    c.groundFilter.window = length("window");
    c.groundFilter.threshold = length("threshold");
    c.groundFilter.scalar = length("scalar");
    c.noiseFilter.radius = length("noise_radius");
    const json& neighbours = member(item, "noise_neighbours", where);
    if (!neighbours.is_number_integer() || neighbours.get<int64_t>() < 1 ||
        neighbours.get<int64_t>() > 1'000'000) {
      fail(where + ".noise_neighbours", "a count 1-1000000");
    }
    c.noiseFilter.minNeighbours = uint32_t(neighbours.get<int64_t>());
    words(where, [&] {
      checkClassifySettings(c);
      return 0;
    });
    return c;
  }

  PointEdit edit(const json& item, const std::string& where) const {
    if (!item.is_object()) fail(where, "an object with select and action");
    PointEdit edit;
    if (item.contains("select")) edit.selection = selection(item["select"], where + ".select");
    const std::string action = text(member(item, "action", where), where + ".action");
    if (action == "set-class") {
      const json& cls = member(item, "class", where);
      if (!cls.is_number_integer() || cls.get<int64_t>() < 0 || cls.get<int64_t>() > 255) {
        fail(where + ".class", "a class 0-255");
      }
      edit.action = EditAction::SetClass;
      edit.classification = uint32_t(cls.get<int64_t>());
    } else if (action == "delete") {
      edit.action = EditAction::Delete;
    } else if (action == "restore") {
      edit.action = EditAction::Restore;
    } else if (action == "classify") {
      edit.action = EditAction::Classify;
      edit.classify = classifySettings(item, where);
    } else {
      fail(where + ".action", "\"set-class\", \"delete\", \"restore\" or \"classify\"");
    }
    return edit;
  }

  std::vector<PointEdit> log(std::string_view text) const {
    const json document = json::parse(text, nullptr, false);
    if (document.is_discarded()) fail("the document", "JSON");
    if (!document.is_object()) fail("the document", "a JSON object");
    const json& version = member(document, "pcv_edits", "the document");
    if (version != kLogVersion) fail("pcv_edits", "version " + std::to_string(kLogVersion));
    const json& items = member(document, "edits", "the document");
    if (!items.is_array()) fail("edits", "an array");
    std::vector<PointEdit> edits;
    for (size_t i = 0; i < items.size(); ++i) {
      edits.push_back(edit(items[i], "edit " + std::to_string(i + 1)));
    }
    return edits;
  }

 private:
  std::string source_;
};

}  // namespace

const char* editActionName(EditAction action) {
  switch (action) {
    case EditAction::SetClass:
      return "set-class";
    case EditAction::Delete:
      return "delete";
    case EditAction::Restore:
      return "restore";
    case EditAction::Classify:
      return "classify";
  }
  return "";
}

std::string editLogText(std::span<const PointEdit> edits) {
  json items = json::array();
  for (const PointEdit& edit : edits) {
    json item = {{"select", selectionJson(edit.selection)},
                 {"action", editActionName(edit.action)}};
    if (edit.action == EditAction::SetClass) item["class"] = edit.classification;
    if (edit.action == EditAction::Classify) {
      const ClassifySettings& c = edit.classify;
      item["ground"] = c.ground;
      item["noise"] = c.noise;
      item["cell"] = c.groundFilter.cell;
      item["slope"] = c.groundFilter.slope;
      item["window"] = c.groundFilter.window;
      item["threshold"] = c.groundFilter.threshold;
      item["scalar"] = c.groundFilter.scalar;
      item["noise_radius"] = c.noiseFilter.radius;
      item["noise_neighbours"] = c.noiseFilter.minNeighbours;
    }
    items.push_back(std::move(item));
  }
  const json document = {{"pcv_edits", kLogVersion}, {"edits", std::move(items)}};
  return document.dump(2) + "\n";
}

std::vector<PointEdit> parseEditLog(std::string_view text, const std::string& source) {
  return LogParser(source).log(text);
}

std::vector<PointEdit> readEditLog(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read the edit log " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return parseEditLog(text.str(), path.string());
}

void writeEditLog(const std::filesystem::path& path, std::span<const PointEdit> edits) {
  const std::string text = editLogText(edits);
  PartialFile partial(path, {.existing = ExistingOutput::Replace});
  std::ofstream out(partial.path(), std::ios::binary);
  out << text;
  out.close();
  if (!out) throw Error("cannot write the edit log " + path.string());
  partial.commit();
}

}  // namespace pcv
