// Datasets whose VPC or tiles are on a web server (tests/support/http_test_server, loopback):
// a remote VPC reaches no local file, tiles stay on its origin unless --tile-origins any, a
// FIFO is refused instead of waited on, a trickling server ends in an error within
// --http-timeout, a dataset stops at its first failed tile (or, with --skip-bad-tiles, leaves
// failed tiles out), a VPC's duplicate items are read once, and messages carry no credentials,
// raw line breaks or unbounded hrefs. Every command runs under `timeout`, so a regression fails
// the test instead of hanging it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "http_test_server.hpp"
#include "io_test_util.hpp"
#include "json_report.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// Runs pcv with `arguments` under a 120 s guard; the exit status, and the seconds it took.
int pcv(const std::string& arguments, std::string* text, double* seconds = nullptr) {
  const auto start = std::chrono::steady_clock::now();
  const int status =
      test::runCommand("timeout 120 " + test::pcvExecutable().string() + " " + arguments, text);
  if (seconds) {
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return status;
}

/// A VPC whose items name `hrefs` (JSON string contents, escaped by the caller), in order.
std::string vpcOf(const std::vector<std::string>& hrefs) {
  std::string text = R"({"type": "FeatureCollection", "features": [)";
  for (size_t i = 0; i < hrefs.size(); ++i) {
    text += std::string(i ? "," : "") + R"({"type": "Feature", "stac_version": "1.0.0", "id": "t)" +
            std::to_string(i) +
            R"(", "geometry": null, "properties": {}, "assets": {"data": {"href": ")" + hrefs[i] +
            R"("}}})";
  }
  return text + "]}";
}

std::vector<uint8_t> bytesOf(const std::string& text) {
  return {text.begin(), text.end()};
}

/// A loopback port nothing listens on (bound, then closed).
int closedPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

class RemoteDatasetCli : public ::testing::Test {
 protected:
  void SetUp() override {
    tile_ = test::writeCopcTile(dir_.file("a.copc.laz"), 0, 0, 120).string();
    server_.putFile("a.copc.laz", tile_);
  }
  /// `pcv info` of the dataset at `url` with `extra` flags; the report in `report`.
  int info(const std::string& url, const std::string& extra, nlohmann::json* report = nullptr) {
    const std::string path = dir_.file("info.json").string();
    std::filesystem::remove(path);
    const int status = pcv("info '" + url + "' " + extra + " --report " + path, &text_);
    if (report && status == 0) *report = test::readJsonReport(path);
    return status;
  }

  test::TempDir dir_;
  test::HttpTestServer server_;
  std::string tile_;
  std::string text_;
};

TEST_F(RemoteDatasetCli, ARemoteVpcOpensItsTilesOverTheWeb) {
  server_.put("index.vpc", bytesOf(vpcOf({"a.copc.laz"})));
  nlohmann::json report;
  ASSERT_EQ(info(server_.url("index.vpc"), "", &report), 0) << text_;
  EXPECT_EQ(report["dataset"].value("tileCount", 0), 1);
  EXPECT_EQ(report["dataset"]["tiles"][0].value("path", ""), server_.url("a.copc.laz"));
}

TEST_F(RemoteDatasetCli, ARemoteVpcNeverOpensALocalFile) {
  // The tile exists on this disk at `tile_`: a remote VPC naming it in any way must not read it.
  for (const std::string& href : {"file://" + tile_, "FILE://" + tile_, tile_, "/" + tile_}) {
    server_.put("index.vpc", bytesOf(vpcOf({href})));
    EXPECT_NE(info(server_.url("index.vpc"), ""), 0) << href << "\n" << text_;
  }
  // "/abs/path" is a path on the VPC's server: asked there (and not found), never on the disk.
  EXPECT_GE(server_.requestsFor(tile_.substr(1)), 1u);
  // "//abs/path" names the host "abs" (here the folder's first name): refused as another origin.
  server_.put("index.vpc", bytesOf(vpcOf({"/" + tile_})));
  EXPECT_NE(info(server_.url("index.vpc"), ""), 0) << text_;
  // The same through the scene a render opens.
  server_.put("index.vpc", bytesOf(vpcOf({"file://" + tile_})));
  EXPECT_NE(pcv("render '" + server_.url("index.vpc") + "' --backend cpu --size 64x48 --out " +
                    dir_.file("r.png").string(),
                &text_),
            0)
      << text_;
}

TEST_F(RemoteDatasetCli, HrefsArePercentEncodedAndASignedVpcUrlOpens) {
  server_.putFile("d/tile%20one.copc.laz", tile_);
  server_.put("d/index.vpc", bytesOf(vpcOf({"tile one.copc.laz"})));
  nlohmann::json report;
  ASSERT_EQ(info(server_.url("d/index.vpc?token=abc&expires=1"), "", &report), 0) << text_;
  EXPECT_EQ(report["dataset"].value("tileCount", 0), 1);
  EXPECT_EQ(server_.requestsFor("d/tile%20one.copc.laz") > 0, true);
}

TEST_F(RemoteDatasetCli, TilesOnAnotherServerNeedTileOriginsAny) {
  test::HttpTestServer other;
  other.putFile("b.copc.laz", tile_);
  server_.put("index.vpc", bytesOf(vpcOf({other.url("b.copc.laz")})));
  EXPECT_NE(info(server_.url("index.vpc"), ""), 0) << text_;
  EXPECT_NE(info(server_.url("index.vpc"), "--tile-origins same"), 0) << text_;
  EXPECT_EQ(other.requests(), 0u) << "the other server was asked before the VPC was refused";
  EXPECT_EQ(info(server_.url("index.vpc"), "--tile-origins any"), 0) << text_;
  EXPECT_GT(other.requests(), 0u);
}

TEST_F(RemoteDatasetCli, AFifoIsRefusedNotWaitedOn) {
  const std::string fifo = dir_.file("pipe.copc.laz").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  test::writeText(dir_.file("local.vpc"), vpcOf({"pipe.copc.laz"}));
  double seconds = 0;
  const int viaVpc = pcv("info " + dir_.file("local.vpc").string(), &text_, &seconds);
  EXPECT_NE(viaVpc, 0) << text_;
  EXPECT_NE(viaVpc, 124) << "pcv waited on the FIFO";
  EXPECT_LT(seconds, 30.0);
  const int direct = pcv("info " + fifo, &text_);
  EXPECT_NE(direct, 0) << text_;
  EXPECT_NE(direct, 124) << "pcv waited on the FIFO";
  const int vpcFifo = ::mkfifo(dir_.file("pipe.vpc").c_str(), 0600);
  ASSERT_EQ(vpcFifo, 0);
  const int asVpc = pcv("info " + dir_.file("pipe.vpc").string(), &text_);
  EXPECT_NE(asVpc, 0) << text_;
  EXPECT_NE(asVpc, 124) << "pcv waited on the FIFO";
}

TEST_F(RemoteDatasetCli, ATricklingOrStalledServerEndsInAnErrorWithinTheTimeout) {
  server_.put("index.vpc", bytesOf(vpcOf({"a.copc.laz"})));
  // 4 KiB/s: above libcurl's 1 KiB/s floor, so only the deadline can end it; 10 B/s: stalled.
  for (const int rate : {4096, 10}) {
    server_.faults().trickleBytesPerSecond = rate;
    for (const std::string& url : {server_.url("a.copc.laz"), server_.url("index.vpc")}) {
      double seconds = 0;
      const std::string report = dir_.file("t.json").string();
      const int status = pcv("info " + url + " --http-timeout 2", &text_, &seconds);
      EXPECT_NE(status, 0) << url << " at " << rate << " B/s\n" << text_;
      EXPECT_NE(status, 124) << url << " at " << rate << " B/s";
      EXPECT_LT(seconds, 2.0 + 6.0) << url << " at " << rate << " B/s";
    }
  }
  server_.faults().trickleBytesPerSecond = 0;
}

TEST_F(RemoteDatasetCli, UnreachableTilesFailWithinSeconds) {
  const std::string base = "http://127.0.0.1:" + std::to_string(closedPort()) + "/t";
  std::vector<std::string> hrefs;
  for (int i = 0; i < 320; ++i) hrefs.push_back(base + std::to_string(i) + ".copc.laz");
  test::writeText(dir_.file("closed.vpc"), vpcOf(hrefs));
  double seconds = 0;
  EXPECT_NE(pcv("info " + dir_.file("closed.vpc").string(), &text_, &seconds), 0) << text_;
  // Each tile fails after its retries (about 3 s); all 320 tried took a minute.
  EXPECT_LT(seconds, 20.0);
}

TEST_F(RemoteDatasetCli, ADatasetStopsAtItsFirstFailedTile) {
  std::vector<std::string> hrefs;
  for (int i = 0; i < 320; ++i) hrefs.push_back("missing" + std::to_string(i) + ".copc.laz");
  server_.put("index.vpc", bytesOf(vpcOf(hrefs)));
  EXPECT_NE(info(server_.url("index.vpc"), ""), 0) << text_;
  // The VPC, then the tiles the 16 threads (--http-connections) had started when the first
  // one failed, not all 320.
  EXPECT_LT(server_.requests(), 50u);
}

TEST_F(RemoteDatasetCli, SkipBadTilesLeavesFailedTilesOutWithAWarningEach) {
  server_.put("index.vpc",
              bytesOf(vpcOf({"missing1.copc.laz", "a.copc.laz", "missing2.copc.laz"})));
  EXPECT_NE(info(server_.url("index.vpc"), ""), 0) << text_;
  nlohmann::json report;
  ASSERT_EQ(info(server_.url("index.vpc"), "--skip-bad-tiles", &report), 0) << text_;
  EXPECT_EQ(report["dataset"].value("tileCount", 0), 1);
  EXPECT_EQ(report["dataset"].value("points", 0ull), 14400u);
  EXPECT_EQ(report.value("warnings", nlohmann::json::array()).size(), 2u);
  // The scene the render opens takes it too.
  const std::string render = "render '" + server_.url("index.vpc") +
                             "' --backend cpu --size 64x48 --out " + dir_.file("s.png").string();
  EXPECT_NE(pcv(render, &text_), 0) << text_;
  EXPECT_EQ(pcv(render + " --skip-bad-tiles", &text_), 0) << text_;
  // With no tile left there is nothing to show: an error still.
  server_.put("none.vpc", bytesOf(vpcOf({"missing1.copc.laz", "missing2.copc.laz"})));
  EXPECT_NE(info(server_.url("none.vpc"), "--skip-bad-tiles"), 0) << text_;
}

TEST_F(RemoteDatasetCli, DuplicateItemsOfAVpcAreReadOnceWithAWarning) {
  test::writeCopcTile(dir_.file("b.copc.laz"), 1, 0, 60);
  test::writeText(dir_.file("dup.vpc"),
                  vpcOf({"a.copc.laz", "./a.copc.laz", "b.copc.laz", "a.copc.laz"}));
  nlohmann::json report;
  ASSERT_EQ(info(dir_.file("dup.vpc").string(), "", &report), 0) << text_;
  EXPECT_EQ(report["dataset"].value("tileCount", 0), 2);
  EXPECT_EQ(report["dataset"].value("points", 0ull), 14400u + 3600u);
  EXPECT_EQ(report.value("warnings", nlohmann::json::array()).size(), 1u);
}

TEST_F(RemoteDatasetCli, MessagesCarryNoCredentialsRawLineBreaksOrWholeHugeHrefs) {
  const std::string port = std::to_string(server_.port());
  test::writeText(dir_.file("secret.vpc"),
                  vpcOf({"http://user:s3cret@127.0.0.1:" + port + "/missing\\r\\nX: y.copc.laz"}));
  EXPECT_NE(pcv("info " + dir_.file("secret.vpc").string(), &text_), 0) << text_;
  EXPECT_EQ(text_.find("s3cret"), std::string::npos) << text_;
  EXPECT_EQ(text_.find('\r'), std::string::npos) << text_;
  // A local tile's name with a line break in it: escaped too, not split into two lines.
  test::writeText(dir_.file("breaks.vpc"), vpcOf({"miss\\r\\ning.copc.laz"}));
  EXPECT_NE(pcv("info " + dir_.file("breaks.vpc").string(), &text_), 0) << text_;
  EXPECT_EQ(text_.find('\r'), std::string::npos) << text_;
  EXPECT_EQ(text_.find("\ning.copc.laz"), std::string::npos) << text_;
  server_.put("huge.vpc", bytesOf(vpcOf({"file:///" + std::string(100000, 'x') + "\\r\\n"})));
  EXPECT_NE(info(server_.url("huge.vpc"), ""), 0) << text_;
  EXPECT_LT(text_.size(), 2000u);
  EXPECT_EQ(text_.find('\r'), std::string::npos);
}

}  // namespace
}  // namespace pcv
