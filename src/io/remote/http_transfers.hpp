/// @brief Range requests run through libcurl: every request of the process on one curl multi
/// handle (so connections stay open between reads and HTTP/2 streams share them), within a
/// process-wide number of requests in flight, each repeated with backoff when its judge says the
/// fault is passing (5xx, timeouts, dropped connections, truncated bodies).
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace pcv::io {

/// Header text kept of one answer at most (all heads of its redirects together): a server that
/// sends headers without end is cut there instead of filling memory until the deadline.
constexpr size_t kMaxHeadBytes = 256 << 10;

/// One GET, with a Range unless `length` is 0 (then the whole file).
struct Transfer {
  std::string url;
  uint64_t first = 0;
  uint64_t length = 0;
  /// The last `length` bytes (a suffix range, `first` unused): asked before the size is known.
  bool fromEnd = false;
  /// Where the body goes: `target` (length bytes, the caller's) or `body` when null.
  uint8_t* target = nullptr;
  uint64_t bodyLimit = 0;  ///< bytes accepted at most; more aborts (overflowed set)

  // What came back (reset before each attempt).
  std::string head;  ///< the header text, all heads (parseHttpHead takes the last)
  std::vector<uint8_t> body;
  uint64_t received = 0;  ///< body bytes, into target or body
  bool overflowed = false;
  bool headOverflowed = false;  ///< the header text passed kMaxHeadBytes: aborted
  int curlCode = 0;  ///< CURLcode; 0 is success
  std::string curlError;
  int attempt = 0;  ///< 0 for the first
  std::chrono::steady_clock::time_point notBefore{};
  /// When the request must have ended, retries included: set at its first attempt from
  /// RemoteOptions::requestTimeoutSeconds; each attempt gets what is left of it.
  std::chrono::steady_clock::time_point deadline{};
  std::exception_ptr failure;  ///< the judge's verdict when it gave up
};

enum class Verdict { Done, Retry, Fail };

/// Decides what an attempt's result means; on Fail it sets `failure`. Called on the thread that
/// drives the transfers, one transfer at a time, while runTransfers' caller waits.
using Judge = std::function<Verdict(Transfer&)>;

/// Runs `transfers` (at most the connections of remoteOptions() in flight over the process, on
/// connections kept open from earlier calls where the server allows),
/// retrying as the judge says after remoteOptions().retryDelaySeconds doubled per attempt, never
/// past a transfer's deadline. Rethrows the first failure, after stopping the others.
void runTransfers(const std::vector<Transfer*>& transfers, const Judge& judge);

/// The curl codes of a name that cannot resolve and of TLS failures, for judges.
bool isDnsFailure(int curlCode);
bool isTlsFailure(int curlCode);
/// The curl code of a transfer that ran out of its time.
bool isTimeout(int curlCode);
/// The wait before retry number `attempt` + 1 (0 for the first retry): the options' delay,
/// doubled per attempt.
double retryDelaySeconds(int attempt);
/// Whether a retry of `t` after `delaySeconds` would still start before its deadline.
bool retryFitsDeadline(const Transfer& t, double delaySeconds);

}  // namespace pcv::io
