#include "pcv/session/copc_conversion.hpp"

#include <algorithm>

#include "pcv/core/error.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/session/record_sink.hpp"

namespace pcv {
namespace {

std::unique_ptr<PointRecordStream> inputStream(const std::string& path, int format,
                                               const RegionTest& region) {
  if (detectPointFileFormat(path) == PointFileFormat::Las) {
    return region ? openLasRecords(path, region) : openLasRecords(path);
  }
  PointCloud cloud = readPointCloud(path);
  const int defaultFormat = cloud.hasColor ? 2 : 0;
  return cloudRecords(std::move(cloud), format < 0 ? defaultFormat : format);
}

}  // namespace

std::unique_ptr<PointRecordStream> recordsInPointFormat(std::unique_ptr<PointRecordStream> stream,
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

PointRecordSource pointFileRecords(const std::vector<std::string>& inputs, int pointFormat,
                                   const RegionTest& region) {
  return [inputs, pointFormat, region] {
    std::vector<std::unique_ptr<PointRecordStream>> streams;
    for (const std::string& input : inputs) {
      streams.push_back(inputStream(input, pointFormat, region));
    }
    return recordsInPointFormat(concatenateRecords(std::move(streams)), pointFormat);
  };
}

CopcWriteSummary convertFilesToCopc(const std::vector<std::string>& inputs,
                                    const std::string& output, const CopcWriteOptions& options,
                                    CopcWriteProgress* progress) {
  if (inputs.empty()) throw InputError("no input to convert to " + output);
  RecordSinkOptions sink{.output = options.output, .copc = true, .copcOptions = options};
  sink.output.inputs.insert(sink.output.inputs.end(), inputs.begin(), inputs.end());
  return *writePointRecords(pointFileRecords(inputs), output, sink, progress).copc;
}

}  // namespace pcv
