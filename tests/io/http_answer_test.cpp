// The heads of HTTP answers: what a range read relies on (status, Content-Range, validators),
// and heads that must be refused rather than trusted.
#include <gtest/gtest.h>

#include "remote/http_answer.hpp"

namespace pcv::io {
namespace {

TEST(HttpAnswer, ReadsAPartialContentHead) {
  const auto head = parseHttpHead(
      "HTTP/1.1 206 Partial Content\r\nContent-Length: 100\r\ncontent-range: bytes 100-199/1000\r\n"
      "ETag: \"abc\"\r\nLast-Modified: Wed, 02 Dec 2026 06:00:01 GMT\r\nAccept-Ranges: bytes\r\n\r\n");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 206);
  EXPECT_EQ(head->contentLength, 100u);
  ASSERT_TRUE(head->contentRange);
  EXPECT_EQ(head->contentRange->first, 100u);
  EXPECT_EQ(head->contentRange->last, 199u);
  EXPECT_EQ(head->contentRange->total, 1000u);
  EXPECT_EQ(head->etag, "\"abc\"");
  EXPECT_EQ(head->lastModified, "Wed, 02 Dec 2026 06:00:01 GMT");
  EXPECT_TRUE(head->acceptsRanges);
}

TEST(HttpAnswer, TheLastHeadCountsAfterARedirect) {
  const auto head = parseHttpHead(
      "HTTP/1.1 302 Found\r\nLocation: /b\r\nETag: \"old\"\r\n\r\nHTTP/2 200\r\ncontent-length: 5\n\n");
  ASSERT_TRUE(head);
  EXPECT_EQ(head->status, 200);
  EXPECT_EQ(head->contentLength, 5u);
  EXPECT_TRUE(head->etag.empty()) << "the redirect's ETag is not the file's";
}

TEST(HttpAnswer, UnsatisfiedRangeStatesTheSize) {
  const auto range = parseContentRange("bytes */0");
  ASSERT_TRUE(range);
  EXPECT_FALSE(range->satisfied);
  EXPECT_EQ(range->total, 0u);
}

TEST(HttpAnswer, RefusesMalformedRanges) {
  EXPECT_FALSE(parseContentRange("bytes 200-100/1000")) << "last before first";
  EXPECT_FALSE(parseContentRange("bytes 0-1000/1000")) << "past the total";
  EXPECT_FALSE(parseContentRange("items 0-1/2")) << "another unit";
  EXPECT_FALSE(parseContentRange("bytes 0-99999999999999999999999/1")) << "beyond 64 bits";
  EXPECT_FALSE(parseContentRange("bytes */*"));
  EXPECT_FALSE(parseContentRange("bytes 1-2"));
  const auto unknownTotal = parseContentRange("bytes 0-9/*");
  ASSERT_TRUE(unknownTotal);
  EXPECT_FALSE(unknownTotal->total);
}

TEST(HttpAnswer, RefusesHeadsWithoutAStatusLine) {
  EXPECT_FALSE(parseHttpHead(""));
  EXPECT_FALSE(parseHttpHead("Content-Length: 5\r\n\r\n"));
  EXPECT_FALSE(parseHttpHead("HTTP/1.1 2x6 Partial\r\n"));
  EXPECT_FALSE(parseHttpHead("HTTP/1.1 999 What\r\n"));
  const auto badLength = parseHttpHead("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n");
  ASSERT_TRUE(badLength);
  EXPECT_FALSE(badLength->contentLength) << "a malformed length is left unset, not guessed";
}

}  // namespace
}  // namespace pcv::io
