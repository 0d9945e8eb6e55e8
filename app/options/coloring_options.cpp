#include "options/coloring_options.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "options/named_option.hpp"
#include "pcv/core/error.hpp"
#include "options/run_report.hpp"

namespace pcv::app {

void addColoringFlags(CLI::App& command, ColoringFlags& flags) {
  command
      .add_option("--color,--colour", flags.mode,
                  "Colouring of loaded files: rgb (the file's), elevation, intensity, "
                  "classification, attribute (see --color-attribute)")
      ->check(knownNameOf(colorModeTable()))
      ->capture_default_str();
  command.add_option(
      "--color-attribute,--colour-attribute", flags.attribute,
      "Colour by this scalar attribute (intensity, return_number, a PLY property ... or "
      "x, y, z); implies --color attribute");
  command
      .add_option("--color-map,--colour-map", flags.map,
                  "Colour map of scalar modes: viridis, turbo or grey "
                  "(default: turbo for elevation, grey for intensity, "
                  "viridis otherwise)")
      ->check(knownNameOf(colorMapTable()));
  command.add_option("--color-range,--colour-range", flags.range,
                     "Values at the ends of the map, MIN,MAX (default: 2nd to 98th percentile)");
}

ColoringOptions coloringOptionsFrom(const ColoringFlags& flags) {
  ColoringOptions options;
  options.mode = flags.attribute.empty() ? parseColorMode(flags.mode) : ColorMode::Attribute;
  options.attribute = flags.attribute;
  if (options.mode == ColorMode::Attribute && options.attribute.empty()) {
    throw InputError("--color attribute needs --color-attribute NAME");
  }
  if (!flags.map.empty()) options.map = parseColorMap(flags.map);
  if (!flags.range.empty()) options.range = parseValueRange(flags.range);
  return options;
}

void reportColoring(const Coloring& used) {
  runReport()["coloring"] = {{"mode", colorModeName(used.mode)},
                             {"attribute", used.attribute},
                             {"map", colorMapName(used.map)},
                             {"range", {used.range.low, used.range.high}}};
  if (!used.note.empty()) {
    std::fprintf(stderr, "pcv: %s, coloured by %s\n", used.note.c_str(),
                 colorModeName(used.mode).c_str());
  }
  if (!used.attribute.empty()) {
    std::fprintf(stderr, "pcv: %s mapped with %s from %.6g to %.6g\n", used.attribute.c_str(),
                 colorMapName(used.map).c_str(), used.range.low, used.range.high);
  }
}

}  // namespace pcv::app
