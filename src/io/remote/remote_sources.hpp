/// @brief The remote source of a URL, opened once per process (the io layer's openByteSource
/// calls it for URLs).
#pragma once

#include <memory>
#include <string>

#include "pcv/io/byte_source.hpp"

namespace pcv::io {

/// `withTail`: the file's end is asked for with its first block (RemoteFile), when the URL is
/// not open yet.
std::shared_ptr<const ByteSource> openRemoteSource(const std::string& location,
                                                   bool withTail = false);

}  // namespace pcv::io
