// One curl multi handle for the process, driven by one thread: every reader's requests share
// its connection cache, so a connection to a server stays open from one read to the next (no new
// TCP or TLS handshake a request), and HTTP/2 streams share one connection where the server
// offers it. The caller (a decode or read-ahead thread) hands its transfers over and waits.
#include "http_transfers.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <list>
#include <mutex>
#include <set>
#include <thread>

#include <curl/curl.h>

#include "pcv/core/error.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/io/remote_source.hpp"
#include "remote_state.hpp"

namespace pcv::io {
namespace {

using Clock = std::chrono::steady_clock;

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

/// Per attempt: the handle set up for `t` (its connections are the multi handle's, kept open).
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
  if (t.length > 0 && t.fromEnd) {
    range = "-" + std::to_string(t.length);
    curl_easy_setopt(easy, CURLOPT_RANGE, range.c_str());
  } else if (t.length > 0) {
    range = std::to_string(t.first) + "-" + std::to_string(t.first + t.length - 1);
    curl_easy_setopt(easy, CURLOPT_RANGE, range.c_str());
  }
  // HTTP/2 where a TLS server offers it (ALPN); over https a request waits for a connection
  // being made to the same server rather than opening another, so that HTTP/2 streams share it.
  // Plain http stays HTTP/1.1, where waiting would only queue the requests.
  curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_2TLS));
  if (startsWithIgnoringCase(t.url, "https://")) curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
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

/// The transfers of one runTransfers call, on its caller's stack: what the caller waits for.
struct Batch {
  const Judge* judge = nullptr;
  size_t left = 0;             ///< transfers not finished (engine thread)
  std::exception_ptr failure;  ///< the first failure; the batch's other transfers are stopped
  bool done = false;           ///< guarded by the engine's mutex: the caller may go on
};

struct Job {
  Transfer* transfer;
  Batch* batch;
};

struct Running {
  CURL* easy;
  Job job;
  std::string range;
  char errorBuffer[CURL_ERROR_SIZE];
};

/// The process's one multi handle and the thread that drives it. Transfers start in the order
/// they were handed over, at most RemoteOptions::connections at once over the process.
class TransferEngine {
 public:
  TransferEngine() {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    multi_ = curl_multi_init();
    if (!multi_) throw Error("libcurl: cannot make a multi handle");
    // HTTP/2 streams of one server share a connection (libcurl's default, stated).
    curl_multi_setopt(multi_, CURLMOPT_PIPELINING, long(CURLPIPE_MULTIPLEX));
    thread_ = std::thread([this] { loop(); });
  }

  ~TransferEngine() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    curl_multi_wakeup(multi_);
    thread_.join();
    std::set<Batch*> unfinished;
    for (Running& r : active_) {
      unfinished.insert(r.job.batch);
      curl_multi_remove_handle(multi_, r.easy);
      curl_easy_cleanup(r.easy);
    }
    for (CURL* easy : idle_) curl_easy_cleanup(easy);
    curl_multi_cleanup(multi_);
    // Callers still waiting as the process ends are told so rather than left waiting; all at
    // once under the lock, since a caller told returns and takes its batch with it.
    for (const Job& job : waiting_) unfinished.insert(job.batch);
    const std::lock_guard lock(mutex_);
    for (const Job& job : handed_) unfinished.insert(job.batch);
    for (Batch* batch : unfinished) {
      batch->failure = std::make_exception_ptr(Error("HTTP transfers stopped: pcv is ending"));
      batch->done = true;
    }
    finished_.notify_all();
  }

  TransferEngine(const TransferEngine&) = delete;
  TransferEngine& operator=(const TransferEngine&) = delete;

  /// Runs `transfers` to their end (or the first failure) and returns; rethrows that failure.
  void run(const std::vector<Transfer*>& transfers, const Judge& judge) {
    if (transfers.empty()) return;
    Batch batch{.judge = &judge, .left = transfers.size()};
    {
      const std::lock_guard lock(mutex_);
      if (stopping_) throw Error("HTTP transfers stopped: pcv is ending");
      for (Transfer* t : transfers) handed_.push_back({t, &batch});
    }
    curl_multi_wakeup(multi_);
    {
      std::unique_lock lock(mutex_);
      finished_.wait(lock, [&] { return batch.done; });
    }
    if (batch.failure) std::rethrow_exception(batch.failure);
  }

 private:
  void loop() {
    for (;;) {
      {
        const std::lock_guard lock(mutex_);
        if (stopping_) return;
        waiting_.insert(waiting_.end(), handed_.begin(), handed_.end());
        handed_.clear();
      }
      const RemoteOptions options = remoteOptions();
      start(options);
      int running = 0;
      curl_multi_perform(multi_, &running);
      collect();
      // Until something to do: an answer, a transfer handed over (curl_multi_wakeup), a retry's
      // time; a second at most. Transfers waiting for a free connection wait for an answer.
      const Clock::time_point now = Clock::now();
      Clock::time_point next = now + std::chrono::seconds(1);
      if (active_.size() < size_t(std::max(options.connections, 1))) {
        for (const Job& job : waiting_) next = std::min(next, job.transfer->notBefore);
      }
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - now);
      curl_multi_poll(multi_, nullptr, 0, int(std::max<int64_t>(0, wait.count())), nullptr);
    }
  }

  /// Starts the waiting transfers whose time has come, within the connections allowed.
  void start(const RemoteOptions& options) {
    const size_t limit = size_t(std::max(options.connections, 1));
    // Idle connections kept open for the next requests: as many as may be in flight, twice.
    curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, long(2 * limit));
    const Clock::time_point now = Clock::now();
    RemoteCounterValues& counters = remoteCounterValues();
    for (auto it = waiting_.begin(); it != waiting_.end() && active_.size() < limit;) {
      Transfer& t = *it->transfer;
      if (t.notBefore > now) {
        ++it;
        continue;
      }
      CURL* easy = nullptr;
      if (!idle_.empty()) {
        easy = idle_.back();
        idle_.pop_back();
      } else if (!(easy = curl_easy_init())) {
        const Job job = *it;  // finish() drops the batch's waiting jobs, this one among them
        finish(job, std::make_exception_ptr(Error("libcurl: cannot make a transfer handle")));
        it = waiting_.begin();  // finish() may have dropped others of the batch
        continue;
      }
      Running& r = active_.emplace_back(Running{.easy = easy, .job = *it});
      if (t.attempt == 0) {
        // From now, not from when it was handed over: waiting for a connection does not count.
        t.deadline =
            Clock::now() + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(options.requestTimeoutSeconds));
      }
      setUp(easy, t, options, r.range, r.errorBuffer);
      curl_multi_add_handle(multi_, easy);
      ++counters.requests;
      if (t.attempt > 0) ++counters.retries;
      it = waiting_.erase(it);
    }
  }

  /// Judges the transfers that ended.
  void collect() {
    int left = 0;
    while (CURLMsg* message = curl_multi_info_read(multi_, &left)) {
      if (message->msg != CURLMSG_DONE) continue;
      const auto done = std::find_if(active_.begin(), active_.end(), [&](const Running& r) {
        return r.easy == message->easy_handle;
      });
      if (done == active_.end()) continue;
      const Job job = done->job;
      Transfer& t = *job.transfer;
      t.curlCode = int(message->data.result);
      t.curlError =
          done->errorBuffer[0] ? done->errorBuffer : curl_easy_strerror(message->data.result);
      remoteCounterValues().bytesFetched += t.received;
      curl_multi_remove_handle(multi_, done->easy);
      idle_.push_back(done->easy);
      active_.erase(done);
      Verdict verdict = Verdict::Fail;
      try {
        verdict = (*job.batch->judge)(t);
      } catch (...) {
        t.failure = std::current_exception();
      }
      if (verdict == Verdict::Retry) {
        ++t.attempt;
        t.notBefore =
            Clock::now() + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(retryDelaySeconds(t.attempt - 1)));
        waiting_.push_back(job);
      } else {
        finish(job, verdict == Verdict::Fail ? t.failure : nullptr);
      }
    }
  }

  /// One transfer of a batch ended; a failure (non-null) stops the batch's others. The batch
  /// is not touched once its caller is told.
  void finish(const Job& job, std::exception_ptr failure) {
    Batch& batch = *job.batch;
    if (failure) {
      if (!batch.failure) batch.failure = failure;
      for (auto it = active_.begin(); it != active_.end();) {
        if (it->job.batch != &batch) {
          ++it;
          continue;
        }
        curl_multi_remove_handle(multi_, it->easy);
        idle_.push_back(it->easy);
        it = active_.erase(it);
      }
      std::erase_if(waiting_, [&](const Job& other) { return other.batch == &batch; });
      batch.left = 0;
    } else {
      --batch.left;
    }
    if (batch.left > 0) return;
    {
      const std::lock_guard lock(mutex_);
      batch.done = true;
    }
    finished_.notify_all();
  }

  CURLM* multi_ = nullptr;
  std::mutex mutex_;
  std::condition_variable finished_;
  std::vector<Job> handed_;  // guarded: handed over, not yet seen by the engine thread
  bool stopping_ = false;    // guarded
  // The engine thread's own.
  std::deque<Job> waiting_;    // to start (retries after their notBefore)
  std::list<Running> active_;  // a list: curl keeps pointers to each one's error buffer
  std::vector<CURL*> idle_;    // easy handles to reuse
  std::thread thread_;
};

TransferEngine& engine() {
  static TransferEngine instance;
  return instance;
}
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
  engine().run(transfers, judge);
}

}  // namespace pcv::io
