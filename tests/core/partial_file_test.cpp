#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "pcv/core/partial_file.hpp"
#include "temp_dir.hpp"

namespace pcv {
namespace {

using test::TempDir;

std::string contentsOf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

size_t filesIn(const std::filesystem::path& folder) {
  size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++count;
  return count;
}

TEST(PartialFile, CommitPutsTheFileInPlace) {
  TempDir dir;
  const std::filesystem::path target = dir.file("out.las");
  {
    PartialFile partial(target, {});
    EXPECT_NE(partial.path(), target);
    EXPECT_EQ(partial.path().parent_path(), target.parent_path());
    writeText(partial.path(), "points");
    EXPECT_FALSE(std::filesystem::exists(target));
    partial.commit();
  }
  EXPECT_EQ(contentsOf(target), "points");
  EXPECT_EQ(filesIn(dir.file("")), 1u);
}

TEST(PartialFile, AbandonedWriteLeavesNothing) {
  TempDir dir;
  {
    PartialFile partial(dir.file("out.laz"), {});
    writeText(partial.path(), "half");
  }
  EXPECT_EQ(filesIn(dir.file("")), 0u);
}

TEST(PartialFile, RefusesAnExistingFileUnlessReplacing) {
  TempDir dir;
  const std::filesystem::path target = dir.file("tile.las");
  writeText(target, "original");
  EXPECT_THROW(PartialFile(target, {}), OutputExistsError);
  EXPECT_THROW(checkOutput(target, {}), OutputExistsError);
  EXPECT_EQ(contentsOf(target), "original");
  EXPECT_EQ(filesIn(dir.file("")), 1u);

  PartialFile partial(target, {.existing = ExistingOutput::Replace});
  writeText(partial.path(), "new");
  EXPECT_EQ(contentsOf(target), "original");
  partial.commit();
  EXPECT_EQ(contentsOf(target), "new");
}

TEST(PartialFile, NeverReplacesAnInputEvenWhenReplacing) {
  TempDir dir;
  const std::filesystem::path input = dir.file("in.las");
  writeText(input, "input");
  // The same file by another spelling, and through a hard link.
  const std::filesystem::path spelled = dir.file(".") / "in.las";
  std::filesystem::create_hard_link(input, dir.file("link.las"));
  for (const std::filesystem::path& target : {spelled, dir.file("link.las")}) {
    EXPECT_THROW(checkOutput(target, {.existing = ExistingOutput::Replace, .inputs = {input}}),
                 OutputExistsError)
        << target;
  }
  EXPECT_EQ(contentsOf(input), "input");
}

TEST(PartialFile, NamesTheTargetWhenItsFolderIsMissingOrAFile) {
  TempDir dir;
  writeText(dir.file("file"), "x");
  for (const std::filesystem::path& target :
       {dir.file("missing") / "out.las", dir.file("file") / "out.las", dir.file("")}) {
    try {
      checkOutput(target, {});
      ADD_FAILURE() << target << ": accepted";
    } catch (const OutputExistsError&) {
      ADD_FAILURE() << target << ": reported as existing";
    } catch (const InputError& error) {
      // The path the user gave, not a temporary name.
      EXPECT_NE(std::string(error.what()).find(target.string()), std::string::npos) << error.what();
      EXPECT_EQ(std::string(error.what()).find(".partial"), std::string::npos) << error.what();
    }
  }
}

TEST(PartialFile, RefusesAFolderItCannotWrite) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes in any folder";
  TempDir dir;
  std::filesystem::create_directory(dir.file("locked"));
  std::filesystem::permissions(
      dir.file("locked"), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  EXPECT_THROW(checkOutput(dir.file("locked") / "out.las", {}), InputError);
  std::filesystem::permissions(dir.file("locked"), std::filesystem::perms::owner_all);
}

TEST(PartialFile, AFileThatAppearsMeanwhileIsNotReplaced) {
  TempDir dir;
  const std::filesystem::path target = dir.file("out.las");
  PartialFile partial(target, {});
  writeText(partial.path(), "mine");
  writeText(target, "theirs");
  EXPECT_THROW(partial.commit(), OutputExistsError);
  EXPECT_EQ(contentsOf(target), "theirs");
}

TEST(InPlaceOutput, TakesAnExistingFileOrADeviceAndRefusesAFolderOrAMissingOne) {
  TempDir dir;
  const std::filesystem::path image = dir.file("frame.png");
  EXPECT_NO_THROW(checkInPlaceOutput(image));  // new, in a folder that takes files
  writeText(image, "old frame");
  EXPECT_NO_THROW(checkInPlaceOutput(image)) << "an image is written over";
  EXPECT_THROW(checkOutput(image, {}), OutputExistsError) << "a point file is not";
  EXPECT_NO_THROW(checkInPlaceOutput("/dev/null"));  // its folder takes no new files
  EXPECT_THROW(checkInPlaceOutput(""), InputError);
  std::filesystem::create_directory(dir.file("folder"));
  EXPECT_THROW(checkInPlaceOutput(dir.file("folder")), InputError);
  EXPECT_THROW(checkInPlaceOutput(dir.file("missing") / "frame.png"), InputError);
  EXPECT_THROW(checkInPlaceOutput(image / "frame.png"), InputError);  // a file as the folder
}

TEST(InPlaceOutput, RefusesAFileOrAFolderItCannotWrite) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes any file";
  TempDir dir;
  const std::filesystem::path image = dir.file("frame.png");
  writeText(image, "old frame");
  std::filesystem::permissions(image, std::filesystem::perms::owner_read);
  EXPECT_THROW(checkInPlaceOutput(image), InputError);
  std::filesystem::create_directory(dir.file("locked"));
  std::filesystem::permissions(
      dir.file("locked"), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  EXPECT_THROW(checkInPlaceOutput(dir.file("locked") / "frame.png"), InputError);
  std::filesystem::permissions(dir.file("locked"), std::filesystem::perms::owner_all);
}

}  // namespace
}  // namespace pcv
