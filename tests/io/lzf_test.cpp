// LZF decompression: literal runs, overlapping back references, and corrupt streams.
#include <gtest/gtest.h>

#include <vector>

#include "lzf.hpp"

namespace pcv::io {
namespace {

TEST(Lzf, DecodesLiteralsAndOverlappingBackReferences) {
  // "abc" literal, then a back reference of length 7 (3 + 2 + 2) at distance 3: "abcabcabca".
  const std::vector<uint8_t> input = {2, 'a', 'b', 'c', (5 << 5) | 0, 2};
  std::vector<uint8_t> output(10);
  ASSERT_TRUE(lzfDecompress(input, output));
  EXPECT_EQ(std::string(output.begin(), output.end()), "abcabcabca");
}

TEST(Lzf, DecodesLongBackReferences) {
  // Length code 7 plus an extra byte: 7 + 10 + 2 = 19 copies of 'x'.
  const std::vector<uint8_t> input = {0, 'x', (7 << 5) | 0, 10, 0};
  std::vector<uint8_t> output(20);
  ASSERT_TRUE(lzfDecompress(input, output));
  EXPECT_EQ(std::string(output.begin(), output.end()), std::string(20, 'x'));
}

TEST(Lzf, RejectsCorruptStreams) {
  std::vector<uint8_t> output(8);
  EXPECT_FALSE(lzfDecompress(std::vector<uint8_t>{5, 'a'}, output)) << "literal past input end";
  EXPECT_FALSE(lzfDecompress(std::vector<uint8_t>{(1 << 5), 0}, output))
      << "reference before start";
  EXPECT_FALSE(lzfDecompress(std::vector<uint8_t>{0, 'a', (7 << 5)}, output)) << "cut reference";
  EXPECT_FALSE(lzfDecompress(std::vector<uint8_t>{0, 'a'}, output)) << "output too short";
  std::vector<uint8_t> small(2);
  EXPECT_FALSE(lzfDecompress(std::vector<uint8_t>{0, 'a', (6 << 5), 0}, small)) << "overflow";
}

}  // namespace
}  // namespace pcv::io
