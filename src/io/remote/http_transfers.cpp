// One curl multi handle per call, on the caller's thread (a decode thread); easy handles come from
// a process-wide pool, so connections to a server stay open between calls and their number in
// flight stays within --http-connections.
#include "http_transfers.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <list>
#include <mutex>
#include <thread>

#include <curl/curl.h>

#include "pcv/core/error.hpp"
#include "pcv/io/remote_source.hpp"
#include "remote_state.hpp"

namespace pcv::io {
namespace {

using Clock = std::chrono::steady_clock;

/// Easy handles, idle ones kept with their connections open; at most `limit` lent at once.
class Connections {
 public:
  Connections() { curl_global_init(CURL_GLOBAL_DEFAULT); }
  ~Connections() {
    for (CURL* easy : idle_) curl_easy_cleanup(easy);
  }

  /// A handle, or null when `limit` are lent and `wait` is false.
  CURL* acquire(int limit, bool wait) {
    std::unique_lock lock(mutex_);
    if (wait) {
      freed_.wait(lock, [&] { return lent_ < std::max(limit, 1); });
    } else if (lent_ >= std::max(limit, 1)) {
      return nullptr;
    }
    ++lent_;
    if (!idle_.empty()) {
      CURL* easy = idle_.back();
      idle_.pop_back();
      return easy;
    }
    lock.unlock();
    CURL* easy = curl_easy_init();
    if (!easy) {
      release(nullptr);
      throw Error("libcurl: cannot make a transfer handle");
    }
    return easy;
  }

  void release(CURL* easy) {
    {
      const std::lock_guard lock(mutex_);
      --lent_;
      if (easy) idle_.push_back(easy);
    }
    freed_.notify_one();
  }

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  std::vector<CURL*> idle_;
  int lent_ = 0;
};

Connections& connections() {
  static Connections pool;
  return pool;
}

size_t onHeader(char* data, size_t size, size_t count, void* user) {
  Transfer& t = *static_cast<Transfer*>(user);
  if (t.head.size() + size * count > kMaxHeadBytes) {
    t.headOverflowed = true;
    return 0;  // aborts the transfer
  }
  t.head.append(data, size * count);
  return size * count;
}

size_t onBody(char* data, size_t size, size_t count, void* user) {
  Transfer& t = *static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  if (t.received + bytes > t.bodyLimit) {
    t.overflowed = true;
    return 0;  // aborts the transfer: more than was asked for
  }
  if (t.target) {
    std::copy(data, data + bytes, t.target + t.received);
  } else {
    t.body.insert(t.body.end(), data, data + bytes);
  }
  t.received += bytes;
  return bytes;
}

/// Per attempt: the handle set up for `t` (curl_easy_reset keeps the open connections).
void setUp(CURL* easy, Transfer& t, const RemoteOptions& options, std::string& range,
           char* errorBuffer) {
  curl_easy_reset(easy);
  t.head.clear();
  t.body.clear();
  t.received = 0;
  t.overflowed = false;
  t.headOverflowed = false;
  t.curlCode = 0;
  t.curlError.clear();
  errorBuffer[0] = '\0';
  curl_easy_setopt(easy, CURLOPT_URL, t.url.c_str());
  if (t.length > 0) {
    range = std::to_string(t.first) + "-" + std::to_string(t.first + t.length - 1);
    curl_easy_setopt(easy, CURLOPT_RANGE, range.c_str());
  }
  curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(easy, CURLOPT_MAXREDIRS, 8L);
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_USERAGENT, "pcv");
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, long(options.connectTimeoutSeconds * 1000));
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1024L);
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, std::max(1L, long(options.lowSpeedSeconds)));
  // What is left of the request's deadline: a trickling server is cut there whatever its speed.
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(t.deadline - Clock::now());
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, long(std::max<int64_t>(1, left.count())));
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, onHeader);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, onBody);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errorBuffer);
  // https checks the server against the system's CA store (libcurl's default bundle on Debian).
  curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L);
}

struct Running {
  CURL* easy;
  Transfer* transfer;
  std::string range;
  char errorBuffer[CURL_ERROR_SIZE];
};

/// Removes every handle from `multi` and gives it back.
void stopAll(CURLM* multi, std::list<Running>& active) {
  for (Running& r : active) {
    curl_multi_remove_handle(multi, r.easy);
    connections().release(r.easy);
  }
  active.clear();
}

struct Multi {
  CURLM* handle = curl_multi_init();
  ~Multi() { curl_multi_cleanup(handle); }
};

}  // namespace

bool isTimeout(int code) {
  return code == CURLE_OPERATION_TIMEDOUT;
}

bool retryFitsDeadline(const Transfer& t, double delaySeconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(delaySeconds)) <
         t.deadline;
}

double retryDelaySeconds(int attempt) {
  return remoteOptions().retryDelaySeconds * double(1 << std::min(attempt, 16));
}

bool isDnsFailure(int code) {
  return code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_COULDNT_RESOLVE_PROXY;
}

bool isTlsFailure(int code) {
  return code == CURLE_SSL_CONNECT_ERROR || code == CURLE_PEER_FAILED_VERIFICATION ||
         code == CURLE_SSL_CERTPROBLEM || code == CURLE_SSL_CIPHER ||
         code == CURLE_SSL_CACERT_BADFILE || code == CURLE_SSL_ISSUER_ERROR ||
         code == CURLE_SSL_PINNEDPUBKEYNOTMATCH || code == CURLE_SSL_INVALIDCERTSTATUS;
}

void runTransfers(const std::vector<Transfer*>& transfers, const Judge& judge) {
  const RemoteOptions options = remoteOptions();
  connections();  // curl_global_init before the first multi handle
  Multi multi;
  std::deque<Transfer*> waiting(transfers.begin(), transfers.end());
  std::list<Running> active;  // a list: curl keeps pointers to each one's error buffer
  std::exception_ptr failure;
  RemoteCounterValues& counters = remoteCounterValues();
  while (!waiting.empty() || !active.empty()) {
    const Clock::time_point now = Clock::now();
    for (auto it = waiting.begin(); it != waiting.end();) {
      if ((*it)->notBefore > now) {
        ++it;
        continue;
      }
      // Wait for a connection only when nothing of ours runs: else take what is free.
      CURL* easy = connections().acquire(options.connections, active.empty());
      if (!easy) break;
      Running& r = active.emplace_back(Running{.easy = easy, .transfer = *it});
      if (r.transfer->attempt == 0) {
        // From now, not from the loop's start: waiting for a free connection does not count.
        r.transfer->deadline =
            Clock::now() + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(options.requestTimeoutSeconds));
      }
      setUp(easy, *r.transfer, options, r.range, r.errorBuffer);
      curl_multi_add_handle(multi.handle, easy);
      ++counters.requests;
      if (r.transfer->attempt > 0) ++counters.retries;
      it = waiting.erase(it);
    }
    if (active.empty()) {
      // Only retries waiting for their time.
      Clock::time_point next = Clock::time_point::max();
      for (const Transfer* t : waiting) next = std::min(next, t->notBefore);
      std::this_thread::sleep_until(next);
      continue;
    }
    int running = 0;
    curl_multi_perform(multi.handle, &running);
    int left = 0;
    while (CURLMsg* message = curl_multi_info_read(multi.handle, &left)) {
      if (message->msg != CURLMSG_DONE) continue;
      const auto done = std::find_if(active.begin(), active.end(), [&](const Running& r) {
        return r.easy == message->easy_handle;
      });
      if (done == active.end()) continue;
      Transfer& t = *done->transfer;
      t.curlCode = int(message->data.result);
      t.curlError = done->errorBuffer[0] ? done->errorBuffer : curl_easy_strerror(message->data.result);
      counters.bytesFetched += t.received;
      curl_multi_remove_handle(multi.handle, done->easy);
      connections().release(done->easy);
      active.erase(done);
      const Verdict verdict = judge(t);
      if (verdict == Verdict::Retry) {
        ++t.attempt;
        t.notBefore =
            Clock::now() + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(retryDelaySeconds(t.attempt - 1)));
        waiting.push_back(&t);
      } else if (verdict == Verdict::Fail) {
        failure = t.failure;
        break;
      }
    }
    if (failure) {
      stopAll(multi.handle, active);
      std::rethrow_exception(failure);
    }
    if (!active.empty()) curl_multi_poll(multi.handle, nullptr, 0, 20, nullptr);
  }
}

}  // namespace pcv::io
