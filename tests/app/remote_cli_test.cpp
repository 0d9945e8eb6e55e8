// `pcv render` and `pcv info` of URLs served on loopback (tests/support/http_test_server): the
// PNG of a COPC URL is the PNG of the file, --http-connections is taken, and a missing file or a
// server that refuses ends with a non-zero status.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "http_test_server.hpp"
#include "io_test_util.hpp"
#include "json_report.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

int pcv(const std::string& arguments, std::string* text) {
  return test::runCommand(test::pcvExecutable().string() + " " + arguments, text);
}

std::vector<char> bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(RemoteCli, RenderOfACopcUrlWritesThePngOfTheFile) {
  test::TempDir dir;
  const std::string local = test::writeCopcTile(dir.file("a.copc.laz"), 0, 0, 120).string();
  test::HttpTestServer server;
  server.putFile("a.copc.laz", local);
  const std::string common = " --backend cpu --size 200x120 --out ";
  std::string text;
  ASSERT_EQ(pcv("render " + local + common + dir.file("local.png").string(), &text), 0) << text;
  ASSERT_EQ(pcv("render " + server.url("a.copc.laz") + " --http-connections 4" + common +
                    dir.file("remote.png").string(),
                &text),
            0)
      << text;
  EXPECT_EQ(bytesOf(dir.file("local.png").string()), bytesOf(dir.file("remote.png").string()));
}

TEST(RemoteCli, InfoOfAUrlReadsTheHeaderByRanges) {
  test::TempDir dir;
  const std::string local = test::writeCopcTile(dir.file("a.copc.laz"), 0, 0, 120).string();
  test::HttpTestServer server;
  server.putFile("a.copc.laz", local);
  const std::string report = dir.file("info.json").string();
  std::string text;
  ASSERT_EQ(pcv("info " + server.url("a.copc.laz") + " --report " + report, &text), 0) << text;
  const nlohmann::json files = test::readJsonReport(report).value("files", nlohmann::json::array());
  ASSERT_EQ(files.size(), 1u) << text;
  EXPECT_EQ(files[0].value("format", ""), "COPC");
  EXPECT_EQ(files[0].value("points", 0ull), 14400u);
  EXPECT_LT(server.requests(), 10u) << "the header, VLRs, chunk table and hierarchy only";
}

TEST(RemoteCli, MissingAndRefusedUrlsFail) {
  test::HttpTestServer server;
  server.put("secret.laz", std::vector<uint8_t>(1000, 1));
  server.setStatus("secret.laz", 403);
  std::string text;
  EXPECT_NE(pcv("info " + server.url("missing.copc.laz"), &text), 0) << text;
  EXPECT_NE(pcv("render --backend cpu " + server.url("secret.laz") + " --out /dev/null", &text), 0)
      << text;
}

}  // namespace
}  // namespace pcv
