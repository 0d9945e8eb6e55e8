/// @brief Remote options for a test: quick retries and no disk cache while it lives, every
/// remote source opened afresh, the options before restored (and the sources forgotten) after.
#pragma once

#include "pcv/io/remote_source.hpp"

namespace pcv::test {

class QuickRemoteOptions {
 public:
  /// `retries` < 0 keeps the options' own count.
  explicit QuickRemoteOptions(int retries = -1) : saved_(remoteOptions()) {
    RemoteOptions quick = saved_;
    quick.retryDelaySeconds = 0.01;
    if (retries >= 0) quick.retries = retries;
    quick.diskCacheDirectory.clear();
    setRemoteOptions(quick);
    forgetRemoteSources();
  }
  ~QuickRemoteOptions() {
    setRemoteOptions(saved_);
    forgetRemoteSources();
  }
  QuickRemoteOptions(const QuickRemoteOptions&) = delete;
  QuickRemoteOptions& operator=(const QuickRemoteOptions&) = delete;

 private:
  RemoteOptions saved_;
};

}  // namespace pcv::test
