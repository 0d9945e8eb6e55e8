#include "file_header.hpp"

#include <cstring>

#include "paged_file.hpp"
#include "pcv/io/malformed_file_error.hpp"
#include "common/byte_order.hpp"

namespace pcv::io::e57 {
namespace {

// Field offsets in the header (bytes), ASTM E2807 table 4.
constexpr uint64_t kMajorVersion = 8, kMinorVersion = 12, kPhysicalLength = 16,
                   kXmlPhysicalOffset = 24, kXmlLogicalLength = 32, kPageSizeField = 40;
constexpr uint64_t kHeaderSize = 48;

[[noreturn]] void failAt(const std::string& fileName, uint64_t byte, const std::string& what) {
  throw MalformedFileError(fileName, {.byteOffset = byte, .line = {}}, what);
}

/// Version, page size, physical length and the XML section's place against the file.
void checkFields(const FileHeader& result, uint64_t fileSize, const std::string& fileName) {
  auto fail = [&](uint64_t byte, const std::string& what) { failAt(fileName, byte, what); };
  if (result.majorVersion != 1) {
    fail(kMajorVersion, "E57 version " + std::to_string(result.majorVersion) + "." +
                            std::to_string(result.minorVersion) +
                            " is not supported (expected major version 1)");
  }
  if (result.pageSize != PagedFile::kPageSize) {
    fail(kPageSizeField, "page size " + std::to_string(result.pageSize) +
                             ", expected 1024 (the only page size of E57 1.0)");
  }
  if (result.physicalLength < PagedFile::kPageSize ||
      result.physicalLength % PagedFile::kPageSize != 0) {
    fail(kPhysicalLength, "physical length " + std::to_string(result.physicalLength) +
                              ", expected a whole number of 1024-byte pages");
  }
  if (result.physicalLength > fileSize) {
    fail(kPhysicalLength, "the header says the file is " + std::to_string(result.physicalLength) +
                              " bytes, but it is " + std::to_string(fileSize) + " (truncated)");
  }
  const uint64_t logicalSize =
      result.physicalLength / PagedFile::kPageSize * PagedFile::kPayloadSize;
  if (result.xmlPhysicalOffset < kHeaderSize || result.xmlPhysicalOffset >= result.physicalLength ||
      !PagedFile::isPayloadOffset(result.xmlPhysicalOffset)) {
    fail(kXmlPhysicalOffset, "XML section offset " + std::to_string(result.xmlPhysicalOffset) +
                                 ", expected a page payload byte after the 48-byte header and "
                                 "inside the " +
                                 std::to_string(result.physicalLength) + "-byte file");
  }
  const uint64_t xmlStart = PagedFile::logicalFromPhysical(result.xmlPhysicalOffset);
  if (result.xmlLogicalLength == 0 || result.xmlLogicalLength > logicalSize - xmlStart) {
    fail(kXmlLogicalLength, "XML section length " + std::to_string(result.xmlLogicalLength) +
                                " from offset " + std::to_string(result.xmlPhysicalOffset) +
                                ", expected 1 to " + std::to_string(logicalSize - xmlStart) +
                                " bytes (what the file holds after that offset)");
  }
}

}  // namespace

FileHeader readFileHeader(std::span<const uint8_t> bytes, const std::string& fileName) {
  auto fail = [&](uint64_t byte, const std::string& what) { failAt(fileName, byte, what); };
  const uint64_t fileSize = bytes.size();
  if (fileSize < 8 || std::memcmp(bytes.data(), kE57Signature, 8) != 0) {
    fail(0, "expected the E57 signature 'ASTM-E57'");
  }
  if (fileSize < PagedFile::kPageSize) {
    fail(fileSize,
         "the file ends inside its first 1024-byte page (an E57 file is whole pages; "
         "truncated?)");
  }
  const uint8_t* header = bytes.data();
  FileHeader result{
      .majorVersion = loadLe<uint32_t>(header + kMajorVersion),
      .minorVersion = loadLe<uint32_t>(header + kMinorVersion),
      .physicalLength = loadLe<uint64_t>(header + kPhysicalLength),
      .xmlPhysicalOffset = loadLe<uint64_t>(header + kXmlPhysicalOffset),
      .xmlLogicalLength = loadLe<uint64_t>(header + kXmlLogicalLength),
      .pageSize = loadLe<uint64_t>(header + kPageSizeField),
  };
  // Page 0 first: a corrupt header is better reported as corruption than as odd field values.
  PagedFile(bytes.first(PagedFile::kPageSize), fileName).verifyPage(0);

  checkFields(result, fileSize, fileName);
  return result;
}

}  // namespace pcv::io::e57
