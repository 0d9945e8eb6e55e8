// RFC 3986 references: the resolution examples of its section 5.4 (normal and abnormal), the
// split, percent-encoding, origins, and locations made fit for messages.
#include <gtest/gtest.h>

#include "pcv/io/uri_reference.hpp"

namespace pcv {
namespace {

constexpr const char* kRfcBase = "http://a/b/c/d;p?q";

TEST(UriReference, ResolvesTheNormalExamplesOfRfc3986) {
  const std::pair<const char*, const char*> examples[] = {
      {"g:h", "g:h"},
      {"g", "http://a/b/c/g"},
      {"./g", "http://a/b/c/g"},
      {"g/", "http://a/b/c/g/"},
      {"/g", "http://a/g"},
      {"//g", "http://g"},
      {"?y", "http://a/b/c/d;p?y"},
      {"g?y", "http://a/b/c/g?y"},
      {"#s", "http://a/b/c/d;p?q#s"},
      {"g#s", "http://a/b/c/g#s"},
      {"g?y#s", "http://a/b/c/g?y#s"},
      {";x", "http://a/b/c/;x"},
      {"g;x", "http://a/b/c/g;x"},
      {"g;x?y#s", "http://a/b/c/g;x?y#s"},
      {"", "http://a/b/c/d;p?q"},
      {".", "http://a/b/c/"},
      {"./", "http://a/b/c/"},
      {"..", "http://a/b/"},
      {"../", "http://a/b/"},
      {"../g", "http://a/b/g"},
      {"../..", "http://a/"},
      {"../../", "http://a/"},
      {"../../g", "http://a/g"},
  };
  for (const auto& [reference, target] : examples) {
    EXPECT_EQ(resolveUriReference(kRfcBase, reference), target) << reference;
  }
}

TEST(UriReference, ResolvesTheAbnormalExamplesOfRfc3986) {
  const std::pair<const char*, const char*> examples[] = {
      {"../../../g", "http://a/g"},
      {"../../../../g", "http://a/g"},
      {"/./g", "http://a/g"},
      {"/../g", "http://a/g"},
      {"g.", "http://a/b/c/g."},
      {".g", "http://a/b/c/.g"},
      {"g..", "http://a/b/c/g.."},
      {"..g", "http://a/b/c/..g"},
      {"./../g", "http://a/b/g"},
      {"./g/.", "http://a/b/c/g/"},
      {"g/./h", "http://a/b/c/g/h"},
      {"g/../h", "http://a/b/c/h"},
      {"g;x=1/./y", "http://a/b/c/g;x=1/y"},
      {"g;x=1/../y", "http://a/b/c/y"},
      {"g?y/./x", "http://a/b/c/g?y/./x"},
      {"g?y/../x", "http://a/b/c/g?y/../x"},
      {"g#s/./x", "http://a/b/c/g#s/./x"},
      {"g#s/../x", "http://a/b/c/g#s/../x"},
      {"http:g", "http:g"},  // strict: a scheme makes the reference absolute
  };
  for (const auto& [reference, target] : examples) {
    EXPECT_EQ(resolveUriReference(kRfcBase, reference), target) << reference;
  }
}

TEST(UriReference, ALongPathResolvesInLinearTime) {
  // 2 MB of segments and as many "..": quadratic work would take minutes.
  std::string path;
  for (int i = 0; i < 500000; ++i) path += "ab/";
  for (int i = 0; i < 500000; ++i) path += "../";
  EXPECT_EQ(resolveUriReference("http://h/d/", path + "x"), "http://h/d/x");
}

TEST(UriReference, SplitsIntoFivePartsAndWritesThemBack) {
  const UriReference parts = splitUriReference("https://u:p@h:8/a/b.vpc?sig=1#top");
  EXPECT_EQ(parts.scheme, "https");
  EXPECT_EQ(parts.authority, "u:p@h:8");
  EXPECT_EQ(parts.path, "/a/b.vpc");
  EXPECT_EQ(parts.query, "sig=1");
  EXPECT_EQ(parts.fragment, "top");
  EXPECT_EQ(parts.text(), "https://u:p@h:8/a/b.vpc?sig=1#top");
  // A colon after a '/' or in a name that cannot be a scheme is part of a path.
  EXPECT_FALSE(splitUriReference("./a:b.laz").scheme);
  EXPECT_FALSE(splitUriReference("1a:b").scheme);
  EXPECT_FALSE(splitUriReference("a b:c").scheme);
  EXPECT_EQ(splitUriReference("FILE:///etc/passwd").scheme, "FILE");
  EXPECT_FALSE(splitUriReference("x").query);
  EXPECT_EQ(splitUriReference("x?").query, "");
}

TEST(UriReference, KeepsTheBaseQueryOnlyForEmptyAndFragmentReferences) {
  const std::string signed_ = "https://h/d/index.vpc?token=abc";
  EXPECT_EQ(resolveUriReference(signed_, "t.laz"), "https://h/d/t.laz");
  EXPECT_EQ(resolveUriReference(signed_, "t.laz?token=def"), "https://h/d/t.laz?token=def");
  EXPECT_EQ(resolveUriReference(signed_, "#f"), "https://h/d/index.vpc?token=abc#f");
  EXPECT_EQ(resolveUriReference(signed_, ""), signed_);
}

TEST(UriReference, PercentEncodesWhatAUriCannotHoldOnce) {
  EXPECT_EQ(percentEncodeUri("tile one.laz"), "tile%20one.laz");
  EXPECT_EQ(percentEncodeUri("a%20b%zz%"), "a%20b%25zz%25");
  EXPECT_EQ(percentEncodeUri("x\r\ny\"<>\\^`{|}\x7f\xc3\xa9"),
            "x%0D%0Ay%22%3C%3E%5C%5E%60%7B%7C%7D%7F%C3%A9");
  EXPECT_EQ(percentEncodeUri("https://h:1/a/b?c=d&e#f"), "https://h:1/a/b?c=d&e#f");
  const std::string once = percentEncodeUri("a b%c\n");
  EXPECT_EQ(percentEncodeUri(once), once);
}

TEST(UriReference, OriginsCompareSchemeHostAndPort) {
  EXPECT_EQ(uriOrigin("HTTP://User:Pw@Example.ORG:80/x?y"), "http://example.org");
  EXPECT_EQ(uriOrigin("https://example.org:443/x"), "https://example.org");
  EXPECT_EQ(uriOrigin("https://example.org:8443/x"), "https://example.org:8443");
  EXPECT_EQ(uriOrigin("http://[::1]:8080/x"), "http://[::1]:8080");
  EXPECT_EQ(uriOrigin("http://[::1]/x"), "http://[::1]");
  EXPECT_NE(uriOrigin("http://a/x"), uriOrigin("https://a/x"));
  EXPECT_EQ(uriOrigin("/local/path"), "");
  EXPECT_EQ(uriOrigin("mailto:a@b"), "");
}

TEST(UriReference, LocationsForMessagesHoldNoCredentialsNoLineBreaksAndAreBounded) {
  EXPECT_EQ(locationForMessages("https://user:secret@host/a.laz"), "https://host/a.laz");
  EXPECT_EQ(locationForMessages("/d/a\r\nb\t\x01.laz"), "/d/a\\r\\nb\\t\\x01.laz");
  const std::string huge = "https://host/" + std::string(5 << 20, 'x');
  const std::string shown = locationForMessages(huge, 100);
  EXPECT_LT(shown.size(), 130u);
  EXPECT_EQ(shown.find('\n'), std::string::npos);
  EXPECT_EQ(shown.substr(0, 13), "https://host/");
  // Cut between UTF-8 sequences, never inside one.
  const std::string accents = locationForMessages(std::string(10, 'a') + "\xc3\xa9\xc3\xa9", 11);
  EXPECT_EQ(accents.substr(0, 10), std::string(10, 'a'));
  EXPECT_NE(static_cast<unsigned char>(accents[10]), 0xc3);
}

}  // namespace
}  // namespace pcv
