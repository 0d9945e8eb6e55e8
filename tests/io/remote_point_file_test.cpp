// A remote point file opened for a reader that reads its end next (openRemotePointFile): its
// last 128 KiB come in the round trip of its first block and are read from the cache; an index
// that says the file fits in the first block asks for nothing more; faults on either request
// are retried, a tail that does not match the file is dropped, and the bytes read are always
// the file's.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <thread>

#include "http_test_server.hpp"
#include "io_test_util.hpp"
#include "pcv/io/byte_source.hpp"
#include "pcv/io/remote_source.hpp"
#include "quick_remote_options.hpp"

namespace pcv {
namespace {

constexpr uint64_t kFileBytes = 1'000'000;
// Within the whole 64 KiB blocks of the last 128 KiB, asked with the first block: at least the
// last 64 KiB (here the last 82 496 bytes).
constexpr uint64_t kEndBytes = 80'000;

class RemotePointFile : public ::testing::Test {
 protected:
  void SetUp() override { server_.put("f.copc.laz", file_); }

  /// Whether `source` reads `range` as the file's bytes.
  bool readsTheFile(const ByteSource& source, ByteRange range) const {
    std::vector<uint8_t> storage;
    const std::span<const uint8_t> got = source.read(range.offset, range.length, storage);
    return got.size() == range.length &&
           std::equal(got.begin(), got.end(), file_.begin() + long(range.offset));
  }

  const std::vector<uint8_t> file_ = test::randomBytes(kFileBytes, 7);
  const ByteRange end_{kFileBytes - kEndBytes, kEndBytes};
  test::HttpTestServer server_;
  test::QuickRemoteOptions quickOptions_{4};
};

TEST_F(RemotePointFile, TheEndComesWithTheFirstBlock) {
  const auto source = openRemotePointFile(server_.url("f.copc.laz"));
  EXPECT_EQ(source->size(), kFileBytes);
  EXPECT_EQ(server_.requests(), 2u);
  EXPECT_TRUE(readsTheFile(*source, {0, 1000}));
  EXPECT_TRUE(readsTheFile(*source, end_));
  EXPECT_EQ(server_.requests(), 2u) << "the header and the end from the cache";
  EXPECT_TRUE(readsTheFile(*source, {500'000, 1000}));
  EXPECT_EQ(server_.requests(), 3u);
  EXPECT_EQ(openByteSource(server_.url("f.copc.laz")), source) << "one source a URL";
}

TEST_F(RemotePointFile, AFileTheIndexSaysIsSmallAsksForItsFirstBlockOnly) {
  const auto source = openRemotePointFile(server_.url("f.copc.laz"), 20'000);
  EXPECT_EQ(server_.requests(), 1u);
  EXPECT_TRUE(readsTheFile(*source, end_)) << "the end asked when it is read";
  EXPECT_EQ(server_.requests(), 2u);
}

TEST_F(RemotePointFile, PassingFaultsOnEitherRequestAreRetried) {
  for (int faults = 1; faults <= 2; ++faults) {
    for (std::atomic<int>* fault :
         {&server_.faults().failNext, &server_.faults().dropNext, &server_.faults().truncateNext}) {
      forgetRemoteSources();
      *fault = faults;
      const auto source = openRemotePointFile(server_.url("f.copc.laz"));
      EXPECT_EQ(*fault, 0) << "the fault was met";
      EXPECT_TRUE(readsTheFile(*source, {0, 1000}));
      EXPECT_TRUE(readsTheFile(*source, end_));
      EXPECT_EQ(readWholeSource(*source), file_);
    }
  }
}

TEST_F(RemotePointFile, AnEndThatDoesNotMatchTheFileIsDropped) {
  server_.faults().shiftSuffixRanges = true;
  const auto source = openRemotePointFile(server_.url("f.copc.laz"));
  EXPECT_EQ(server_.requests(), 2u);
  EXPECT_TRUE(readsTheFile(*source, end_));
  EXPECT_EQ(server_.requests(), 3u) << "the end asked again";
}

TEST_F(RemotePointFile, AnEndOfAnotherVersionIsDropped) {
  // The end's first answer fails; the file is replaced before its retry, whose answer (the new
  // version) must not be read as the end of the version the first block came from.
  RemoteOptions slow = remoteOptions();
  slow.retryDelaySeconds = 1.0;
  setRemoteOptions(slow);
  server_.faults().failSuffixNext = 1;
  std::vector<uint8_t> other = file_;
  for (uint8_t& byte : other) byte ^= 0xff;
  std::thread replace([&] {
    // Once both first answers went out.
    for (int wait = 0; wait < 500; ++wait) {
      const auto log = server_.requestLog();
      if (log.size() >= 2 && log[0].answerOrder != UINT64_MAX && log[1].answerOrder != UINT64_MAX) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    server_.put("f.copc.laz", other);
  });
  const auto source = openRemotePointFile(server_.url("f.copc.laz"));
  replace.join();
  EXPECT_EQ(server_.requests(), 3u) << "the end asked twice";
  std::vector<uint8_t> storage;
  try {
    source->read(end_.offset, end_.length, storage);
    FAIL() << "read the end of another version of the file";
  } catch (const RemoteError& error) {
    EXPECT_EQ(error.failure(), RemoteFailure::Changed);
  }
}

TEST_F(RemotePointFile, AServerWithoutRangesGivesASmallFileWhole) {
  server_.faults().ignoreRanges = true;
  const auto source = openRemotePointFile(server_.url("f.copc.laz"));
  ASSERT_EQ(source->whole().size(), kFileBytes);
  EXPECT_TRUE(std::equal(file_.begin(), file_.end(), source->whole().begin()));
}

TEST_F(RemotePointFile, AMissingFileFailsAsItsFirstBlock) {
  try {
    openRemotePointFile(server_.url("gone.copc.laz"));
    FAIL() << "opened a file that is not there";
  } catch (const RemoteError& error) {
    EXPECT_EQ(error.failure(), RemoteFailure::NotFound);
  }
}

}  // namespace
}  // namespace pcv
