// pcv edit: selections and actions through the command line, saved in place or to --out, with
// the report's figures; a save killed midway leaves the original; bad parameters fail with a
// report saying why; --log and --apply replay the same edits; the shared LAZ corpus's files are
// read, edited, saved and read again.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "http_test_server.hpp"
#include "json_report.hpp"
#include "laz_test_support.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/point_records.hpp"
#include "synthetic_point_files.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

namespace fs = std::filesystem;
using test::expectHierarchyNamesTheChunks;
using test::fileRecords;
using test::readBytes;

uint32_t classOf(const uint8_t* r, int format) {
  return format >= 6 ? r[16] : r[15] & 0x1F;
}

class EditCli : public ::testing::Test {
 protected:
  /// A 20 x 20 grid of points at x, y = 0..19 (point format 3), classes by column: x < 10 is
  /// class 1, the rest class 2; a LAZ and a COPC copy made by pcv convert.
  void SetUp() override {
    std::vector<test::SyntheticPoint> points;
    for (int y = 0; y < 20; ++y) {
      for (int x = 0; x < 20; ++x) {
        points.push_back({.x = double(x),
                          .y = double(y),
                          .z = double((x * y) % 7),
                          .intensity = uint16_t(x * 100 + y),
                          .classification = uint8_t(x < 10 ? 1 : 2)});
      }
    }
    las_ = dir_.file("grid.las");
    test::writeBytes(las_, test::makeLas(points, {.pointFormat = 3, .scale = 0.01}));
    laz_ = dir_.file("grid.laz");
    copc_ = dir_.file("grid.copc.laz");
    ASSERT_EQ(run(las_.string() + " " + laz_.string() + " --chunk-size 50 -q", "convert"), 0);
    ASSERT_EQ(run(las_.string() + " " + copc_.string() + " -q", "convert"), 0);
  }

  /// Runs `pcv COMMAND ARGUMENTS` and returns its exit status.
  int run(const std::string& arguments, const char* command = "edit",
          const std::string& environment = "") {
    std::string output;
    const int status = test::runCommand(
        environment + test::pcvExecutable().string() + " " + command + " " + arguments + " 2>&1",
        &output);
    output_ = output;
    return status;
  }

  nlohmann::json report() const { return test::readJsonReport(dir_.file("report.json")); }
  std::string reportFlag() const { return " --report " + dir_.file("report.json").string(); }

  test::TempDir dir_;
  fs::path las_, laz_, copc_;
  std::string output_;
};

TEST_F(EditCli, SetClassInPlaceChangesTheSelectedPointsOnly) {
  for (const fs::path& file : {las_, laz_, copc_}) {
    SCOPED_TRACE(file.string());
    LasWriteFormat format;
    const std::vector<uint8_t> before = fileRecords(file, &format);
    ASSERT_EQ(run(file.string() + " --clip-box 4.5,4.5,-1,7.5,9.5,10 --set-class 6 --in-place" +
                  reportFlag()),
              0)
        << output_;
    const std::vector<uint8_t> after = fileRecords(file);
    ASSERT_EQ(after.size(), before.size());
    uint64_t changed = 0;
    for (size_t i = 0; i < before.size() / format.recordLength; ++i) {
      const uint8_t* b = before.data() + i * format.recordLength;
      const uint8_t* a = after.data() + i * format.recordLength;
      int32_t xy[2];
      std::memcpy(xy, b, 8);
      const double x = xy[0] * format.scale.x + format.offset.x;
      const double y = xy[1] * format.scale.y + format.offset.y;
      const bool inBox = x >= 4.5 && x <= 7.5 && y >= 4.5 && y <= 9.5;
      std::vector<uint8_t> expected(b, b + format.recordLength);
      if (inBox) {
        if (format.pointFormat >= 6)
          expected[16] = 6;
        else
          expected[15] = uint8_t((expected[15] & 0xE0) | 6);
      }
      EXPECT_EQ(std::vector<uint8_t>(a, a + format.recordLength), expected) << "record " << i;
      changed += inBox;
    }
    EXPECT_EQ(changed, 15u);  // x 5-7, y 5-9
    const nlohmann::json r = report();
    EXPECT_EQ(r["edit"]["changed"], 15);
    EXPECT_EQ(r["edit"]["files"][0]["selected"][0], 15);
    EXPECT_EQ(r["edit"]["files"][0]["saved"], true);
    if (file == las_) {
      // 15 records of 400: written where they are, nothing else.
      EXPECT_EQ(r["edit"]["files"][0]["recordsRewritten"], 15);
      EXPECT_EQ(r["edit"]["files"][0]["writtenInPlace"], true);
    }
    if (file == laz_) {
      // 50-point chunks: rows 0-1 hold no point of the box; rows 4-9 do.
      EXPECT_GE(r["edit"]["files"][0]["chunksCopied"].get<int>(), 2);
      EXPECT_GE(r["edit"]["files"][0]["chunksReencoded"].get<int>(), 1);
    }
  }
}

TEST_F(EditCli, DeleteThenRestoreToOutGivesTheRecordsBack) {
  const fs::path deleted = dir_.file("deleted.laz");
  const fs::path restored = dir_.file("restored.laz");
  ASSERT_EQ(run(laz_.string() + " --classes 2 --delete --out " + deleted.string()), 0) << output_;
  ASSERT_EQ(run(deleted.string() + " --restore --out " + restored.string() + reportFlag()), 0)
      << output_;
  EXPECT_EQ(report()["edit"]["changed"], 200);
  EXPECT_EQ(fileRecords(restored), fileRecords(laz_));
  EXPECT_NE(fileRecords(deleted), fileRecords(laz_));
}

TEST_F(EditCli, LogReplaysTheSameEditsOnAnotherCopy) {
  const fs::path copy = dir_.file("copy.copc.laz");
  fs::copy_file(copc_, copy);
  const fs::path log = dir_.file("edits.json");
  ASSERT_EQ(run(copc_.string() +
                " --clip-polygon 0,0,9.5,0,9.5,9.5 --returns first --set-class 9 "
                "--in-place --log " +
                log.string()),
            0)
      << output_;
  ASSERT_EQ(run(copy.string() + " --apply " + log.string() + " --in-place" + reportFlag()), 0)
      << output_;
  EXPECT_GT(report()["edit"]["changed"].get<int>(), 0);
  EXPECT_EQ(readBytes(copy), readBytes(copc_));
  expectHierarchyNamesTheChunks(copy);
}

TEST_F(EditCli, SeveralFilesGoIntoTheOutFolder) {
  const fs::path folder = dir_.file("edited");
  ASSERT_EQ(run(las_.string() + " " + laz_.string() + " --set-class 3 --out " + folder.string() +
                reportFlag()),
            0)
      << output_;
  for (const fs::path& file : {las_, laz_}) {
    const std::vector<uint8_t> records = fileRecords(folder / file.filename());
    for (size_t i = 0; i < 400; ++i) EXPECT_EQ(classOf(records.data() + i * 34, 3), 3u);
  }
  EXPECT_EQ(report()["edit"]["files"].size(), 2u);

  // A folder stands for its files: each is saved into the --out folder under its name.
  const fs::path tiles = dir_.file("tiles");
  fs::create_directory(tiles);
  fs::copy_file(las_, tiles / "a.las");
  fs::copy_file(laz_, tiles / "b.laz");
  const fs::path tilesOut = dir_.file("tiles-edited");
  ASSERT_EQ(run(tiles.string() + " --classes 1 --delete --out " + tilesOut.string() + reportFlag()),
            0)
      << output_;
  EXPECT_EQ(report()["edit"]["files"].size(), 2u);
  EXPECT_EQ(report()["edit"]["changed"], 400);  // 200 of class 1 in each
  EXPECT_TRUE(fs::exists(tilesOut / "a.las"));
  EXPECT_TRUE(fs::exists(tilesOut / "b.laz"));

  // A VPC stands for its tiles too: in place, each tile is saved where it is.
  const fs::path vpc = dir_.file("tiles.vpc");
  ASSERT_EQ(run(vpc.string() + " " + tiles.string(), "vpc"), 0) << output_;
  ASSERT_EQ(run(vpc.string() + " --classes 2 --set-class 8 --in-place" + reportFlag()), 0)
      << output_;
  EXPECT_EQ(report()["edit"]["changed"], 400);
  for (const char* tile : {"a.las", "b.laz"}) {
    const std::vector<uint8_t> records = fileRecords(tiles / tile);
    for (size_t i = 0; i < 400; ++i) {
      EXPECT_EQ(classOf(records.data() + i * 34, 3), i % 20 < 10 ? 1u : 8u);
    }
  }
}

TEST_F(EditCli, UrlIsSavedToOutButNeverInPlace) {
  test::HttpTestServer server;
  server.putFile("grid.copc.laz", copc_.string());
  const std::string url = server.url("grid.copc.laz");
  EXPECT_NE(run(url + " --set-class 5 --in-place" + reportFlag()), 0);
  EXPECT_EQ(report()["edit"]["errorKind"], "input");
  const fs::path out = dir_.file("from-url.copc.laz");
  ASSERT_EQ(run(url + " --classes 2 --set-class 5 --out " + out.string() + reportFlag()), 0)
      << output_;
  EXPECT_EQ(report()["edit"]["changed"], 200);
  // The same as the edit of the local file, and no temporary copy left beside the output.
  const fs::path local = dir_.file("from-file.copc.laz");
  ASSERT_EQ(run(copc_.string() + " --classes 2 --set-class 5 --out " + local.string()), 0);
  EXPECT_EQ(readBytes(out), readBytes(local));
  for (const fs::directory_entry& entry : fs::directory_iterator(dir_.file(""))) {
    EXPECT_EQ(entry.path().filename().string().find(".download"), std::string::npos);
  }
}

TEST_F(EditCli, KilledSaveLeavesTheOriginal) {
  for (const fs::path& file : {las_, laz_, copc_}) {
    SCOPED_TRACE(file.string());
    const std::vector<uint8_t> original = readBytes(file);
    const int status =
        run(file.string() + " --set-class 4 --in-place", "edit", "PCV_TEST_KILL_SAVE_AT_BYTES=1 ");
    EXPECT_NE(status, 0);
    EXPECT_EQ(readBytes(file), original);
    // The kill came while the temporary file beside it was written (it stays, as a kill
    // leaves it): never under the output's name.
    bool partial = false;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_.file(""))) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(file.filename().string() + ".partial-", 0) == 0) {
        partial = true;
        fs::remove(entry.path());
      }
    }
    EXPECT_TRUE(partial);
  }
}

TEST_F(EditCli, KilledInPlaceSaveIsPutBackByTheNextOpen) {
  // A few records: saved into the file itself under a journal, which the kill leaves behind.
  const std::vector<uint8_t> original = readBytes(las_);
  const int status =
      run(las_.string() + " --clip-box 4.5,4.5,-1,7.5,9.5,10 --set-class 4 --in-place", "edit",
          "PCV_TEST_KILL_SAVE_AT_BYTES=1 ");
  EXPECT_NE(status, 0);
  const fs::path journal = las_.string() + ".pcv-journal";
  ASSERT_TRUE(fs::exists(journal));
  EXPECT_NE(readBytes(las_), original);
  // Any pcv command that opens the file puts it back first.
  ASSERT_EQ(run(las_.string(), "info"), 0) << output_;
  EXPECT_EQ(readBytes(las_), original);
  EXPECT_FALSE(fs::exists(journal));
}

TEST_F(EditCli, BadParametersFailWithAReport) {
  const std::vector<uint8_t> original = readBytes(las_);
  const std::string in = las_.string() + " ";
  const std::string bad[] = {
      in + "--set-class 32 --in-place",   // format 3 holds 0-31
      in + "--set-class 256 --in-place",  // no LAS class
      in + "--set-class -1 --in-place",
      in + "--in-place",                     // no action
      in + "--delete --restore --in-place",  // two actions
      in + "--set-class 2 --delete --in-place",
      in + "--delete",                                       // no output
      in + "--delete --in-place --out x.las",                // two outputs
      in + "--delete --out " + dir_.file("x.laz").string(),  // another format
      in + "--delete --out " + las_.string(),                // an input
      in + "--clip-box 1,1,1,0,0,0 --delete --in-place",
      in + "--range colour=1:2 --delete --in-place",
      in + "--apply " + dir_.file("missing.json").string() + " --in-place",
      in + "--apply " + las_.string() + " --delete --in-place",
      "http://127.0.0.1:9/grid.laz --delete --in-place",                            // read-only
      "http://127.0.0.1:9/grid.laz --delete --out " + dir_.file("u.laz").string(),  // no server
  };
  for (const std::string& arguments : bad) {
    fs::remove(dir_.file("report.json"));
    EXPECT_NE(run(arguments + reportFlag()), 0) << arguments;
    const nlohmann::json r = report();
    EXPECT_TRUE(r["edit"].contains("error")) << arguments;
    EXPECT_EQ(r["edit"]["errorKind"], "input") << arguments;
    EXPECT_EQ(readBytes(las_), original) << arguments;
  }
}

TEST_F(EditCli, CorpusFilesSurviveReadEditSaveRead) {
  PCV_REQUIRE_LAZ_CORPUS();
  int edited = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(test::lazCorpusDir())) {
    const fs::path input = entry.path();
    const std::string name = input.filename().string();
    if (input.extension() != ".laz" && input.extension() != ".las") continue;
    std::unique_ptr<PointRecordStream> stream;
    try {
      stream = openLasRecords(input);
    } catch (const std::exception&) {
      continue;  // the corpus's broken files: their readers' tests cover them
    }
    SCOPED_TRACE(name);
    const fs::path output = dir_.file("edited-" + name);
    const int status =
        run(input.string() + " --classes 2 --set-class 9 --out " + output.string() + reportFlag());
    const nlohmann::json r = report();
    if (status != 0) {
      // Pointwise LAZ, or no chunk table: refused with a reason, nothing written.
      EXPECT_EQ(r["edit"]["errorKind"], "input") << output_;
      EXPECT_FALSE(fs::exists(output));
      continue;
    }
    LasWriteFormat format;
    const std::vector<uint8_t> before = fileRecords(input, &format);
    const std::vector<uint8_t> after = fileRecords(output);
    ASSERT_EQ(after.size(), before.size());
    uint64_t changed = 0;
    for (size_t i = 0; i < before.size() / format.recordLength; ++i) {
      std::vector<uint8_t> expected(before.begin() + i * format.recordLength,
                                    before.begin() + (i + 1) * format.recordLength);
      if (classOf(expected.data(), format.pointFormat) == 2) {
        if (format.pointFormat >= 6)
          expected[16] = 9;
        else
          expected[15] = uint8_t((expected[15] & 0xE0) | 9);
        ++changed;
      }
      ASSERT_TRUE(
          std::equal(expected.begin(), expected.end(), after.begin() + i * format.recordLength))
          << "record " << i;
    }
    EXPECT_EQ(r["edit"]["changed"], changed);
    if (isCopcFile(input)) expectHierarchyNamesTheChunks(output);
    ++edited;
  }
  EXPECT_GT(edited, 10);
}

}  // namespace
}  // namespace pcv
