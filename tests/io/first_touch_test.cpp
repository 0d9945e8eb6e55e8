// firstTouchInParallel writes into every page of a buffer, whatever its size and alignment, and
// nothing beyond it.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "pcv/core/first_touch.hpp"

namespace pcv::test {
namespace {

TEST(FirstTouch, WritesIntoEveryPageAndNoByteOutside) {
  constexpr size_t kPage = 4096;
  for (const size_t bytes : {size_t(1), kPage - 1, kPage + 1, 3000 * kPage + 17}) {
    SCOPED_TRACE(bytes);
    // Poisoned, with a guard either side; the range starts off a page boundary.
    std::vector<uint8_t> block(bytes + 2 * kPage, 0xAB);
    uint8_t* begin = block.data() + kPage + 5;
    firstTouchInParallel(begin, bytes);
    for (size_t page = 0; page * kPage < bytes; ++page) {
      bool touched = false;
      for (size_t i = page * kPage; i < std::min(bytes, (page + 1) * kPage); ++i)
        touched |= begin[i] == 0;
      ASSERT_TRUE(touched) << "page " << page;
    }
    size_t zeros = 0;
    for (const uint8_t b : block) zeros += b == 0;
    EXPECT_EQ(zeros, (bytes + kPage - 1) / kPage);
  }
}

}  // namespace
}  // namespace pcv::test
