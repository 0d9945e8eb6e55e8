#include "pcv/core/partial_file.hpp"

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace pcv {
namespace {

std::filesystem::path folderOf(const std::filesystem::path& target) {
  const std::filesystem::path parent = target.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

void checkInputs(const std::filesystem::path& target, const OutputRules& rules) {
  if (namesAnInput(target, rules)) {
    throw OutputExistsError(target.string() +
                            ": is also an input of this command; the output must be a "
                            "new file (name the output last, after the inputs)");
  }
}

/// The folder `target` would be created in exists, is a folder, and takes new files.
void checkOutputFolder(const std::filesystem::path& target) {
  const std::filesystem::path folder = folderOf(target);
  std::error_code error;
  const std::filesystem::file_status folderStatus = std::filesystem::status(folder, error);
  if (!std::filesystem::exists(folderStatus)) {
    throw InputError(target.string() + ": cannot write: the folder " + folder.string() +
                     " does not exist");
  }
  if (!std::filesystem::is_directory(folderStatus)) {
    throw InputError(target.string() + ": cannot write: " + folder.string() + " is not a folder");
  }
  // access() answers for this process's user (root passes any mode bits, as open() would).
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw InputError(target.string() + ": cannot write in the folder " + folder.string() + ": " +
                     std::strerror(errno));
  }
}

std::string folderNotFile(const std::filesystem::path& target) {
  return target.string() + ": is a folder; the output must be a file name";
}

}  // namespace

bool namesAnInput(const std::filesystem::path& target, const OutputRules& rules) {
  for (const std::filesystem::path& input : rules.inputs) {
    std::error_code error;
    if (std::filesystem::equivalent(target, input, error) && !error) return true;
  }
  return false;
}

void checkOutput(const std::filesystem::path& target, const OutputRules& rules) {
  if (target.empty()) throw InputError("no output file name given");
  checkOutputFolder(target);
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::symlink_status(target, error);
  if (!std::filesystem::exists(status)) return;
  if (std::filesystem::is_directory(std::filesystem::status(target, error))) {
    throw InputError(folderNotFile(target));
  }
  checkInputs(target, rules);
  if (rules.existing == ExistingOutput::Refuse) {
    throw OutputExistsError(target.string() +
                            ": exists and would be replaced; choose a new name, or pass "
                            "--overwrite to replace it");
  }
}

void checkInPlaceOutput(const std::filesystem::path& target) {
  if (target.empty()) throw InputError("no output file name given");
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(target, error);
  if (std::filesystem::is_directory(status)) throw InputError(folderNotFile(target));
  if (!std::filesystem::exists(status)) {
    checkOutputFolder(target);
    return;
  }
  // A device or a pipe lives in a folder that takes no new files (/dev): the file itself must
  // take writes.
  if (::access(target.c_str(), W_OK) != 0) {
    throw InputError(target.string() + ": cannot write: " + std::strerror(errno));
  }
}

PartialFile::PartialFile(std::filesystem::path target, const OutputRules& rules)
    : target_(std::move(target)), rules_(rules) {
  checkOutput(target_, rules_);
  partial_ = target_;
  partial_ += ".partial-" + std::to_string(::getpid());
  // O_EXCL: a file of that name is another process's (or a crashed run's with this pid).
  const int fd = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    throw Error(target_.string() + ": cannot create the temporary file " +
                partial_.filename().string() + " beside it: " + std::strerror(errno));
  }
  ::close(fd);
}

PartialFile::~PartialFile() {
  if (committed_ || partial_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
}

PartialFile::PartialFile(PartialFile&& other) noexcept
    : target_(std::move(other.target_)),
      partial_(std::move(other.partial_)),
      rules_(std::move(other.rules_)),
      committed_(other.committed_) {
  other.partial_.clear();
  other.committed_ = true;
}

void PartialFile::commit() {
  // Between the check at construction and now, the target may have appeared (another run).
  std::error_code error;
  if (std::filesystem::exists(std::filesystem::symlink_status(target_, error))) {
    checkInputs(target_, rules_);
    if (rules_.existing == ExistingOutput::Refuse) {
      throw OutputExistsError(target_.string() +
                              ": appeared while it was being written; the new file was not "
                              "put in its place");
    }
  }
  std::filesystem::rename(partial_, target_, error);
  if (error) {
    throw Error(target_.string() + ": cannot put the finished file in place: " + error.message());
  }
  committed_ = true;
}

}  // namespace pcv
