#include "pcv/session/cloud_writer.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <system_error>

#include <unistd.h>

#include "pcv/core/error.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv {
namespace {

bool endsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Removes the temporary file unless it was renamed into place.
class PartialFile {
 public:
  explicit PartialFile(std::filesystem::path path) : path_(std::move(path)) {}
  ~PartialFile() {
    std::error_code ignored;
    if (!kept_) std::filesystem::remove(path_, ignored);
  }
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;
  const std::filesystem::path& path() const { return path_; }
  void renameTo(const std::filesystem::path& target) {
    std::error_code error;
    std::filesystem::rename(path_, target, error);
    if (error)
      throw Error("cannot rename " + path_.string() + " to " + target.string() + ": " +
                  error.message());
    kept_ = true;
  }

 private:
  std::filesystem::path path_;
  bool kept_ = false;
};

uint64_t writeLas(const PointCloud& cloud, int pointFormat, LasCompression compression,
                  const std::filesystem::path& path) {
  std::unique_ptr<PointRecordStream> stream = cloudRecords(PointCloud(cloud), pointFormat);
  PartialFile partial(path.string() + ".partial-" + std::to_string(::getpid()));
  {
    LasFileWriter writer(partial.path(), stream->format(), compression);
    constexpr uint64_t kBatchPoints = 1 << 20;
    const uint8_t* records = nullptr;
    while (const uint64_t count = stream->next(kBatchPoints, records)) {
      writer.write(records, count);
    }
    writer.finish();
  }
  partial.renameTo(path);
  return stream->pointCount();
}

}  // namespace

CloudFileKind cloudFileKindFor(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (endsWith(name, ".copc.laz")) return CloudFileKind::Copc;
  if (endsWith(name, ".laz")) return CloudFileKind::Laz;
  if (endsWith(name, ".las")) return CloudFileKind::Las;
  throw InputError(path.string() +
                   ": cannot tell what to write; name it *.las, *.laz or "
                   "*.copc.laz");
}

CloudWriteSummary writePointCloud(std::shared_ptr<const PointCloud> cloud,
                                  const std::filesystem::path& path) {
  CloudWriteSummary summary{.kind = cloudFileKindFor(path),
                            .points = cloud->size(),
                            .pointFormat = lasPointFormatFor(*cloud)};
  if (summary.kind != CloudFileKind::Copc) {
    const LasCompression compression =
        summary.kind == CloudFileKind::Laz ? LasCompression::Laz : LasCompression::None;
    summary.points = writeLas(*cloud, summary.pointFormat, compression, path);
    return summary;
  }
  // The writer may open the records twice (a second pass when the first finds points outside
  // the declared bounds): each pass gets its own stream over the same cloud.
  const int recordFormat = summary.pointFormat;
  const PointRecordSource source = [cloud, recordFormat] {
    return cloudRecords(PointCloud(*cloud), recordFormat);
  };
  const CopcWriteSummary written = writeCopcFile(source, path);
  summary.points = written.pointCount;
  summary.pointFormat = written.pointFormat;
  return summary;
}

}  // namespace pcv
