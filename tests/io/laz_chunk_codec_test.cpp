// Chunks: what ChunkEncoder writes ChunkDecoder reads back record for record, for every point
// format, coherent and random records, several scanner channels, item versions 3 and 4; layered
// decoders asked for fewer fields still get x, y, z and what they asked for right; broken chunks
// fail with the chunk's byte, never a crash.
#include <gtest/gtest.h>

#include <cstring>

#include "laz/chunk_decoder.hpp"
#include "laz/chunk_encoder.hpp"
#include "laz/laszip_vlr.hpp"
#include "laz_record_generator.hpp"

namespace pcv::laz {
namespace {

using test::RecordStyle;
using test::syntheticRecords;

std::vector<uint8_t> encodeChunk(const LaszipVlr& vlr, const std::vector<uint8_t>& records,
                                 uint64_t count) {
  ChunkEncoder encoder(vlr);
  std::vector<uint8_t> chunk;
  encoder.encode(records.data(), count, chunk);
  return chunk;
}

std::vector<uint8_t> decodeChunk(const LaszipVlr& vlr, const std::vector<uint8_t>& chunk,
                                 uint64_t count, const FieldSelection& fields = {},
                                 uint64_t* bytesUsed = nullptr) {
  ChunkDecoder decoder(vlr, fields);
  decoder.start(chunk.data(), chunk.size(), count);
  std::vector<uint8_t> records(count * vlr.recordLength());
  // Two calls, so that a chunk decoded in pieces is exercised too.
  decoder.decode(count / 3, records.data());
  decoder.decode(count - count / 3, records.data() + (count / 3) * vlr.recordLength());
  EXPECT_FALSE(decoder.fault().has_value()) << decoder.fault()->what;
  if (bytesUsed) *bytesUsed = decoder.bytesUsed();
  return records;
}

void expectRoundTrip(int format, uint32_t extra, uint64_t count, uint32_t seed,
                     const RecordStyle& style, uint16_t layeredVersion = 3) {
  const uint32_t length = io::kLasFormatBytes[format] + extra;
  LaszipVlr vlr = laszipVlrFor(format, length);
  if (format >= 6) {
    for (Item& item : vlr.items) item.version = layeredVersion;
  }
  const std::vector<uint8_t> records = syntheticRecords(format, extra, count, seed, style);
  const std::vector<uint8_t> chunk = encodeChunk(vlr, records, count);
  uint64_t used = 0;
  const std::vector<uint8_t> decoded = decodeChunk(vlr, chunk, count, {}, &used);
  ASSERT_EQ(decoded.size(), records.size());
  for (uint64_t i = 0; i < count; ++i) {
    ASSERT_EQ(std::memcmp(decoded.data() + i * length, records.data() + i * length, length), 0)
        << "format " << format << " seed " << seed << ": record " << i << " differs";
  }
  EXPECT_EQ(used, chunk.size()) << "format " << format;
}

TEST(LazChunkCodec, RoundTripsCoherentRecordsOfEveryFormat) {
  for (int format = 0; format <= 10; ++format) {
    for (uint32_t extra : {0u, 3u}) {
      expectRoundTrip(format, extra, 5000, 100 + format, {});
    }
  }
}

TEST(LazChunkCodec, RoundTripsRandomBytesOfEveryFormat) {
  for (int format = 0; format <= 10; ++format) {
    expectRoundTrip(format, 2, 3000, 200 + format, {.randomBytes = true});
  }
}

TEST(LazChunkCodec, RoundTripsScannerChannelsInBothLayeredVersions) {
  for (int format = 6; format <= 10; ++format) {
    for (uint16_t version : {uint16_t(3), uint16_t(4)}) {
      expectRoundTrip(format, 4, 8000, 300 + format, {.scannerChannels = 4}, version);
      expectRoundTrip(format, 1, 3000, 400 + format, {.randomBytes = true}, version);
    }
  }
}

TEST(LazChunkCodec, RoundTripsChunksOfOneAndTwoPoints) {
  for (int format : {0, 3, 6, 10}) {
    for (uint64_t count : {1u, 2u}) expectRoundTrip(format, 1, count, 500 + format, {});
  }
}

TEST(LazChunkCodec, RoundTripsEightBitColorsInSixteenBitFields) {
  for (int format : {2, 3, 7, 8}) expectRoundTrip(format, 0, 4000, 600, {.eightBitColor = true});
}

TEST(LazChunkCodec, SelectiveDecodingKeepsPositionsAndTheAskedFields) {
  for (int format : {6, 7, 8, 10}) {
    const uint32_t length = io::kLasFormatBytes[format] + 2;
    const LaszipVlr vlr = laszipVlrFor(format, length);
    const uint64_t count = 6000;
    const auto records = syntheticRecords(format, 2, count, 700 + format, {.scannerChannels = 2});
    const auto chunk = encodeChunk(vlr, records, count);
    FieldSelection fields;
    fields.classification = fields.flags = fields.scanAngle = fields.userData = false;
    fields.pointSource = fields.gpsTime = fields.nir = fields.wavePacket = false;
    fields.extraBytes = false;
    const auto decoded = decodeChunk(vlr, chunk, count, fields);
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t* a = decoded.data() + i * length;
      const uint8_t* b = records.data() + i * length;
      // x, y, z, intensity, return numbers; RGB where the format has it.
      ASSERT_EQ(std::memcmp(a, b, 15), 0) << "format " << format << " record " << i;
      if (format == 7 || format == 8 || format == 10) {
        ASSERT_EQ(std::memcmp(a + 30, b + 30, 6), 0) << "format " << format << " record " << i;
      }
    }
  }
}

TEST(LazChunkCodec, RejectsTruncatedChunk) {
  for (int format : {1, 3, 6, 8}) {
    const uint32_t length = io::kLasFormatBytes[format];
    const LaszipVlr vlr = laszipVlrFor(format, length);
    const uint64_t count = 2000;
    const auto records = syntheticRecords(format, 0, count, 800 + format);
    const auto chunk = encodeChunk(vlr, records, count);
    for (size_t cut : {size_t(1), chunk.size() / 3, chunk.size() - length - 2}) {
      const std::vector<uint8_t> truncated(chunk.begin(), chunk.end() - cut);
      ChunkDecoder decoder(vlr, {});
      std::vector<uint8_t> out(count * length);
      try {
        decoder.start(truncated.data(), truncated.size(), count);
        decoder.decode(count, out.data());
        ASSERT_TRUE(decoder.fault().has_value()) << "format " << format << " cut " << cut;
        EXPECT_LE(decoder.fault()->byte, truncated.size());
      } catch (const LazError& e) {
        // Layered chunks state their sizes, so a cut is seen before decoding.
        EXPECT_GE(format, 6) << e.what();
        EXPECT_LE(e.byte, truncated.size());
      }
    }
  }
}

TEST(LazChunkCodec, GarbageChunksDecodeInBoundsAndAreFlagged) {
  std::mt19937 random(5);
  for (int format : {0, 1, 3, 5, 6, 7, 8, 10}) {
    const uint32_t length = io::kLasFormatBytes[format] + 1;
    const LaszipVlr vlr = laszipVlrFor(format, length);
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint8_t> garbage(length + 4 + 200 + random() % 2000);
      for (auto& b : garbage) b = uint8_t(random());
      if (format >= 6) {
        // Plausible layer sizes, so that the layers are really decoded.
        uint32_t layers = 9 + uint32_t(vlr.items.size() > 1 ? 2 : 0) + 1;
        const uint64_t room = garbage.size() - length - 4 - 4 * 20;
        for (uint32_t l = 0; l < 20; ++l) {
          test::putLe(garbage.data() + length + 4 + 4 * l, l < layers ? room / 20 : 0, 4);
        }
      }
      ChunkDecoder decoder(vlr, {});
      const uint64_t count = 5000;
      std::vector<uint8_t> out(count * length);
      try {
        decoder.start(garbage.data(), garbage.size(), count);
        decoder.decode(count, out.data());
        EXPECT_TRUE(decoder.fault().has_value()) << "format " << format << " trial " << trial;
      } catch (const LazError&) {
      }
    }
  }
}

}  // namespace
}  // namespace pcv::laz
