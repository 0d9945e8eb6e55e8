/// @brief The remote source of a URL, opened once per process (the io layer's openByteSource
/// calls it for URLs).
#pragma once

#include <memory>
#include <string>

#include "pcv/io/byte_source.hpp"

namespace pcv::io {

std::shared_ptr<const ByteSource> openRemoteSource(const std::string& location);

}  // namespace pcv::io
