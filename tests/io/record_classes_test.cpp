// The classification of LAS records rewritten alone (what pcv classify writes): every other bit
// of every record stays, in the legacy formats (class in 5 bits beside 3 flag bits) and in the
// extended ones (a byte of its own); a class a legacy format cannot hold is an InputError.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/io/record_classes.hpp"
#include "pcv/io/las_writer.hpp"

namespace pcv::test {
namespace {

constexpr uint64_t kPoints = 5000;

/// Records of random bytes (flags, return numbers, every field), the same for the same format.
class RandomRecords final : public PointRecordStream {
 public:
  explicit RandomRecords(int pointFormat) {
    format_.pointFormat = pointFormat;
    format_.recordLength = lasFormatRecordBytes(pointFormat);
    format_.scale = glm::dvec3(0.01, 0.02, 0.001);
    format_.offset = glm::dvec3(500000.0, 4000000.0, 100.0);
    pointCount_ = kPoints;
    std::mt19937 random{uint32_t(pointFormat)};
    bytes_.resize(kPoints * format_.recordLength);
    for (uint8_t& byte : bytes_) byte = uint8_t(random());
  }
  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    const uint64_t count = std::min(maxPoints, kPoints - done_);
    records = bytes_.data() + done_ * format_.recordLength;
    done_ += count;
    return count;
  }

 private:
  std::vector<uint8_t> bytes_;
  uint64_t done_ = 0;
};

std::unique_ptr<PointRecordStream> randomRecords(int pointFormat) {
  return std::make_unique<RandomRecords>(pointFormat);
}

std::vector<uint8_t> allRecords(PointRecordStream& stream) {
  std::vector<uint8_t> all;
  const uint8_t* batch = nullptr;
  for (uint64_t count; (count = stream.next(777, batch)) > 0;) {
    all.insert(all.end(), batch, batch + count * stream.format().recordLength);
  }
  return all;
}

/// Every third record ground, every fifth (not third) the record's index mod 32, the rest kept.
uint8_t testClass(uint8_t previous, uint64_t index) {
  if (index % 3 == 0) return 2;
  if (index % 5 == 0) return uint8_t(index % 32);
  return previous;
}

void expectOnlyClassesChanged(int pointFormat, size_t classByte, uint8_t classMask) {
  const std::unique_ptr<PointRecordStream> original = randomRecords(pointFormat);
  const uint16_t length = original->format().recordLength;
  const std::vector<uint8_t> before = allRecords(*original);
  const std::unique_ptr<PointRecordStream> changed =
      reclassifyRecords(randomRecords(pointFormat), testClass);
  EXPECT_EQ(changed->pointCount(), kPoints);
  EXPECT_EQ(changed->format().pointFormat, pointFormat);
  const std::vector<uint8_t> after = allRecords(*changed);
  ASSERT_EQ(after.size(), before.size());
  size_t otherBitsChanged = 0, wrongClasses = 0;
  for (uint64_t i = 0; i < kPoints; ++i) {
    const uint8_t* a = before.data() + i * length;
    const uint8_t* b = after.data() + i * length;
    for (size_t k = 0; k < length; ++k) {
      const uint8_t kept = k == classByte ? uint8_t(~classMask) : uint8_t(0xFF);
      otherBitsChanged += (a[k] & kept) != (b[k] & kept);
    }
    wrongClasses += (b[classByte] & classMask) != testClass(a[classByte] & classMask, i);
  }
  EXPECT_EQ(otherBitsChanged, 0u);
  EXPECT_EQ(wrongClasses, 0u);
}

TEST(RecordClasses, LegacyFormatKeepsTheClassFlags) {
  expectOnlyClassesChanged(3, 15, 0x1F);
}

TEST(RecordClasses, ExtendedFormatRewritesTheClassByte) {
  expectOnlyClassesChanged(7, 16, 0xFF);
}

TEST(RecordClasses, ClassTooLargeForALegacyFormatIsAnInputError) {
  const std::unique_ptr<PointRecordStream> changed =
      reclassifyRecords(randomRecords(1), [](uint8_t, uint64_t) { return uint8_t(40); });
  const uint8_t* batch = nullptr;
  EXPECT_THROW(changed->next(100, batch), InputError);
  const std::unique_ptr<PointRecordStream> extended =
      reclassifyRecords(randomRecords(6), [](uint8_t, uint64_t) { return uint8_t(40); });
  EXPECT_GT(extended->next(100, batch), 0u);
  EXPECT_EQ(batch[16], 40);
}

TEST(RecordClasses, PositionsAreTheRecordsScaledAndOffset) {
  const std::unique_ptr<PointRecordStream> stream = randomRecords(6);
  const std::vector<glm::dvec3> positions = recordPositions(*stream);
  ASSERT_EQ(positions.size(), kPoints);
  const std::unique_ptr<PointRecordStream> again = randomRecords(6);
  const LasWriteFormat& format = again->format();
  const std::vector<uint8_t> records = allRecords(*again);
  for (uint64_t i = 0; i < kPoints; i += 97) {
    for (int a = 0; a < 3; ++a) {
      int32_t value = 0;
      std::memcpy(&value, records.data() + i * format.recordLength + 4 * a, 4);
      EXPECT_EQ(positions[i][a], double(value) * format.scale[a] + format.offset[a]);
    }
  }
}

}  // namespace
}  // namespace pcv::test
