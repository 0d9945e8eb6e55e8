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
#include "pcv/io/png_writer.hpp"
#include "pcv/session/cloud_writer.hpp"
#include "pcv/session/profile_extract.hpp"

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
};

void runProfile(const ProfileOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  // Everything the command line says is checked before any file is read.
  const ProfileFileKind kind = profileFileKindFor(options.out);
  const ProfileCorridor corridor(ProfileCorridor::parseLine(options.line), options.width);
  const ImageSize size = parseImageSize(options.size);
  RenderSettings settings;
  applyQualityOptions(options.quality, settings);

  ProfilePoints profile = extractProfile(options.inputs, corridor, readOptionsFrom(options.read));
  completeFromDatabase(profile.crs);
  switch (kind) {
    case ProfileFileKind::Csv:
      writeProfileCsv(profile, options.out);
      break;
    case ProfileFileKind::Las:
    case ProfileFileKind::Laz:
      writePointCloud(profile.cloud, options.out);
      break;
    case ProfileFileKind::Png: {
      std::unique_ptr<Renderer> renderer = createRendererFrom(options.renderer);
      writePng(options.out,
               renderProfileImage(profile, *renderer, size.width, size.height, settings));
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
      ->add_option("--out", options->out,
                   "P.csv (x, y, z, distance, attributes; the lengths' names carry the unit the "
                   "file declares, e.g. \"x (m)\"), P.las, P.laz or P.png (distance "
                   "against height)")
      ->required();
  profile->add_option("--size", options->size, "PNG size WIDTHxHEIGHT")->capture_default_str();
  addRendererFlags(*profile, options->renderer, false);
  addQualityOptions(*profile, options->quality);
  addReadFlags(*profile, options->read);
  addReportOption(*profile);
  profile->callback([options] { runProfile(*options); });
}

}  // namespace pcv::app
