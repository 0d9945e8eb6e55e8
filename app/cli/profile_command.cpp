#include "profile_command.hpp"

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "options/cli_options.hpp"
#include "options/option_groups.hpp"
#include "options/quality_options.hpp"
#include "options/run_report.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/number_text.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/session/cloud_writer.hpp"
#include "pcv/session/profile_extract.hpp"
#include "pcv/session/profile_figure.hpp"

namespace pcv::app {
namespace {

struct ProfileOptions {
  std::vector<std::string> inputs;
  std::string line;               ///< --line x0,y0,x1,y1[,...]
  double width = 0.0;             ///< --width, world units
  std::string out;                ///< --out
  std::string size = "1600x600";  ///< --size, PNG only
  RendererFlags renderer;         ///< --backend, PNG only
  QualityOptions quality;         ///< point size, EDL, background: PNG only
  ReadFlags read;
  bool overwrite = false;       ///< --overwrite: replace an existing LAS/LAZ output
  bool pointSizeGiven = false;  ///< --point-size given: used as it is, not from the density
};

void runProfile(const ProfileOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  // Everything the command line says is checked before any file is read.
  const ProfileFileKind kind = profileFileKindFor(options.out);
  checkInPlaceOutput(options.out);
  const ProfileCorridor corridor(ProfileCorridor::parseLine(options.line), options.width);
  const ImageSize size = parseImageSize(options.size);
  RenderSettings settings;
  applyQualityOptions(options.quality, settings);
  // A point file is data: replaced only when asked, never one of the inputs.
  OutputRules pointFileRules{.existing = options.overwrite ? ExistingOutput::Replace
                                                           : ExistingOutput::Refuse};
  pointFileRules.inputs.assign(options.inputs.begin(), options.inputs.end());
  const bool pointFile = kind == ProfileFileKind::Las || kind == ProfileFileKind::Laz;
  if (pointFile) checkOutput(options.out, pointFileRules);

  ProfilePoints profile = extractProfile(options.inputs, corridor, readOptionsFrom(options.read));
  completeFromDatabase(profile.crs);
  // An empty profile is still an answer (a line across a gap between tiles has none), so the
  // file is written and the status stays 0 for scripts cutting many lines; but a line that
  // misses the data is most often a typo in its coordinates, so it is said, and reported.
  runReport()["warnings"] = profile.warnings;
  for (const std::string& warning : profile.warnings) {
    std::fprintf(stderr, "pcv: warning: %s\n", warning.c_str());
  }
  if (profile.size() == 0) {
    const std::string warning =
        "no point lies within " + exactText(corridor.width() / 2.0) + " of the line " +
        options.line + " (" + std::to_string(profile.pointsTested) +
        " points tested): it misses the data or the corridor is too narrow; " + options.out +
        " holds no point";
    std::fprintf(stderr, "pcv: warning: %s\n", warning.c_str());
    runReport()["warnings"].push_back(warning);
  }
  switch (kind) {
    case ProfileFileKind::Csv:
      writeProfileCsv(profile, options.out);
      break;
    case ProfileFileKind::Las:
    case ProfileFileKind::Laz:
      writePointCloud(profile.cloud, options.out, pointFileRules);
      break;
    case ProfileFileKind::Png: {
      std::unique_ptr<Renderer> renderer = createRendererFrom(options.renderer);
      ProfileFigureOptions figure;
      figure.unit = profile.crs.lengthUnit();
      figure.verticalUnit = profile.crs.verticalUnit;
      figure.title = profileTitle(corridor, figure.unit);
      figure.choosePointSize = !options.pointSizeGiven;
      const ProfileFigure drawn =
          renderProfileFigure(profile, *renderer, size.width, size.height, settings, figure);
      writePng(options.out, drawn.image);
      runReport()["pointSizePx"] = drawn.pointSizePx;
      break;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  runReport()["points"] = profile.size();
  runReport()["pointsTested"] = profile.pointsTested;
  runReport()["filesRead"] = profile.filesRead;
  runReport()["filesSkipped"] = profile.filesSkipped;
  runReport()["nodesRead"] = profile.nodesRead;
  runReport()["nodesTotal"] = profile.nodesTotal;
  runReport()["length"] = corridor.length();
  runReport()["width"] = corridor.width();
  // The unit of x, y, distance, length and width; of z where no vertical unit is stated.
  const LengthUnit unit = profile.crs.lengthUnit();
  runReport()["unit"] = unit.known() ? nlohmann::json(unit.symbol()) : nlohmann::json(nullptr);
  runReport()["verticalUnit"] = profile.crs.verticalUnit.known()
                                    ? nlohmann::json(profile.crs.verticalUnit.symbol())
                                    : runReport()["unit"];
  runReport()["out"] = options.out;
  runReport()["seconds"] = seconds;
  std::fprintf(stderr, "pcv: %llu points in the corridor (%llu tested), line %s long; wrote %s\n",
               static_cast<unsigned long long>(profile.size()),
               static_cast<unsigned long long>(profile.pointsTested),
               formatLength(corridor.length(), unit).c_str(), options.out.c_str());
}

}  // namespace

void addProfileCommand(CLI::App& cli) {
  auto options = std::make_shared<ProfileOptions>();
  CLI::App* profile = cli.add_subcommand(
      "profile", "Cut a profile (cross-section): the points within a corridor along a polyline");
  profile->add_option("inputs", options->inputs, "Point cloud files, folders of tiles or .vpc")
      ->required();
  profile
      ->add_option("--line", options->line,
                   "The polyline x0,y0,x1,y1[,x2,y2...] in world coordinates")
      ->required();
  profile
      ->add_option("--width", options->width,
                   "Corridor width, world units: points within width/2 of a segment, between "
                   "its ends")
      ->required();
  profile
      ->add_option(
          "--out", options->out,
          "P.csv (x, y, z, distance, attributes; the lengths' names carry the unit the "
          "file declares, e.g. \"x (m)\"), P.las, P.laz or P.png (distance against height, "
          "with distance and elevation axes and a title; points sized from the corridor's "
          "density unless --point-size is given)")
      ->required();
  profile->add_option("--size", options->size, "PNG size WIDTHxHEIGHT, axes and title included")
      ->capture_default_str();
  addRendererFlags(*profile, options->renderer, false);
  addQualityOptions(*profile, options->quality);
  addReadFlags(*profile, options->read);
  profile->add_flag("--overwrite", options->overwrite,
                    "Replace a LAS or LAZ output that exists (an input is never replaced)");
  addReportOption(*profile);
  CLI::Option* pointSize = profile->get_option("--point-size");
  profile->callback([options, pointSize] {
    options->pointSizeGiven = pointSize->count() > 0;
    runProfile(*options);
  });
}

}  // namespace pcv::app
