#include "pcv/io/malformed_file_error.hpp"

namespace pcv {
namespace {

std::string messageFor(const std::string& file, const MalformedFileError::Place& place,
                       const std::string& what) {
  if (place.byteOffset) return file + ": byte " + std::to_string(*place.byteOffset) + ": " + what;
  if (place.line) return file + ": line " + std::to_string(*place.line) + ": " + what;
  return file + ": " + what;
}

}  // namespace

MalformedFileError::MalformedFileError(std::string file, Place place, const std::string& what)
    : InputError(messageFor(file, place, what)), file_(std::move(file)), place_(place) {}

}  // namespace pcv
