// readVirtualPointCloud / parseVirtualPointCloud: the fields of each item, resolved hrefs, and
// malformed VPCs refused with the place of the fault.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <iterator>
#include <sstream>
#include <streambuf>

#include <gtest/gtest.h>

#include "http_test_server.hpp"
#include "io_test_util.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/virtual_point_cloud.hpp"

namespace pcv::test {
namespace {

VirtualPointCloud parse(const std::string& text, const std::string& base = "/data/tiles") {
  std::istringstream input(text);
  return parseVirtualPointCloud(input, "test.vpc", base);
}

/// A VPC of one item whose members are `item` (JSON text without braces).
std::string oneItem(const std::string& item) {
  return R"({"type": "FeatureCollection", "features": [{)" + item + "}]}";
}

constexpr const char* kData = R"("assets": {"data": {"href": "./a.copc.laz"}})";

TEST(VpcReader, ReadsTheFieldsOfAnItem) {
  const VirtualPointCloud vpc = parse(R"({
    "type": "FeatureCollection",
    "features": [{
      "type": "Feature", "stac_version": "1.0.0", "id": "a",
      "geometry": null,
      "bbox": [2.1, 48.5, 10.0, 2.2, 48.6, 30.5],
      "properties": {"pc:count": 1234, "proj:bbox": [650000, 6860000, 10, 651000, 6861000, 30.5],
                     "proj:epsg": 2154, "proj:wkt2": "PROJCRS[\"RGF93 v1 / Lambert-93\"]"},
      "links": [],
      "assets": {"data": {"href": "./a.copc.laz", "roles": ["data"]},
                 "overview": {"href": "../overview.copc.laz", "roles": ["overview"]}}
    }]})");
  ASSERT_EQ(vpc.tiles.size(), 1u);
  const VpcTile& tile = vpc.tiles[0];
  EXPECT_EQ(tile.id, "a");
  EXPECT_EQ(tile.location, "/data/tiles/a.copc.laz");
  EXPECT_EQ(tile.pointCount, 1234u);
  ASSERT_TRUE(tile.nativeBounds);
  EXPECT_EQ(tile.nativeBounds->min, glm::dvec3(650000, 6860000, 10));
  EXPECT_EQ(tile.nativeBounds->max, glm::dvec3(651000, 6861000, 30.5));
  ASSERT_TRUE(tile.geographicBounds);
  EXPECT_EQ(tile.geographicBounds->west, 2.1);
  EXPECT_EQ(tile.geographicBounds->north, 48.6);
  EXPECT_EQ(vpc.crsOf(tile).epsg, 2154);
  EXPECT_EQ(vpc.crsOf(tile).label(), "RGF93 v1 / Lambert-93");
  ASSERT_EQ(tile.overviews.size(), 1u);
  EXPECT_EQ(tile.overviews[0], "/data/overview.copc.laz");
}

TEST(VpcReader, OptionalFieldsMayBeMissingOrNull) {
  const VirtualPointCloud vpc = parse(
      oneItem(std::string(kData) + R"(, "properties": {"pc:count": null, "proj:epsg": null})"));
  ASSERT_EQ(vpc.tiles.size(), 1u);
  EXPECT_FALSE(vpc.tiles[0].pointCount);
  EXPECT_FALSE(vpc.tiles[0].nativeBounds);
  EXPECT_FALSE(vpc.crsOf(vpc.tiles[0]).known());
  EXPECT_TRUE(parse(R"({"features": []})").tiles.empty());
}

TEST(VpcReader, ATwoDimensionalBboxLeavesHeightsAtZero) {
  const VirtualPointCloud vpc =
      parse(oneItem(std::string(kData) + R"(, "properties": {"proj:bbox": [1, 2, 3, 4]})"));
  EXPECT_EQ(vpc.tiles[0].nativeBounds->min, glm::dvec3(1, 2, 0));
  EXPECT_EQ(vpc.tiles[0].nativeBounds->max, glm::dvec3(3, 4, 0));
}

TEST(VpcReader, ResolvesHrefsAgainstTheVpc) {
  EXPECT_EQ(resolveVpcHref("/d/vpc", "./t/a.laz"), "/d/vpc/t/a.laz");
  EXPECT_EQ(resolveVpcHref("/d/vpc", "../a.laz"), "/d/a.laz");
  EXPECT_EQ(resolveVpcHref("/d/vpc", "/other/a.laz"), "/other/a.laz");
  EXPECT_EQ(resolveVpcHref("/d/vpc", "file:///other/a.laz"), "/other/a.laz");
  EXPECT_EQ(resolveVpcHref("/d/vpc", "https://host/x/a.copc.laz"), "https://host/x/a.copc.laz");
  EXPECT_EQ(resolveVpcHref("https://host/x/", "./a.copc.laz"), "https://host/x/a.copc.laz");
  EXPECT_EQ(resolveVpcHref("https://host/x/index.vpc", "./a.copc.laz"),
            "https://host/x/a.copc.laz");
  EXPECT_EQ(resolveVpcHref("https://host/x/", "t/a.laz"), "https://host/x/t/a.laz");
  EXPECT_TRUE(isUrl("HTTPS://host/a.laz"));
  EXPECT_TRUE(isUrl("s3://bucket/a.laz"));
  EXPECT_FALSE(isUrl("./http.laz"));
}

TEST(VpcReader, ARemoteVpcNamesWebResourcesOnly) {
  const std::string base = "https://host:8443/d/index.vpc?sig=1";
  // Paths of every kind stay on the VPC's server.
  EXPECT_EQ(resolveVpcHref(base, "/etc/passwd"), "https://host:8443/etc/passwd");
  EXPECT_EQ(resolveVpcHref(base, "../../../x.laz"), "https://host:8443/x.laz");
  EXPECT_EQ(resolveVpcHref(base, "?other=2"), "https://host:8443/d/index.vpc?other=2");
  EXPECT_EQ(resolveVpcHref(base, "t.laz#frag"), "https://host:8443/d/t.laz#frag");
  EXPECT_EQ(resolveVpcHref(base, "tile one.laz"), "https://host:8443/d/tile%20one.laz");
  EXPECT_EQ(resolveVpcHref(base, "S3://bucket/key.laz"), "S3://bucket/key.laz");
  // A network-path reference is another server: allowed, unless on the VPC's origin only.
  EXPECT_EQ(resolveVpcHref(base, "//abs/path.laz"), "https://abs/path.laz");
  EXPECT_THROW(resolveVpcHref(base, "//abs/path.laz", {.sameOrigin = true}), InputError);
  EXPECT_THROW(resolveVpcHref(base, "http://host:8443/a.laz", {.sameOrigin = true}), InputError);
  EXPECT_EQ(resolveVpcHref(base, "HTTPS://HOST:8443/a.laz", {.sameOrigin = true}),
            "HTTPS://HOST:8443/a.laz");
  // An s3:// href is on the https host it is read from.
  EXPECT_EQ(
      resolveVpcHref("https://b.s3.amazonaws.com/i.vpc", "s3://b/t.laz", {.sameOrigin = true}),
      "s3://b/t.laz");
  EXPECT_THROW(
      resolveVpcHref("https://c.s3.amazonaws.com/i.vpc", "s3://b/t.laz", {.sameOrigin = true}),
      InputError);
  // No scheme that reaches the local disk or another protocol, in any case.
  for (const char* href :
       {"file:///etc/passwd", "FILE:/etc/passwd", "file:relative.laz", "ftp://host/a.laz",
        "data:,abc", "http:/etc/passwd", "https:a.laz", "http:///etc/passwd"}) {
    EXPECT_THROW(resolveVpcHref(base, href), InputError) << href;
  }
  EXPECT_THROW(resolveVpcHref(base, std::string(20000, 'a')), InputError);
}

TEST(VpcReader, ALocalVpcKeepsLocalPathsAndUrls) {
  EXPECT_EQ(resolveVpcHref("/d", "tile one.laz"), "/d/tile one.laz");
  EXPECT_EQ(resolveVpcHref("/d", "https://h/tile one.laz"), "https://h/tile%20one.laz");
  EXPECT_EQ(resolveVpcHref("/d", "s3://bucket/a.laz"), "s3://bucket/a.laz");
  EXPECT_THROW(resolveVpcHref("/d", "ftp://host/a.laz"), InputError);
  EXPECT_THROW(resolveVpcHref("/d", "javascript:x"), InputError);
}

TEST(VpcReader, ARemoteVpcRefusesLocalHrefsOfTilesAndOverviews) {
  const std::string remote = "https://host/index.vpc";
  EXPECT_THROW(parse(oneItem(R"("assets": {"data": {"href": "file:///etc/passwd"}})"), remote),
               InputError);
  EXPECT_THROW(parse(oneItem(R"("assets": {"data": {"href": "a.laz"},
                       "o": {"href": "file:///o.copc.laz", "roles": ["overview"]}})"),
                     remote),
               InputError);
  const VirtualPointCloud vpc = parse(oneItem(R"("assets": {"data": {"href": "/t/a.laz"},
                       "o": {"href": "/o.copc.laz", "roles": ["overview"]}})"),
                                      remote);
  EXPECT_EQ(vpc.tiles[0].location, "https://host/t/a.laz");
  EXPECT_EQ(vpc.tiles[0].overviews, std::vector<std::string>{"https://host/o.copc.laz"});
}

TEST(VpcReader, TilesShareOneCopyOfTheirCrs) {
  std::string text = R"({"features": [)";
  for (int i = 0; i < 5; ++i) {
    text += std::string(i ? "," : "") + R"({"assets": {"data": {"href": "t.laz"}},
              "properties": {"proj:wkt2": "PROJCRS[\"X\"]"}})";
  }
  const VirtualPointCloud vpc = parse(text + "]}");
  ASSERT_EQ(vpc.tiles.size(), 5u);
  EXPECT_EQ(vpc.coordinateSystems.size(), 1u);
  EXPECT_EQ(vpc.tiles[4].crsIndex, 0u);
}

struct MalformedCase {
  const char* what;
  std::string text;
  std::string where;  ///< the JSON pointer or "byte N" the error must name
};

TEST(VpcReader, RejectsMalformedFilesNamingWhere) {
  const std::string data = kData;
  const std::vector<MalformedCase> cases = {
      {"not JSON", "{\"features\": [", "byte "},
      {"a JSON array", "[1, 2]", "/"},
      {"no features", R"({"type": "FeatureCollection"})", "/features"},
      {"features an object", R"({"features": {"a": 1}})", "/features"},
      {"wrong collection type", R"({"type": "Feature", "features": []})", "/type"},
      {"an item not an object", R"({"features": [1]})", "/features/0"},
      {"no assets", oneItem(R"("type": "Feature")"), "/features/0/assets"},
      {"no data asset", oneItem(R"("assets": {})"), "/features/0/assets/data"},
      {"no href", oneItem(R"("assets": {"data": {}})"), "/features/0/assets/data/href"},
      {"href a number", oneItem(R"("assets": {"data": {"href": 3}})"),
       "/features/0/assets/data/href"},
      {"empty href", oneItem(R"("assets": {"data": {"href": ""}})"),
       "/features/0/assets/data/href"},
      {"negative count", oneItem(data + R"(, "properties": {"pc:count": -5})"),
       "/features/0/properties/pc:count"},
      {"fractional count", oneItem(data + R"(, "properties": {"pc:count": 2.5})"),
       "/features/0/properties/pc:count"},
      {"count a string", oneItem(data + R"(, "properties": {"pc:count": "7"})"),
       "/features/0/properties/pc:count"},
      {"min above max", oneItem(data + R"(, "properties": {"proj:bbox": [0, 0, 5, 1, 1, 4]})"),
       "/features/0/properties/proj:bbox"},
      {"bbox of 5", oneItem(data + R"(, "properties": {"proj:bbox": [0, 0, 0, 1, 1]})"),
       "/features/0/properties/proj:bbox"},
      {"bbox of strings", oneItem(data + R"(, "properties": {"proj:bbox": ["0", 0, 1, 1]})"),
       "/features/0/properties/proj:bbox/0"},
      {"huge number", oneItem(data + R"(, "properties": {"proj:bbox": [0, 0, 1e999, 1]})"),
       "byte "},
      {"latitude 91", oneItem(data + R"(, "bbox": [0, 0, 1, 91])"), "/features/0/bbox"},
      {"epsg negative", oneItem(data + R"(, "properties": {"proj:epsg": -1})"),
       "/features/0/properties/proj:epsg"},
      {"properties an array", oneItem(data + R"(, "properties": [])"), "/features/0/properties"},
      {"overview without href",
       oneItem(R"("assets": {"data": {"href": "a"}, "o": {"roles": ["overview"]}})"),
       "/features/0/assets/o/href"},
      {"deep nesting",
       "{\"features\": [{\"x\": " + std::string(100, '[') + std::string(100, ']') + "}]}",
       "/features/0"},
  };
  for (const MalformedCase& c : cases) {
    try {
      parse(c.text);
      ADD_FAILURE() << c.what << ": accepted";
    } catch (const InputError& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.rfind("test.vpc: ", 0), 0u) << c.what << ": " << message;
      EXPECT_NE(message.find(c.where), std::string::npos) << c.what << ": " << message;
    }
  }
}

TEST(VpcReader, SecondFeatureFaultNamesItsIndex) {
  const std::string text = R"({"features": [{"assets": {"data": {"href": "a"}}},
                                            {"assets": {"data": {"href": null}}}]})";
  try {
    parse(text);
    FAIL() << "accepted";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("/features/1/assets/data/href"), std::string::npos)
        << error.what();
  }
}

TEST(VpcReader, RejectsAMissingFile) {
  EXPECT_THROW(readVirtualPointCloud("/nonexistent/dir/x.vpc"), InputError);
}

/// Produces a VPC of `count` items as the parser asks for it, never holding the whole text:
/// items like pdal_wrench's, with a WKT of about 1 KB each.
class GeneratedVpc : public std::streambuf {
 public:
  explicit GeneratedVpc(uint64_t count) : count_(count) {
    text_ = R"({"features": [)";
    reset();
  }

 private:
  int_type underflow() override {
    if (next_ > count_) return traits_type::eof();
    text_.clear();
    if (next_ == count_) {
      text_ = "]}";
    } else {
      text_ = std::string(next_ ? "," : "") + R"({"type": "Feature", "id": "tile)" +
              std::to_string(next_) + R"(", "assets": {"data": {"href": "./tile)" +
              std::to_string(next_) + R"(.copc.laz", "roles": ["data"]}},
              "properties": {"pc:count": 1000000, "proj:bbox": [0, 0, 0, 1000, 1000, 50],
              "proj:wkt2": ")" +
              std::string(1000, 'W') + R"("}})";
    }
    ++next_;
    reset();
    return traits_type::to_int_type(text_[0]);
  }
  void reset() { setg(text_.data(), text_.data(), text_.data() + text_.size()); }

  uint64_t count_, next_ = 0;
  std::string text_;
};

TEST(VpcReader, HundredThousandItemsParseInBoundedMemory) {
  // In a child process, so its peak resident memory is measured alone: that of the whole
  // document in nlohmann's DOM would be about 300 MB here.
  constexpr uint64_t kItems = 100000;
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    GeneratedVpc text(kItems);
    std::istream input(&text);
    const VirtualPointCloud vpc = parseVirtualPointCloud(input, "generated.vpc", "/d");
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    const long grownMiB = (after.ru_maxrss - before.ru_maxrss) / 1024;
    const bool ok = vpc.tiles.size() == kItems && vpc.coordinateSystems.size() == 1 &&
                    vpc.totalPoints() == kItems * 1000000 && grownMiB < 96;
    if (!ok) std::fprintf(stderr, "items %zu, grew %ld MiB\n", vpc.tiles.size(), grownMiB);
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(VpcReader, ARemoteVpcIsParsedAsItArrivesAcrossBlocks) {
  // About 24 MB: several of the reader's 4 MiB blocks, items cut at their edges.
  constexpr uint64_t kItems = 20000;
  GeneratedVpc generated(kItems);
  std::istream text(&generated);
  const std::string bytes{std::istreambuf_iterator<char>(text), {}};
  ASSERT_GT(bytes.size(), 12u << 20);
  HttpTestServer server;
  server.put("d/set.vpc", std::vector<uint8_t>(bytes.begin(), bytes.end()));
  forgetRemoteSources();
  const VirtualPointCloud vpc = readVirtualPointCloud(server.url("d/set.vpc"));
  forgetRemoteSources();
  ASSERT_EQ(vpc.tiles.size(), kItems);
  EXPECT_EQ(vpc.totalPoints(), kItems * 1000000);
  EXPECT_EQ(vpc.tiles.front().location, server.url("d/tile0.copc.laz"));
  EXPECT_EQ(vpc.tiles.back().location,
            server.url("d/tile" + std::to_string(kItems - 1) + ".copc.laz"));
}

}  // namespace
}  // namespace pcv::test
