#include "convert_command.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/scene/cylinder_producer.hpp"
#include "pcv/scene/cylinders.hpp"

namespace pcv::app {
namespace {

struct ConvertOptions {
  std::vector<std::string> files;  ///< inputs, then the output
  int pointFormat = -1;            ///< -1: the input's (3 for the cylinders)
  uint64_t points = 0;             ///< > 0: write the cylinder scene instead of inputs
  uint64_t seed = 1;
  uint32_t chunkSize = 50000;
};

/// The cylinder scene's points lie within each cylinder's centre plus radius and half-height.
std::unique_ptr<PointRecordStream> cylinderStream(uint64_t count, uint64_t seed, int format) {
  CylinderScene scene = makeCylinderScene(seed);
  Box3d bounds;
  for (const Cylinder& c : scene.cylinders) {
    const double reach = double(c.radius) + double(c.halfHeight);
    const glm::dvec3 center(c.center[0], c.center[1], c.center[2]);
    bounds.extend(center - glm::dvec3(reach));
    bounds.extend(center + glm::dvec3(reach));
  }
  return producedRecords(std::make_shared<CylinderProducer>(std::move(scene), count), bounds,
                         glm::dvec3(0.0), format < 0 ? 3 : format);
}

std::unique_ptr<PointRecordStream> inputStream(const std::string& path, int format) {
  if (detectPointFileFormat(path) == PointFileFormat::Las) return openLasRecords(path);
  PointCloud cloud = readPointCloud(path);
  const int defaultFormat = cloud.hasColor ? 2 : 0;
  return cloudRecords(std::move(cloud), format < 0 ? defaultFormat : format);
}

/// The stream in `format` (when one was asked for), extra bytes kept.
std::unique_ptr<PointRecordStream> withPointFormat(std::unique_ptr<PointRecordStream> stream,
                                                   int format) {
  if (format < 0 || format == stream->format().pointFormat) return stream;
  LasWriteFormat target = stream->format();
  const uint32_t extra = target.recordLength - lasFormatRecordBytes(target.pointFormat);
  target.pointFormat = format;
  target.recordLength = uint16_t(lasFormatRecordBytes(format) + extra);
  target.versionMinor = std::max(target.versionMinor, minimumLasMinorVersion(format));
  if (format >= 6) target.globalEncoding |= 1u << 4;
  return reformatRecords(std::move(stream), target);
}

LasCompression compressionFor(const std::string& output) {
  const std::string extension = std::filesystem::path(output).extension().string();
  if (extension == ".laz" || extension == ".LAZ") return LasCompression::Laz;
  if (extension == ".las" || extension == ".LAS") return LasCompression::None;
  throw InputError(output + ": the output must end in .las or .laz");
}

void runConvert(const ConvertOptions& options) {
  std::vector<std::string> inputs = options.files;
  const std::string output = inputs.back();
  inputs.pop_back();
  const LasCompression compression = compressionFor(output);
  std::unique_ptr<PointRecordStream> stream;
  if (options.points > 0) {
    if (!inputs.empty()) throw InputError("--points writes the cylinder scene: give no inputs");
    stream = cylinderStream(options.points, options.seed, options.pointFormat);
  } else {
    if (inputs.empty()) throw InputError("convert needs at least one input before " + output);
    std::vector<std::unique_ptr<PointRecordStream>> streams;
    for (const std::string& input : inputs) {
      streams.push_back(inputStream(input, options.pointFormat));
    }
    stream = withPointFormat(concatenateRecords(std::move(streams)), options.pointFormat);
  }
  LasFileWriter writer(output, stream->format(), compression, options.chunkSize);
  constexpr uint64_t kBatchPoints = 1 << 20;
  const uint8_t* records = nullptr;
  while (const uint64_t count = stream->next(kBatchPoints, records)) writer.write(records, count);
  writer.finish();
  std::printf("%s: %llu points, %s, point format %d\n", output.c_str(),
              static_cast<unsigned long long>(writer.pointsWritten()),
              compression == LasCompression::Laz ? "LAZ" : "LAS", stream->format().pointFormat);
}

}  // namespace

void addConvertCommand(CLI::App& cli) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* convert = cli.add_subcommand(
      "convert", "Write LAS or LAZ from any point files (merged), or the cylinder scene");
  convert->add_option("files", options->files, "Inputs, then the output (.las or .laz)")
      ->required();
  convert->add_option("--point-format", options->pointFormat, "LAS point format of the output")
      ->check(CLI::Range(0, 10));
  convert->add_option("--points", options->points, "Write the cylinder scene with N points");
  convert->add_option("--seed", options->seed, "Seed of the cylinder scene");
  convert->add_option("--chunk-size", options->chunkSize, "LAZ points per chunk")
      ->check(CLI::Range(1u, 100000000u));
  convert->callback([options] { runConvert(*options); });
}

}  // namespace pcv::app
