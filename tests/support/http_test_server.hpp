/// @brief A small HTTP/1.1 server on 127.0.0.1 (a free port) for the remote-reading tests: it
/// serves files held in memory, honours single byte ranges, sends ETag and Last-Modified, and
/// injects faults on demand (a delay before every answer, dropped connections, 5xx answers,
/// truncated bodies, a file replaced between requests, a server that ignores Range). Started by
/// the constructor, stopped by the destructor (RAII), so a test cannot leave it running.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pcv::test {

/// What the server does wrong, changed by tests while it runs. Counts apply to the next requests
/// (any file), one each.
struct HttpFaults {
  std::atomic<int> delayMs{0};        ///< before every answer (a slow network)
  std::atomic<int> dropNext{0};       ///< close the connection without answering
  std::atomic<int> failNext{0};       ///< answer with failStatus
  std::atomic<int> failStatus{503};
  std::atomic<int> truncateNext{0};   ///< send the head and half the body, then close
  std::atomic<bool> ignoreRanges{false};  ///< answer 200 with the whole file, as old servers do
  /// Bodies sent at this many bytes per second (in tenths, every 100 ms) when positive: a server
  /// that trickles above libcurl's low-speed floor and so is never cut by it.
  std::atomic<int> trickleBytesPerSecond{0};
  /// Header lines of this many bytes in all sent before the real ones when positive: a server
  /// whose head never ends.
  std::atomic<int> paddingHeadBytes{0};
  /// A suffix range ("bytes=-N") answered one byte early, as a broken cache in between might:
  /// the bytes and Content-Range of [size-N-1, size-2].
  std::atomic<bool> shiftSuffixRanges{false};
  /// The next suffix-range requests answered with failStatus, one each (other requests pass).
  std::atomic<int> failSuffixNext{0};
};

class HttpTestServer {
 public:
  HttpTestServer();
  ~HttpTestServer();
  HttpTestServer(const HttpTestServer&) = delete;
  HttpTestServer& operator=(const HttpTestServer&) = delete;

  /// Serves `bytes` at /`name` (replacing what was there: a new ETag and Last-Modified). A
  /// request's query ("?token=...") is ignored when the file is looked up.
  void put(const std::string& name, std::vector<uint8_t> bytes);
  /// Serves the local file `path` at /`name`.
  void putFile(const std::string& name, const std::string& path);
  /// Every request for /`name` gets `status` (403, say) instead of the file.
  void setStatus(const std::string& name, int status);

  /// "http://127.0.0.1:PORT/name".
  std::string url(const std::string& name) const;
  int port() const { return port_; }
  HttpFaults& faults() { return faults_; }
  uint64_t requests() const { return requests_; }
  /// Requests for /`name` so far (query ignored).
  uint64_t requestsFor(const std::string& name);
  /// Connections accepted so far: fewer than requests() where clients keep them alive.
  uint64_t connectionsAccepted() const { return connectionsAccepted_; }

  /// One request as it came: the file asked for (query ignored), the Range header's value
  /// (empty for none), the connection it came on (numbered from 1 in accept order), and when it
  /// came and went as counts of answers: a request that came before another's answer was sent
  /// cannot have waited for that answer (with a delay, requests sent together overlap).
  struct Request {
    std::string name;
    std::string range;
    uint64_t connection = 0;
    uint64_t answeredBefore = 0;        ///< answers sent before this request came
    uint64_t answerOrder = UINT64_MAX;  ///< answers sent before this one's (UINT64_MAX: none)
  };
  /// Every request so far, in the order the server read them.
  std::vector<Request> requestLog();

 private:
  struct File {
    std::shared_ptr<const std::vector<uint8_t>> bytes;  ///< shared: a request copies no file
    std::string etag, lastModified;
    int status = 0;  ///< 0: serve the file
  };
  void acceptLoop();
  void serve(int connection, uint64_t number);
  /// Answers one request; false when the connection must close.
  bool answer(int connection, uint64_t number, const std::string& request);
  /// answer()'s work, the request logged at log_[logged].
  bool answerRequest(int connection, size_t logged, const std::string& request);

  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> requests_{0};
  std::atomic<uint64_t> connectionsAccepted_{0};
  uint64_t answered_ = 0;  // guarded by mutex_
  HttpFaults faults_;
  std::mutex mutex_;
  std::map<std::string, File> files_;
  std::map<std::string, uint64_t> requestsByName_;
  std::vector<Request> log_;
  uint64_t version_ = 0;
  std::vector<int> connections_;
  std::vector<std::thread> workers_;
  std::thread acceptor_;
};

}  // namespace pcv::test
