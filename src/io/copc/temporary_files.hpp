/// @brief The temporary files of a conversion too large for memory: a fresh folder that is
/// removed with everything in it however the conversion ends, and files of raw point records
/// written in large appends and read back whole or as a stream.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "pcv/io/point_records.hpp"

namespace pcv::io {

/// A new folder ".pcv-convert-XXXXXX" in `parent`, removed with its contents on destruction.
class TemporaryDirectory {
 public:
  /// Throws Error naming `parent` when the folder cannot be made.
  explicit TemporaryDirectory(const std::filesystem::path& parent);
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// A file of records being written; closed by close() or the destructor.
class RecordFileWriter {
 public:
  /// Creates (or truncates) `path`; throws Error.
  explicit RecordFileWriter(const std::filesystem::path& path);
  ~RecordFileWriter();
  RecordFileWriter(RecordFileWriter&& other) noexcept;
  RecordFileWriter& operator=(RecordFileWriter&&) = delete;
  RecordFileWriter(const RecordFileWriter&) = delete;

  /// Appends `bytes` bytes; throws Error (disk full ...).
  void append(const uint8_t* data, uint64_t bytes);
  /// Throws Error when the data could not be written.
  void close();

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

/// Reads the first `bytes` bytes of `path` into `into`; throws Error when it holds fewer.
void readRecordFile(const std::filesystem::path& path, uint8_t* into, uint64_t bytes);

/// The `count` records of `format` in `path`, a block at a time.
std::unique_ptr<PointRecordStream> recordFileStream(const std::filesystem::path& path,
                                                    const LasWriteFormat& format, uint64_t count);

}  // namespace pcv::io
