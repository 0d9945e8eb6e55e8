/// @brief Helpers for the LAZ tests: the corpus manifest's oracle hashes, every record of a LAZ
/// file decoded into one buffer, the raw record block of a LAS file, the FNV-1a hash the
/// manifest uses, a file's bytes, and every record of a LAS, LAZ or COPC file as pcv reads it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "las/las_header.hpp"
#include "laz/laz_records.hpp"
#include "common/mapped_file.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/point_records.hpp"
#include "test_support.hpp"

namespace pcv::test {

inline std::filesystem::path lazCorpusDir() {
  const std::filesystem::path data = testDataDir();
  return data.empty() ? data : data / "laz-corpus";
}

/// Skips the test when the shared LAZ corpus is absent.
#define PCV_REQUIRE_LAZ_CORPUS()                                               \
  do {                                                                         \
    if (::pcv::test::lazCorpusDir().empty() ||                                 \
        !std::filesystem::exists(::pcv::test::lazCorpusDir() / "MANIFEST.md")) \
      GTEST_SKIP() << "no LAZ corpus under the shared test data";              \
  } while (0)

/// FNV-1a 64, as the manifest's hash_record.
inline uint64_t fnv1a(const uint8_t* data, size_t size, uint64_t hash = 0xcbf29ce484222325ull) {
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

struct OracleEntry {
  std::string status;  ///< "ok" or the oracle's failure
  uint64_t recordHash = 0;
  uint64_t pointCount = 0;
};

/// The manifest's oracle table: file name -> status and record hash.
inline std::map<std::string, OracleEntry> readOracleTable(const std::filesystem::path& manifest) {
  std::map<std::string, OracleEntry> table;
  std::ifstream in(manifest);
  std::string line;
  bool inOracle = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) inOracle = line.find("Oracle") != std::string::npos;
    if (!inOracle || line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    std::string cell;
    while (std::getline(row, cell, '|')) {
      const size_t first = cell.find_first_not_of(" `");
      const size_t last = cell.find_last_not_of(" `");
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    if (cells.size() < 7 || cells[0] == "file" || cells[0].rfind("---", 0) == 0) continue;
    OracleEntry entry{.status = cells[1]};
    if (entry.status == "ok") {
      entry.recordHash = std::stoull(cells[6], nullptr, 16);
      entry.pointCount = std::stoull(cells[2].substr(cells[2].find('/') + 1));
    }
    table[cells[0]] = entry;
  }
  return table;
}

/// Every record of a LAZ file, decoded with `fields`, through a small buffer (so chunk pieces
/// are exercised); `pieces` counts the sink calls.
inline std::vector<uint8_t> decodeAllRecords(const std::filesystem::path& path,
                                             const laz::FieldSelection& fields = {},
                                             uint64_t bufferPoints = 777,
                                             io::LasHeader* headerOut = nullptr) {
  const io::MappedFile file(path);
  const io::ReadContext context{.file = path.string()};
  const io::LasHeader header = io::parseLasHeader(file.bytes(), context);
  io::LazPointRecords records(file.bytes(), header, context);
  auto decoder = records.makeDecoder(fields);
  const uint64_t length = records.recordLength();
  std::vector<uint8_t> all(header.pointCount * length);
  std::vector<uint8_t> buffer(bufferPoints * length);
  for (size_t c = 0; c < records.chunkCount(); ++c) {
    records.decodeChunk(c, *decoder, buffer.data(), bufferPoints,
                        [&](const uint8_t* data, uint64_t first, uint64_t count) {
                          std::copy(data, data + count * length, all.begin() + first * length);
                        });
  }
  if (headerOut) *headerOut = header;
  return all;
}

/// The raw point records of an uncompressed LAS file.
inline std::vector<uint8_t> lasRecordBlock(const std::filesystem::path& path) {
  const io::MappedFile file(path);
  const io::ReadContext context{.file = path.string()};
  const io::LasHeader header = io::parseLasHeader(file.bytes(), context);
  const uint8_t* begin = file.bytes().data() + header.pointsOffset;
  return std::vector<uint8_t>(begin, begin + header.pointCount * header.recordLength);
}

/// The bytes of a file.
inline std::vector<uint8_t> readBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Every record of a LAS, LAZ or COPC file, in file order, concatenated; its format into
/// `format` where given.
inline std::vector<uint8_t> fileRecords(const std::filesystem::path& path,
                                        LasWriteFormat* format = nullptr) {
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path);
  if (format) *format = stream->format();
  std::vector<uint8_t> all;
  const uint8_t* batch = nullptr;
  for (uint64_t count; (count = stream->next(4096, batch)) > 0;) {
    all.insert(all.end(), batch, batch + count * stream->format().recordLength);
  }
  return all;
}

/// Where each chunk of a LAZ or COPC file lies, by its chunk table.
inline std::vector<laz::ChunkLocation> lazChunks(const std::filesystem::path& path) {
  const io::MappedFile file(path);
  const io::ReadContext context{.file = path.string()};
  const io::LasHeader header = io::parseLasHeader(file.bytes(), context);
  const io::LazPointRecords records(file.bytes(), header, context);
  return records.layout().chunks;
}

/// Every node of a COPC file's hierarchy names a chunk of its chunk table, with its size and
/// point count, and every chunk is named once.
inline void expectHierarchyNamesTheChunks(const std::filesystem::path& path) {
  const std::vector<laz::ChunkLocation> chunks = lazChunks(path);
  std::map<uint64_t, const laz::ChunkLocation*> chunkAt;
  for (const laz::ChunkLocation& chunk : chunks) chunkAt[chunk.offset] = &chunk;
  size_t named = 0;
  for (const CopcNode& node : readCopcHierarchy(path).nodes) {
    if (node.pointCount == 0) continue;
    const auto chunk = chunkAt.find(node.chunkOffset);
    ASSERT_NE(chunk, chunkAt.end()) << "a node points at no chunk";
    EXPECT_EQ(node.chunkBytes, chunk->second->byteCount);
    EXPECT_EQ(node.pointCount, chunk->second->pointCount);
    ++named;
  }
  EXPECT_EQ(named, chunkAt.size());
}

}  // namespace pcv::test
