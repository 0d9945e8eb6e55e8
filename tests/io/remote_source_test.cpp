// Remote sources against a real HTTP server on loopback (tests/support/http_test_server): the
// bytes read by ranges are the file's; passing faults are retried; lasting ones, a changed file
// and servers that refuse end in a RemoteError whose failure and status say why; a request
// ends by its deadline (--http-timeout), retries included.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

#include "http_test_server.hpp"
#include "io_test_util.hpp"
#include "pcv/io/byte_source.hpp"
#include "pcv/io/remote_source.hpp"
#include "remote/disk_cache_bound.hpp"
#include "quick_remote_options.hpp"

namespace pcv {
namespace {

/// Options with quick retries, restored after each test; every test opens its sources afresh.
class RemoteSource : public ::testing::Test {
 protected:
  /// The failure a read of `location` (opening it, then `range`) ends with.
  static RemoteError failureOf(const std::string& location, ByteRange range = {0, 16}) {
    try {
      const auto source = openByteSource(location);
      std::vector<uint8_t> storage;
      source->read(range.offset, range.length, storage);
    } catch (const RemoteError& error) {
      return error;
    }
    ADD_FAILURE() << location << ": read, expected a RemoteError";
    return RemoteError(RemoteFailure::BadAnswer, 0, "none");
  }

  test::HttpTestServer server_;
  test::QuickRemoteOptions quickOptions_{4};
};

void expectSameBytes(const ByteSource& source, const std::vector<uint8_t>& file, ByteRange range) {
  std::vector<uint8_t> storage;
  const std::span<const uint8_t> got = source.read(range.offset, range.length, storage);
  ASSERT_EQ(got.size(), range.length);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), file.begin() + long(range.offset)))
      << "bytes " << range.offset << "+" << range.length;
}

TEST_F(RemoteSource, ReadsTheFilesBytesByRanges) {
  const std::vector<uint8_t> file = test::randomBytes(3'000'000, 1);
  server_.put("a.bin", file);
  const auto source = openByteSource(server_.url("a.bin"));
  EXPECT_EQ(source->size(), file.size());
  EXPECT_TRUE(source->whole().empty()) << "read by ranges, not whole";
  for (const ByteRange range : {ByteRange{0, 10}, ByteRange{65530, 20}, ByteRange{1'000'000, 500'000},
                                ByteRange{2'999'990, 10}, ByteRange{123, 0}}) {
    expectSameBytes(*source, file, range);
  }
  const auto whole = readWholeSource(*source);
  EXPECT_EQ(whole, file);
  EXPECT_THROW(source->read(2'999'990, 11, *std::make_unique<std::vector<uint8_t>>()), InputError);
}

TEST_F(RemoteSource, AdjacentRangesGoInOneRequest) {
  const std::vector<uint8_t> file = test::randomBytes(2'000'000, 2);
  server_.put("a.bin", file);
  const auto source = openByteSource(server_.url("a.bin"));
  const uint64_t before = server_.requests();
  std::vector<ByteRange> ranges;
  for (uint64_t i = 0; i < 10; ++i) ranges.push_back({500'000 + i * 30'000, 30'000});
  source->prefetch(ranges);
  EXPECT_EQ(server_.requests() - before, 1u) << "10 touching ranges: one request";
  for (const ByteRange& range : ranges) expectSameBytes(*source, file, range);
  EXPECT_EQ(server_.requests() - before, 1u) << "then read from the cache";
}

TEST_F(RemoteSource, PassingFaultsAreRetried) {
  const std::vector<uint8_t> file = test::randomBytes(1'000'000, 3);
  server_.put("a.bin", file);
  const auto source = openByteSource(server_.url("a.bin"));
  const uint64_t retriesBefore = remoteCounters().retries;
  const uint64_t requestsBefore = server_.requests();
  server_.faults().failNext = 1;
  expectSameBytes(*source, file, {100'000, 1000});
  server_.faults().failStatus = 500;
  server_.faults().failNext = 1;
  expectSameBytes(*source, file, {300'000, 1000});
  server_.faults().dropNext = 1;
  expectSameBytes(*source, file, {500'000, 1000});
  server_.faults().truncateNext = 1;
  expectSameBytes(*source, file, {700'000, 1000});
  // Each fault cost a request more. A connection dropped after it served an earlier request is
  // opened again by libcurl itself (it kept the connection open for reuse), so that one may not
  // count as pcv's retry.
  EXPECT_GE(server_.requests() - requestsBefore, 8u);
  EXPECT_GE(remoteCounters().retries - retriesBefore, 3u);
}

TEST_F(RemoteSource, LastingServerErrorsEndInTheirStatus) {
  server_.put("a.bin", test::randomBytes(300'000, 4));
  const auto source = openByteSource(server_.url("a.bin"));
  server_.faults().failNext = 100;
  std::vector<uint8_t> storage;
  try {
    source->read(200'000, 10, storage);
    FAIL() << "read through 100 answers of 503";
  } catch (const RemoteError& error) {
    EXPECT_EQ(error.failure(), RemoteFailure::HttpStatus);
    EXPECT_EQ(error.httpStatus(), 503);
  }
}

TEST_F(RemoteSource, ATricklingServerEndsAtTheRequestDeadline) {
  server_.put("a.bin", test::randomBytes(300'000, 4));
  RemoteOptions options = remoteOptions();
  options.requestTimeoutSeconds = 1.0;
  setRemoteOptions(options);
  // 4 KiB/s is above libcurl's 1 KiB/s floor: only the deadline ends the 64 KiB first block.
  server_.faults().trickleBytesPerSecond = 4096;
  const auto start = std::chrono::steady_clock::now();
  const RemoteError error = failureOf(server_.url("a.bin"));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  server_.faults().trickleBytesPerSecond = 0;
  EXPECT_EQ(error.failure(), RemoteFailure::Timeout);
  EXPECT_LT(seconds, 1.0 + 2.0) << "the deadline covers the retries too";
}

TEST_F(RemoteSource, RetriesStopAtTheRequestDeadline) {
  server_.put("a.bin", test::randomBytes(1000, 4));
  RemoteOptions options = remoteOptions();
  options.requestTimeoutSeconds = 1.0;
  options.retries = 1000;
  options.retryDelaySeconds = 0.2;
  setRemoteOptions(options);
  server_.faults().failNext = 1'000'000;  // 503 for ever: a passing fault, asked again
  const auto start = std::chrono::steady_clock::now();
  const RemoteError error = failureOf(server_.url("a.bin"));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  server_.faults().failNext = 0;
  EXPECT_EQ(error.failure(), RemoteFailure::HttpStatus);
  EXPECT_LT(seconds, 1.0 + 1.0);
}

TEST_F(RemoteSource, EndlessHeadersAreRefusedNotHeldOrRetried) {
  server_.put("a.bin", test::randomBytes(1000, 4));
  server_.faults().paddingHeadBytes = 8 << 20;
  const uint64_t before = remoteCounters().requests;
  const RemoteError error = failureOf(server_.url("a.bin"));
  server_.faults().paddingHeadBytes = 0;
  EXPECT_EQ(error.failure(), RemoteFailure::BadAnswer);
  EXPECT_EQ(remoteCounters().requests - before, 1u) << "a permanent fault is not asked again";
}

TEST_F(RemoteSource, RefusalsNameTheirStatus) {
  server_.put("secret.laz", test::randomBytes(1000, 5));
  server_.setStatus("secret.laz", 403);
  const RemoteError forbidden = failureOf(server_.url("secret.laz"));
  EXPECT_EQ(forbidden.failure(), RemoteFailure::Forbidden);
  EXPECT_EQ(forbidden.httpStatus(), 403);
  const RemoteError missing = failureOf(server_.url("missing.laz"));
  EXPECT_EQ(missing.failure(), RemoteFailure::NotFound);
  EXPECT_EQ(missing.httpStatus(), 404);
}

TEST_F(RemoteSource, DnsAndTlsFailuresSayWhich) {
  EXPECT_EQ(failureOf("http://pcv-test-host.invalid/a.laz").failure(), RemoteFailure::Dns);
  // The test server speaks plain HTTP: a TLS handshake with it fails.
  server_.put("a.bin", test::randomBytes(1000, 6));
  const std::string https = "https://127.0.0.1:" + std::to_string(server_.port()) + "/a.bin";
  EXPECT_EQ(failureOf(https).failure(), RemoteFailure::Tls);
}

TEST_F(RemoteSource, WithoutRangesASmallFileIsReadWholeAndALargeOneRefused) {
  server_.faults().ignoreRanges = true;
  const std::vector<uint8_t> small = test::randomBytes(200'000, 7);
  server_.put("small.bin", small);
  const auto source = openByteSource(server_.url("small.bin"));
  EXPECT_EQ(source->size(), small.size());
  EXPECT_FALSE(source->whole().empty());
  expectSameBytes(*source, small, {150'000, 40'000});

  RemoteOptions options = remoteOptions();
  options.wholeFileLimitBytes = 100'000;
  setRemoteOptions(options);
  server_.put("large.bin", test::randomBytes(300'000, 8));
  const RemoteError refused = failureOf(server_.url("large.bin"));
  EXPECT_EQ(refused.failure(), RemoteFailure::NoRangeSupport);
}

TEST_F(RemoteSource, AFileChangedWhileReadIsAnError) {
  std::vector<uint8_t> file = test::randomBytes(1'000'000, 9);
  server_.put("a.bin", file);
  const auto source = openByteSource(server_.url("a.bin"));
  expectSameBytes(*source, file, {100'000, 1000});
  file[500'000] ^= 0xff;
  server_.put("a.bin", file);  // same size, new ETag and Last-Modified
  std::vector<uint8_t> storage;
  try {
    source->read(500'000, 1000, storage);
    FAIL() << "read bytes of another version of the file";
  } catch (const RemoteError& error) {
    EXPECT_EQ(error.failure(), RemoteFailure::Changed);
  }
  EXPECT_THROW(source->read(900'000, 10, storage), RemoteError) << "and it stays an error";
}

TEST_F(RemoteSource, TheDiskCacheServesASecondSession) {
  test::TempDir dir;
  RemoteOptions options = remoteOptions();
  options.diskCacheDirectory = dir.file("http").string();
  setRemoteOptions(options);
  const std::vector<uint8_t> file = test::randomBytes(600'000, 10);
  server_.put("a.bin", file);
  expectSameBytes(*openByteSource(server_.url("a.bin")), file, {0, 600'000});
  forgetRemoteSources();
  const uint64_t hits = remoteCounters().diskCacheHits;
  const auto again = openByteSource(server_.url("a.bin"));
  const uint64_t before = server_.requests();
  expectSameBytes(*again, file, {100'000, 400'000});
  EXPECT_EQ(server_.requests(), before) << "every block from the disk cache";
  EXPECT_GT(remoteCounters().diskCacheHits, hits);
}

TEST_F(RemoteSource, TheDiskCacheStaysWithinItsBound) {
  test::TempDir dir;
  RemoteOptions options = remoteOptions();
  options.diskCacheDirectory = dir.file("http").string();
  options.diskCacheBytes = 200'000;  // three 64 KiB blocks
  setRemoteOptions(options);
  const std::vector<uint8_t> file = test::randomBytes(1'000'000, 11);
  server_.put("big.bin", file);
  expectSameBytes(*openByteSource(server_.url("big.bin")), file, {0, 1'000'000});
  uint64_t cached = 0;
  size_t blocks = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir.file("http"))) {
    if (!entry.is_regular_file()) continue;
    cached += entry.file_size();
    ++blocks;
  }
  EXPECT_LE(cached, options.diskCacheBytes);
  EXPECT_GT(blocks, 0u) << "the latest blocks stay cached";
}

TEST(DiskCacheBound, TrimsTheBlocksUsedLongestAgo) {
  test::TempDir dir;
  const std::filesystem::path folder = dir.file("http");
  std::filesystem::create_directories(folder / "a");
  std::filesystem::create_directories(folder / "b");
  const auto now = std::filesystem::file_time_type::clock::now();
  // Five blocks of 1 000 bytes, used one minute apart: a/0 longest ago, b/1 last.
  const std::vector<std::filesystem::path> blocks = {folder / "a" / "0", folder / "b" / "0",
                                                     folder / "a" / "1", folder / "a" / "2",
                                                     folder / "b" / "1"};
  for (size_t i = 0; i < blocks.size(); ++i) {
    std::ofstream(blocks[i], std::ios::binary) << std::string(1000, char('0' + i));
    std::filesystem::last_write_time(blocks[i],
                                     now - std::chrono::minutes(int(blocks.size() - i)));
  }
  // A block read again is used now: it stays.
  io::touchCachedBlock(blocks[1].string());
  EXPECT_EQ(io::trimDiskCache(folder.string(), 2500), 2000u);
  EXPECT_FALSE(std::filesystem::exists(blocks[0]));
  EXPECT_FALSE(std::filesystem::exists(blocks[2]));
  EXPECT_FALSE(std::filesystem::exists(blocks[3]));
  EXPECT_TRUE(std::filesystem::exists(blocks[1]));
  EXPECT_TRUE(std::filesystem::exists(blocks[4]));
  EXPECT_FALSE(std::filesystem::exists(folder / "a")) << "an emptied file folder goes too";
  EXPECT_EQ(io::trimDiskCache(folder.string(), 5000), 2000u) << "within the bound: nothing goes";
}

TEST(RemoteLocation, S3IsReadOverHttps) {
  EXPECT_TRUE(isRemoteLocation("S3://bucket/key.laz"));
  EXPECT_TRUE(isRemoteLocation("https://host/a.copc.laz"));
  EXPECT_FALSE(isRemoteLocation("/data/a.laz"));
  EXPECT_EQ(requestUrlOf("s3://my-bucket/usgs/tile 1.copc.laz"),
            "https://my-bucket.s3.amazonaws.com/usgs/tile 1.copc.laz");
  EXPECT_EQ(requestUrlOf("http://host/a.laz"), "http://host/a.laz");
  EXPECT_THROW(requestUrlOf("s3://bucket-only"), RemoteError);
}

}  // namespace
}  // namespace pcv
