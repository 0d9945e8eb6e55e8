/// @brief The exceptions pcv throws: each says what failed, where, and what was expected.
#pragma once

#include <stdexcept>
#include <string>

namespace pcv {

/// Base of every pcv error; the message is complete and meant for the user.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A file or argument is malformed: the message names the file, the byte offset or line, and
/// what was expected there.
class InputError : public Error {
 public:
  using Error::Error;
};

/// Not enough host or GPU memory for what was asked; the message names the sizes.
class OutOfMemoryError : public Error {
 public:
  using Error::Error;
};

/// A capability is missing on this machine or in this build (no CUDA device, built without CUDA,
/// no OpenGL context ...).
class UnavailableError : public Error {
 public:
  using Error::Error;
};

/// "1.50 GiB"-style text for byte counts in messages.
std::string formatBytes(double bytes);

}  // namespace pcv
