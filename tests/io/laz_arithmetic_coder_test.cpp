// The LAZ arithmetic coder, its models and the integer corrector: what the encoder writes the
// decoder reads back, byte for byte as many as were written; garbage and truncated input are
// flagged, never read out of bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "laz/arithmetic_decoder.hpp"
#include "laz/arithmetic_encoder.hpp"
#include "laz/entropy_models.hpp"
#include "laz/integer_coder.hpp"

namespace pcv::laz {
namespace {

/// A mix of everything the coder does, driven by one random sequence so that encoding and
/// decoding see the same operations.
struct Operation {
  int kind;  ///< 0 bit, 1 small symbol, 2 large symbol, 3 raw bits, 4 integer, 5 int64
  uint32_t bits;
  uint64_t value;
  int32_t prediction;
};

std::vector<Operation> randomOperations(uint32_t seed, int count) {
  std::mt19937 random(seed);
  std::vector<Operation> ops;
  for (int i = 0; i < count; ++i) {
    Operation op{int(random() % 6), 0, 0, 0};
    switch (op.kind) {
      case 0:
        op.value = random() % 7 == 0;  // skewed, so the bit model adapts
        break;
      case 1:
        op.value = random() % 5;
        break;
      case 2:
        op.value = (random() % 3 == 0) ? random() % 300 : random() % 4;
        break;
      case 3:
        op.bits = 1 + random() % 32;
        op.value = op.bits == 32 ? uint32_t(random()) : random() & ((1u << op.bits) - 1);
        break;
      case 4:
        op.prediction = int32_t(random());
        // Mostly small differences, sometimes any 32-bit value.
        op.value = uint32_t(op.prediction + int32_t(random() % 2001) - 1000);
        if (random() % 10 == 0) op.value = uint32_t(random());
        break;
      default:
        op.value = (uint64_t(random()) << 32) | random();
        break;
    }
    ops.push_back(op);
  }
  return ops;
}

struct Models {
  BitModel bit;
  SymbolModel<5> small;
  SymbolModel<300> large;
  IntegerCoder<1> integer;
  void reset(bool decoding) {
    bit.reset();
    small.reset(5, decoding);
    large.reset(300, decoding);
    integer.reset(32, decoding);
  }
};

std::vector<uint8_t> encodeAll(const std::vector<Operation>& ops) {
  ArithmeticEncoder encoder;
  encoder.start();
  auto models = std::make_unique<Models>();
  models->reset(false);
  for (const Operation& op : ops) {
    switch (op.kind) {
      case 0:
        encoder.encodeBit(models->bit, uint32_t(op.value));
        break;
      case 1:
        encoder.encodeSymbol(models->small, uint32_t(op.value));
        break;
      case 2:
        encoder.encodeSymbol(models->large, uint32_t(op.value));
        break;
      case 3:
        encoder.writeBits(op.bits, uint32_t(op.value));
        break;
      case 4:
        models->integer.encode(encoder, op.prediction, int32_t(op.value));
        break;
      default:
        encoder.writeInt64(op.value);
        break;
    }
  }
  encoder.finish();
  return {encoder.bytes().begin(), encoder.bytes().end()};
}

/// Decodes `ops` from `bytes`; returns the index of the first mismatch, or ops.size().
size_t decodeAll(const std::vector<uint8_t>& bytes, const std::vector<Operation>& ops,
                 ArithmeticDecoder& decoder) {
  decoder.start(bytes.data(), bytes.size());
  auto models = std::make_unique<Models>();
  models->reset(true);
  size_t firstMismatch = ops.size();
  for (size_t i = 0; i < ops.size(); ++i) {
    const Operation& op = ops[i];
    uint64_t got = 0;
    switch (op.kind) {
      case 0:
        got = decoder.decodeBit(models->bit);
        break;
      case 1:
        got = decoder.decodeSymbol(models->small);
        break;
      case 2:
        got = decoder.decodeSymbol(models->large);
        break;
      case 3:
        got = decoder.readBits(op.bits);
        break;
      case 4:
        got = uint32_t(models->integer.decode(decoder, op.prediction));
        break;
      default:
        got = decoder.readInt64();
        break;
    }
    if (got != op.value && firstMismatch == ops.size()) firstMismatch = i;
  }
  return firstMismatch;
}

TEST(LazArithmeticCoder, DecodesWhatItEncodedAndReadsExactlyTheWrittenBytes) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const std::vector<Operation> ops = randomOperations(seed, 20000);
    const std::vector<uint8_t> bytes = encodeAll(ops);
    ArithmeticDecoder decoder;
    EXPECT_EQ(decodeAll(bytes, ops, decoder), ops.size()) << "seed " << seed;
    EXPECT_FALSE(decoder.failed()) << "seed " << seed;
    // The encoder's closing bytes are exactly what the decoder still reads ahead: a chunk ends
    // where decoding ends, which is how chunks without a table are found.
    EXPECT_EQ(decoder.position, bytes.size()) << "seed " << seed;
  }
}

/// Codes the bits, large symbols and raw bits of `ops` as one block.
void encodeBlock(ArithmeticEncoder& encoder, const std::vector<Operation>& ops) {
  encoder.start();
  BitModel bit;
  bit.reset();
  auto large = std::make_unique<SymbolModel<300>>();
  large->reset(300, false);
  for (const Operation& op : ops) {
    if (op.kind == 0) encoder.encodeBit(bit, uint32_t(op.value));
    if (op.kind == 2) encoder.encodeSymbol(*large, uint32_t(op.value));
    if (op.kind == 3) encoder.writeBits(op.bits, uint32_t(op.value));
  }
  encoder.finish();
}

TEST(LazArithmeticCoder, ReusedEncoderWritesWhatAFreshOneWrites) {
  // The encoder keeps its storage from block to block; what a longer block left there must not
  // reach a later one (carries walk back over the bytes written, never past the block's start).
  const std::vector<Operation> shortOps = randomOperations(4, 500);
  ArithmeticEncoder reused;
  encodeBlock(reused, randomOperations(3, 20000));
  encodeBlock(reused, shortOps);
  ArithmeticEncoder fresh;
  encodeBlock(fresh, shortOps);
  ASSERT_GT(fresh.bytes().size(), 100u);
  EXPECT_TRUE(std::equal(reused.bytes().begin(), reused.bytes().end(), fresh.bytes().begin(),
                         fresh.bytes().end()));
}

TEST(LazArithmeticCoder, EmptyBlockIsFourBytes) {
  ArithmeticEncoder encoder;
  encoder.start();
  encoder.finish();
  EXPECT_EQ(encoder.bytes().size(), 4u);
}

TEST(LazArithmeticCoder, FlagsReadingPastTheEndAndStaysInside) {
  const std::vector<Operation> ops = randomOperations(7, 5000);
  const std::vector<uint8_t> bytes = encodeAll(ops);
  // Any cut is noticed, even one of the closing zero bytes; the decoder decodes zeros past the
  // end and never reads there (the vector's size is exact, so AddressSanitizer would see it).
  for (size_t cut : {size_t(1), size_t(3), bytes.size() / 2, bytes.size() - 4}) {
    const std::vector<uint8_t> truncated(bytes.begin(), bytes.end() - cut);
    ArithmeticDecoder decoder;
    decodeAll(truncated, ops, decoder);
    EXPECT_EQ(decoder.fault, StreamFault::Overrun) << "cut " << cut;
    EXPECT_EQ(decoder.position, truncated.size()) << "cut " << cut;
  }
}

TEST(LazArithmeticCoder, GarbageDecodesInBoundsAndIsFlagged) {
  std::mt19937 random(11);
  int flagged = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint8_t> garbage(64);
    for (auto& b : garbage) b = uint8_t(random());
    // All ones: the code value starts at the top of the interval, which no encoder writes.
    if (trial == 0) std::fill(garbage.begin(), garbage.end(), 0xFF);
    ArithmeticDecoder decoder;
    decoder.start(garbage.data(), garbage.size());
    auto models = std::make_unique<Models>();
    models->reset(true);
    for (int i = 0; i < 400; ++i) {
      ASSERT_LT(decoder.decodeSymbol(models->large), 300u);
      ASSERT_LT(decoder.decodeSymbol(models->small), 5u);
      ASSERT_LT(decoder.readBits(5), 32u);
      models->integer.decode(decoder, 0);
    }
    ASSERT_LE(decoder.position, garbage.size());
    flagged += decoder.failed();
  }
  // 400 rounds need far more than 64 bytes: every trial runs out.
  EXPECT_EQ(flagged, 200);
}

TEST(LazIntegerCoder, WrapsDifferencesOfNarrowCoders) {
  // 16-bit values: a jump from 65535 to 0 is a difference of +1 modulo 2^16.
  ArithmeticEncoder encoder;
  encoder.start();
  auto coder = std::make_unique<IntegerCoder<2>>();
  coder->reset(16, false);
  const int32_t values[][2] = {{65535, 0}, {0, 65535}, {-32768, 32767}, {100, 100}, {7, 40000}};
  for (const auto& v : values) coder->encode(encoder, v[0], v[1], 1);
  encoder.finish();
  ArithmeticDecoder decoder;
  decoder.start(encoder.bytes().data(), encoder.bytes().size());
  coder->reset(16, true);
  for (const auto& v : values) {
    const int32_t expected = v[1] & 0xFFFF;
    EXPECT_EQ(coder->decode(decoder, v[0], 1) & 0xFFFF, expected);
  }
  EXPECT_FALSE(decoder.failed());
}

TEST(LazIntegerCoder, ReportsTheCorrectorBitCount) {
  ArithmeticEncoder encoder;
  encoder.start();
  auto coder = std::make_unique<IntegerCoder<1>>();
  coder->reset(32, false);
  // k: 0 for differences 0 and 1, then the bits of |c| (c - 1 when positive).
  const int32_t diffs[] = {0, 1, 2, -1, 5, -1000, 1 << 20, INT32_MIN};
  const uint32_t expectedK[] = {0, 0, 1, 1, 3, 10, 20, 32};
  for (size_t i = 0; i < std::size(diffs); ++i) {
    coder->encode(encoder, 0, diffs[i]);
    EXPECT_EQ(coder->lastK(), expectedK[i]) << diffs[i];
  }
  encoder.finish();
  ArithmeticDecoder decoder;
  decoder.start(encoder.bytes().data(), encoder.bytes().size());
  coder->reset(32, true);
  for (size_t i = 0; i < std::size(diffs); ++i) {
    EXPECT_EQ(coder->decode(decoder, 0), diffs[i]);
    EXPECT_EQ(coder->lastK(), expectedK[i]);
  }
}

}  // namespace
}  // namespace pcv::laz
