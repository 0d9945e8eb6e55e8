// LZF decompression: literal runs, overlapping back references and corrupt streams written by
// hand from the format, and what liblzf's own compressor writes.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include <lzf.h>

#include "pcd/lzf.hpp"

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

TEST(Lzf, DecodesWhatLiblzfCompresses) {
  // Point-like columns: runs, repeats and noise, so literals and references of every length.
  std::mt19937 random(5);
  std::vector<uint8_t> original(200000);
  for (size_t i = 0; i < original.size(); ++i) {
    original[i] = (i / 4096) % 3 == 0 ? uint8_t(random()) : uint8_t((i * 7) % 251 / 16);
  }
  std::vector<uint8_t> packed(original.size() + original.size() / 16 + 64);
  const unsigned size = lzf_compress(original.data(), unsigned(original.size()), packed.data(),
                                     unsigned(packed.size()));
  ASSERT_GT(size, 0u);
  packed.resize(size);
  std::vector<uint8_t> output(original.size());
  ASSERT_TRUE(lzfDecompress(packed, output));
  EXPECT_EQ(output, original);
  std::vector<uint8_t> shorter(original.size() - 1), longer(original.size() + 1);
  EXPECT_FALSE(lzfDecompress(packed, shorter));
  EXPECT_FALSE(lzfDecompress(packed, longer));
  packed.pop_back();
  EXPECT_FALSE(lzfDecompress(packed, output)) << "cut stream";
}

TEST(Lzf, EmptyOutputNeedsEmptyInput) {
  std::vector<uint8_t> none;
  EXPECT_TRUE(lzfDecompress({}, none));
  EXPECT_FALSE(lzfDecompress(std::vector<uint8_t>{0, 'a'}, none));
}

}  // namespace
}  // namespace pcv::io
