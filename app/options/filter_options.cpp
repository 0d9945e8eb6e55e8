#include "options/filter_options.hpp"

#include "pcv/core/error.hpp"

namespace pcv::app {

void addFilterFlags(CLI::App& command, FilterFlags& flags) {
  const std::string group = "Filters";
  command
      .add_option("--classes", flags.classes,
                  "Draw only these ASPRS classes, e.g. 2,6 or 3-5 (ground 2, building 6)")
      ->group(group);
  command
      .add_option("--exclude-classes", flags.excludeClasses,
                  "Leave out these classes, e.g. 7,18 (noise)")
      ->group(group);
  command
      .add_option("--returns", flags.returns,
                  "Draw only first, last or only (single) returns, or return number N (1-15)")
      ->group(group);
  command
      .add_option("--range", flags.ranges,
                  "Draw only points whose attribute lies in MIN:MAX, e.g. intensity=100:2000 or "
                  "gps_time=:1.5e8 (repeatable; either bound may be empty)")
      ->group(group);
}

PointFilter pointFilterFrom(const FilterFlags& flags) {
  PointFilter filter;
  if (!flags.classes.empty()) filter.classes = parseClassList(flags.classes, "--classes");
  if (!flags.excludeClasses.empty()) {
    const ClassSet excluded = parseClassList(flags.excludeClasses, "--exclude-classes");
    for (uint32_t c = 0; c < 256; ++c) {
      if (excluded.contains(c)) filter.classes.set(c, false);
    }
  }
  if (!flags.returns.empty()) parseReturnChoice(flags.returns, filter);
  for (const std::string& range : flags.ranges) {
    filter.ranges.push_back(parseAttributeRange(range));
  }
  return filter;
}

void requestFilterData(const PointFilter& filter, StreamLimits& stream) {
  if (!filter.active()) return;
  if (filter.ranges.size() > 1) {
    throw InputError("--range: the renderer filters by one attribute range at a time; " +
                     std::to_string(filter.ranges.size()) +
                     " were given (pcv convert takes several)");
  }
  stream.filterData = true;
  stream.rangeAttribute = filter.ranges.empty() ? std::string() : filter.ranges[0].attribute;
}

void checkSceneFilterable(const PointFilter& filter, const Scene& scene) {
  if (!filter.active()) return;
  if (scene.kind() == SceneKind::Cylinders) {
    throw InputError("the cylinder scene has no classes, returns or attributes to filter by");
  }
  if (scene.kind() == SceneKind::InCore) CloudFilter check(filter, scene.cloud());
}

}  // namespace pcv::app
