/// @brief Every file pcv writes for the user (LAS, LAZ, COPC, VPC) is written under a temporary
/// name beside its target and renamed into place once complete, so a crash, a full disk or
/// Ctrl+C never leaves half a file or destroys the one that was there; and no write replaces a
/// file the user did not ask to replace, or one of the command's own inputs.
#pragma once

#include <filesystem>
#include <vector>

#include "pcv/core/error.hpp"

namespace pcv {

/// An output exists and replacing it was not asked for, or the output is one of the inputs.
class OutputExistsError : public InputError {
 public:
  using InputError::InputError;
};

/// What a writer may do to the file already at its target.
enum class ExistingOutput {
  Refuse,   ///< an OutputExistsError naming the file (commands: the default)
  Replace,  ///< replaced once the new file is complete (`--overwrite`, Python's default)
};

/// The rules one output is written under.
struct OutputRules {
  ExistingOutput existing = ExistingOutput::Refuse;
  /// Files read to make the output: never written over, whatever `existing` says (compared as
  /// files, so "./a.las" and "a.las" or two hard links are the same).
  std::vector<std::filesystem::path> inputs;
};

/// Whether `target` is one of `rules.inputs`, compared as files (spellings and hard links).
bool namesAnInput(const std::filesystem::path& target, const OutputRules& rules);

/// Checks that `target` can be written before anything is read: its folder exists and takes new
/// files, it is not a folder, not one of `rules.inputs`, and exists only where replacing is
/// allowed. Errors name `target` as given and the reason (InputError, OutputExistsError).
void checkOutput(const std::filesystem::path& target, const OutputRules& rules);

/// Checks that `target`, written in place rather than through a PartialFile (an image, a video,
/// a device or pipe such as /dev/null), can be written before anything is read: it is not a
/// folder, and it takes writes where it exists, else its folder exists and takes new files. A
/// file there is written over. Errors name `target` as given and the reason (InputError).
void checkInPlaceOutput(const std::filesystem::path& target);

/// A temporary file beside the target ("NAME.partial-PID") that becomes the target on commit()
/// and is removed otherwise. Move-only: one owner removes the file.
class PartialFile {
 public:
  /// Checks `target` (checkOutput) and creates the temporary file, so a writer opening path()
  /// cannot fail for a reason the user's path did not show. Throws as checkOutput does, or
  /// Error when the temporary file cannot be created (with the reason).
  PartialFile(std::filesystem::path target, const OutputRules& rules);
  ~PartialFile();
  PartialFile(PartialFile&& other) noexcept;
  PartialFile& operator=(PartialFile&&) = delete;
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;

  /// Where the writer writes (absolute or relative as the target was given).
  const std::filesystem::path& path() const { return partial_; }
  const std::filesystem::path& target() const { return target_; }

  /// Renames the finished temporary file to the target (the target, where it exists and may be
  /// replaced, is replaced in one step). Checks again that no file appeared at the target
  /// meanwhile where replacing is refused. Throws Error naming the target and the reason.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path partial_;
  OutputRules rules_;
  bool committed_ = false;
};

}  // namespace pcv
