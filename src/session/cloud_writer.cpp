#include "pcv/session/cloud_writer.hpp"

#include "pcv/io/point_records.hpp"

namespace pcv {

CloudWriteSummary writePointCloud(std::shared_ptr<const PointCloud> cloud,
                                  const std::filesystem::path& path, const OutputRules& rules) {
  // The source's point format where the cloud carries one (pcv.write(pcv.read(f)) keeps it).
  const int recordFormat = lasPointFormatFor(*cloud);
  // The COPC writer may open the records twice (a second pass when the first finds points
  // outside the declared bounds): each pass gets its own stream over the same cloud.
  const PointRecordSource source = [cloud, recordFormat] {
    return cloudRecords(PointCloud(*cloud), recordFormat);
  };
  const RecordSinkSummary written = writePointRecords(source, path, {.output = rules});
  return {.kind = written.kind, .points = written.points, .pointFormat = written.pointFormat};
}

}  // namespace pcv
