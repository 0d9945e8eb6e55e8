/// @brief The 48-byte E57 file header at the start of page 0 (ASTM E2807 section 7): signature,
/// version, physical length, where the XML section lies, and the page size.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace pcv::io::e57 {

struct FileHeader {
  uint32_t majorVersion = 1;
  uint32_t minorVersion = 0;
  uint64_t physicalLength = 0;     ///< bytes of the file, a whole number of pages
  uint64_t xmlPhysicalOffset = 0;  ///< where the XML section starts (physical)
  uint64_t xmlLogicalLength = 0;   ///< bytes of XML, not counting the page CRCs it spans
  uint64_t pageSize = 1024;        ///< bytes
};

/// The E57 signature, for format detection.
constexpr char kE57Signature[] = "ASTM-E57";

/// Reads and checks the header of the file `bytes` (the whole mapping): the signature, major
/// version 1, page size 1024, page 0's CRC, a physical length that the file holds, and an XML
/// section inside it. Throws InputError naming `fileName`, the field and what was expected.
FileHeader readFileHeader(std::span<const uint8_t> bytes, const std::string& fileName);

}  // namespace pcv::io::e57
