// The E57 physical layer and codec on their own: CRC-32C against its published check value and
// the independent writer's implementation, and bit unpacking of every width at every bit offset
// against values packed by the test writer.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "e57/bitpack.hpp"
#include "e57/crc32c.hpp"
#include "e57_writer.hpp"

namespace pcv::test {
namespace {

TEST(E57Crc32c, MatchesTheCastagnoliCheckValue) {
  const std::string text = "123456789";
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  EXPECT_EQ(io::e57::crc32c(bytes, text.size()), 0xe3069283u);
  EXPECT_EQ(io::e57::crc32cPortable(bytes, text.size()), 0xe3069283u);
}

TEST(E57Crc32c, HardwarePortableAndWriterAgreeOnRandomBuffers) {
  std::mt19937 random(7);
  for (size_t size : {0, 1, 7, 8, 9, 63, 1020, 4097}) {
    std::vector<uint8_t> bytes(size);
    for (uint8_t& b : bytes) b = uint8_t(random());
    const uint32_t expected = e57::detail::crc32c(bytes.data(), size);
    EXPECT_EQ(io::e57::crc32c(bytes.data(), size), expected) << size;
    EXPECT_EQ(io::e57::crc32cPortable(bytes.data(), size), expected) << size;
  }
}

TEST(E57Bitpack, UnpacksEveryWidthAtEveryBitOffset) {
  std::mt19937_64 random(11);
  constexpr size_t kValues = 200;
  for (unsigned width = 1; width <= 64; ++width) {
    const uint64_t mask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    for (unsigned offset = 0; offset < 8; ++offset) {
      std::vector<uint64_t> values(kValues);
      e57::detail::BitStream stream;
      stream.put(0x5a, offset);  // junk bits before the first value
      for (uint64_t& v : values) {
        // Extremes as well as random values, so the top and bottom bits are exercised.
        const uint64_t pick = random() % 8;
        v = (pick == 0 ? mask : pick == 1 ? 0 : random()) & mask;
        stream.put(v, width);
      }
      stream.flushPartial();
      stream.bytes.resize(stream.bytes.size() + io::e57::kUnpackPadding, 0xff);
      std::vector<uint64_t> decoded(kValues, 0xdeadbeef);
      io::e57::unpackBits(stream.bytes.data(), offset, width, kValues, decoded.data());
      ASSERT_EQ(decoded, values) << "width " << width << " offset " << offset;
    }
  }
}

}  // namespace
}  // namespace pcv::test
