// Every answer is checked before its bytes are used: the status, the Content-Range against the
// range asked for and the size, the body's length, and the validators against the first
// answer's. A fault that passes (5xx, a dropped connection, a truncated body) is asked again;
// anything else fails the read, so a decoder never sees bytes of another version of the file.
#include "remote_file.hpp"

#include "disk_cache_bound.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "http_answer.hpp"
#include "pcv/io/uri_reference.hpp"
#include "remote_state.hpp"

namespace pcv::io {
namespace {

std::atomic<uint64_t> nextSourceId{1};

uint64_t fnv1a(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : text) hash = (hash ^ uint8_t(c)) * 0x100000001b3ull;
  return hash;
}

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string statusText(int status) {
  switch (status) {
    case 401: return "HTTP 401 Unauthorized";
    case 403: return "HTTP 403 Forbidden";
    case 404: return "HTTP 404 Not Found";
    case 410: return "HTTP 410 Gone";
    case 416: return "HTTP 416 Range Not Satisfiable";
    case 500: return "HTTP 500 Internal Server Error";
    case 502: return "HTTP 502 Bad Gateway";
    case 503: return "HTTP 503 Service Unavailable";
    case 504: return "HTTP 504 Gateway Timeout";
    default: return "HTTP " + std::to_string(status);
  }
}

/// Answers worth asking again: the server or the way to it is busy or failing for now.
bool passingStatus(int status) {
  return status == 408 || status == 429 || (status >= 500 && status <= 599);
}

}  // namespace

RemoteFile::RemoteFile(const std::string& location, bool withTail)
    : location_(location),
      shown_(locationForMessages(location)),
      url_(requestUrlOf(location)),
      id_(nextSourceId++) {
  const RemoteOptions options = remoteOptions();
  Transfer probe{.url = url_,
                 .first = 0,
                 .length = kBlockBytes,
                 .bodyLimit = std::max(kBlockBytes, options.wholeFileLimitBytes)};
  Transfer tail{.url = url_, .length = kTailBytes, .fromEnd = true, .bodyLimit = kTailBytes};
  std::vector<Transfer*> transfers{&probe};
  if (withTail) transfers.push_back(&tail);
  runTransfers(transfers,
               [this, &probe](Transfer& t) { return &t == &probe ? judgeProbe(t) : judgeTail(t); });
  if (whole_.empty() && size_ > 0) {
    remoteBlockCache().insert(id_, 0, std::make_shared<const std::vector<uint8_t>>(std::move(probe.body)));
  }
  if (!options.diskCacheDirectory.empty() && (!etag_.empty() || !lastModified_.empty())) {
    diskRoot_ = options.diskCacheDirectory;
    diskLimitBytes_ = options.diskCacheBytes;
    diskFolder_ = options.diskCacheDirectory + "/" + hex(fnv1a(url_)) + "-" +
                  hex(fnv1a(etag_ + "|" + lastModified_ + "|" + std::to_string(size_)));
  }
  if (withTail) keepTail(tail);
}

Verdict RemoteFile::judgeTail(Transfer& t) const {
  const std::optional<HttpHead> head = parseHttpHead(t.head);
  bool passing = false;
  if (t.curlCode != 0) {
    passing = !t.headOverflowed && !t.overflowed && !isDnsFailure(t.curlCode) &&
              !isTlsFailure(t.curlCode) && !isTimeout(t.curlCode);
  } else if (head) {
    const bool truncated =
        head->status == 206 && head->contentLength && t.received != *head->contentLength;
    passing = passingStatus(head->status) || truncated;
  }
  if (passing && t.attempt < remoteOptions().retries &&
      retryFitsDeadline(t, retryDelaySeconds(t.attempt))) {
    return Verdict::Retry;
  }
  return Verdict::Done;  // keepTail decides whether its bytes are used
}

void RemoteFile::keepTail(Transfer& tail) {
  // Only a range answer of this very file: the probe's size and validators, a range that ends
  // at the end, every byte of it. Anything else is dropped: the reads ask again as usual.
  if (!whole_.empty() || size_ == 0 || tail.curlCode != 0) return;
  const std::optional<HttpHead> head = parseHttpHead(tail.head);
  if (!head || head->status != 206 || !head->contentRange) return;
  const auto& range = *head->contentRange;
  if (!range.satisfied || !range.total || *range.total != size_ || range.last + 1 != size_ ||
      range.first > range.last || tail.received != range.last - range.first + 1 ||
      tail.body.size() != tail.received || head->etag != etag_ ||
      head->lastModified != lastModified_) {
    return;
  }
  // The blocks the answer holds whole; block 0 came with the probe.
  const uint64_t lastBlock = (size_ - 1) / kBlockBytes;
  for (uint64_t block = std::max<uint64_t>(1, (range.first + kBlockBytes - 1) / kBlockBytes);
       block <= lastBlock; ++block) {
    const uint64_t start = block * kBlockBytes - range.first;
    const uint64_t bytes = std::min(kBlockBytes, size_ - block * kBlockBytes);
    auto piece = std::make_shared<const std::vector<uint8_t>>(
        tail.body.begin() + std::ptrdiff_t(start),
        tail.body.begin() + std::ptrdiff_t(start + bytes));
    toDisk(block, *piece);
    remoteBlockCache().insert(id_, block, std::move(piece));
  }
}

void RemoteFile::fail(RemoteFailure failure, int status, const std::string& what) const {
  throw RemoteError(failure, status, shown_ + ": " + what);
}

Verdict RemoteFile::failOrRetry(Transfer& t, RemoteFailure failure, int status,
                                const std::string& what, bool passing) const {
  const int retries = remoteOptions().retries;
  if (passing && t.attempt < retries && retryFitsDeadline(t, retryDelaySeconds(t.attempt))) {
    return Verdict::Retry;
  }
  const std::string tries =
      passing ? " (after " + std::to_string(t.attempt + 1) + " attempts)" : std::string();
  t.failure = std::make_exception_ptr(RemoteError(failure, status, shown_ + ": " + what + tries));
  return Verdict::Fail;
}

Verdict RemoteFile::judgeTransport(Transfer& t, const std::string& asked) const {
  if (t.headOverflowed) {
    return failOrRetry(t, RemoteFailure::BadAnswer, 0,
                       asked + "the answer's headers are larger than " +
                           formatBytes(double(kMaxHeadBytes)) + " (a broken or hostile server)",
                       false);
  }
  if (isDnsFailure(t.curlCode)) {
    return failOrRetry(t, RemoteFailure::Dns, 0,
                       "cannot resolve the host name (DNS): " + t.curlError, false);
  }
  if (isTlsFailure(t.curlCode)) {
    return failOrRetry(t, RemoteFailure::Tls, 0, "TLS failed: " + t.curlError, false);
  }
  // curl ends an attempt at what was left of the deadline; a timeout before it is the low-speed
  // limit (a stalled transfer), which another attempt may pass.
  if (isTimeout(t.curlCode) && !retryFitsDeadline(t, 0.05)) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", remoteOptions().requestTimeoutSeconds);
    return failOrRetry(t, RemoteFailure::Timeout, 0,
                       asked + "no complete answer within " + seconds +
                           " s (--http-timeout): the server is too slow or stalled",
                       false);
  }
  return failOrRetry(t, RemoteFailure::Connection, 0, asked + t.curlError, true);
}

Verdict RemoteFile::judgeProbe(Transfer& t) {
  const uint64_t limit = t.bodyLimit;
  const std::optional<HttpHead> head = parseHttpHead(t.head);
  if (t.overflowed && head && head->status == 200) {
    return failOrRetry(t, RemoteFailure::NoRangeSupport, 200,
                       "the server does not answer range requests (HTTP 200 to a Range "
                       "request) and the file is larger than the " +
                           formatBytes(double(limit)) + " read whole from such servers" +
                           (head->contentLength
                                ? " (" + formatBytes(double(*head->contentLength)) + ")"
                                : std::string()),
                       false);
  }
  if (t.curlCode != 0) return judgeTransport(t, "the request failed: ");
  if (!head) {
    return failOrRetry(t, RemoteFailure::BadAnswer, 0, "the answer has no HTTP status line", true);
  }
  const int status = head->status;
  if (status == 206) {
    const auto& range = head->contentRange;
    if (!range || !range->satisfied || range->first != 0 || !range->total) {
      return failOrRetry(t, RemoteFailure::BadAnswer, status,
                         "HTTP 206 without a Content-Range stating bytes 0-... and the size", false);
    }
    const uint64_t expected = std::min(t.length, *range->total);
    if (range->last + 1 != expected) {
      return failOrRetry(t, RemoteFailure::BadAnswer, status,
                         "HTTP 206 for bytes 0-" + std::to_string(range->last) + ", asked 0-" +
                             std::to_string(expected - 1),
                         false);
    }
    if (t.received != expected) {
      return failOrRetry(t, RemoteFailure::Connection, status,
                         "the answer ended after " + std::to_string(t.received) + " of " +
                             std::to_string(expected) + " bytes",
                         true);
    }
    size_ = *range->total;
  } else if (status == 200) {
    if (head->contentLength && t.received != *head->contentLength) {
      return failOrRetry(t, RemoteFailure::Connection, status,
                         "the answer ended after " + std::to_string(t.received) + " of " +
                             std::to_string(*head->contentLength) + " bytes",
                         true);
    }
    whole_ = std::move(t.body);  // no ranges, but small: held whole
    size_ = whole_.size();
  } else if (status == 416 && head->contentRange && !head->contentRange->satisfied &&
             head->contentRange->total == 0) {
    size_ = 0;  // an empty file: no byte 0 to send
  } else if (status == 404 || status == 410) {
    return failOrRetry(t, RemoteFailure::NotFound, status, statusText(status) + " (no such file)", false);
  } else if (status == 401 || status == 403) {
    return failOrRetry(t, RemoteFailure::Forbidden, status,
                       statusText(status) + " (the server refuses to send the file)", false);
  } else {
    return failOrRetry(t, RemoteFailure::HttpStatus, status, statusText(status),
                       passingStatus(status));
  }
  etag_ = head->etag;
  lastModified_ = head->lastModified;
  return Verdict::Done;
}

Verdict RemoteFile::judgeRange(Transfer& t) const {
  const std::optional<HttpHead> head = parseHttpHead(t.head);
  const std::string asked =
      "bytes " + std::to_string(t.first) + "-" + std::to_string(t.first + t.length - 1);
  // Validators first: another version of the file is an error whatever else the answer says.
  if (head && (head->status == 206 || head->status == 200) &&
      (head->etag != etag_ || head->lastModified != lastModified_ ||
       (head->contentRange && head->contentRange->total && *head->contentRange->total != size_))) {
    changed_ = true;
    std::string how;
    if (head->etag != etag_) how = "ETag " + etag_ + " became " + head->etag;
    else if (head->lastModified != lastModified_)
      how = "Last-Modified " + lastModified_ + " became " + head->lastModified;
    else how = "its size " + std::to_string(size_) + " became " + std::to_string(*head->contentRange->total);
    return failOrRetry(t, RemoteFailure::Changed, head->status,
                       "the file changed while it was read (" + how +
                           "); its points cannot be trusted, open it again",
                       false);
  }
  if (t.overflowed || (head && head->status == 200)) {
    return failOrRetry(t, RemoteFailure::BadAnswer, head ? head->status : 0,
                       "the server sent more than the " + asked + " asked (it answered ranges before)",
                       false);
  }
  if (t.curlCode != 0) return judgeTransport(t, asked + ": ");
  if (!head) {
    return failOrRetry(t, RemoteFailure::BadAnswer, 0, asked + ": the answer has no HTTP status line", true);
  }
  const int status = head->status;
  if (status == 206) {
    const auto& range = head->contentRange;
    if (!range || !range->satisfied || range->first != t.first ||
        range->last != t.first + t.length - 1) {
      return failOrRetry(t, RemoteFailure::BadAnswer, status,
                         asked + ": HTTP 206 with another Content-Range", false);
    }
    if (t.received != t.length) {
      return failOrRetry(t, RemoteFailure::Connection, status,
                         asked + ": the answer ended after " + std::to_string(t.received) + " bytes",
                         true);
    }
    return Verdict::Done;
  }
  if (status == 416) {
    changed_ = true;
    return failOrRetry(t, RemoteFailure::Changed, status,
                       asked + ": HTTP 416: the file is shorter than the " + std::to_string(size_) +
                           " bytes it had: it changed while it was read",
                       false);
  }
  if (status == 404 || status == 410) {
    return failOrRetry(t, RemoteFailure::NotFound, status, asked + ": " + statusText(status), false);
  }
  if (status == 401 || status == 403) {
    return failOrRetry(t, RemoteFailure::Forbidden, status, asked + ": " + statusText(status), false);
  }
  return failOrRetry(t, RemoteFailure::HttpStatus, status, asked + ": " + statusText(status),
                     passingStatus(status));
}

Block RemoteFile::fromDisk(uint64_t block) const {
  if (diskFolder_.empty()) return nullptr;
  const uint64_t expected = std::min(kBlockBytes, size_ - block * kBlockBytes);
  const std::string name = diskFolder_ + "/" + std::to_string(block);
  std::ifstream in(name, std::ios::binary);
  if (!in) return nullptr;
  auto bytes = std::make_shared<std::vector<uint8_t>>(expected);
  in.read(reinterpret_cast<char*>(bytes->data()), std::streamsize(expected));
  if (uint64_t(in.gcount()) != expected || in.peek() != std::char_traits<char>::eof()) return nullptr;
  touchCachedBlock(name);  // used now: the bound evicts it last
  ++remoteCounterValues().diskCacheHits;
  return bytes;
}

void RemoteFile::toDisk(uint64_t block, const std::vector<uint8_t>& bytes) const {
  if (diskFolder_.empty()) return;
  // The cache is a help, never a reason to fail: errors leave the block uncached. Written under
  // a temporary name and renamed, so a reader never sees half a block.
  std::error_code error;
  std::filesystem::create_directories(diskFolder_, error);
  const std::string name = diskFolder_ + "/" + std::to_string(block);
  const std::string partial = name + ".part" + std::to_string(id_);
  {
    std::ofstream out(partial, std::ios::binary);
    if (!out) return;
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!out) return;
  }
  std::filesystem::rename(partial, name, error);
  if (error) {
    std::filesystem::remove(partial, error);
    return;
  }
  diskCacheBound(diskRoot_, diskLimitBytes_).added(bytes.size());
}

void RemoteFile::fetchBlocks(const std::vector<uint64_t>& wanted, uint64_t base,
                             std::vector<Block>& out) const {
  if (wanted.empty()) return;
  // Runs of blocks, gaps of up to two blocks fetched too (one request beats two round trips),
  // each cut into requests of at most kMaxRequestBytes so that they go in parallel.
  constexpr uint64_t kGapBlocks = 2;
  constexpr uint64_t kRunBlocks = kMaxRequestBytes / kBlockBytes;
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // first, last block
  for (const uint64_t block : wanted) {
    if (!runs.empty() && block <= runs.back().second + kGapBlocks + 1 &&
        block - runs.back().first < kRunBlocks) {
      runs.back().second = block;
    } else {
      runs.emplace_back(block, block);
    }
  }
  std::vector<Transfer> transfers(runs.size());
  std::vector<Transfer*> pointers;
  for (size_t i = 0; i < runs.size(); ++i) {
    const uint64_t first = runs[i].first * kBlockBytes;
    const uint64_t end = std::min(size_, (runs[i].second + 1) * kBlockBytes);
    transfers[i] = Transfer{.url = url_, .first = first, .length = end - first, .bodyLimit = end - first};
    transfers[i].body.reserve(end - first);
    pointers.push_back(&transfers[i]);
  }
  runTransfers(pointers, [this](Transfer& t) { return judgeRange(t); });
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::vector<uint8_t>& body = transfers[i].body;
    for (uint64_t block = runs[i].first; block <= runs[i].second; ++block) {
      const uint64_t at = (block - runs[i].first) * kBlockBytes;
      const uint64_t bytes = std::min<uint64_t>(kBlockBytes, body.size() - at);
      auto piece = std::make_shared<const std::vector<uint8_t>>(body.begin() + at,
                                                                body.begin() + at + bytes);
      toDisk(block, *piece);
      if (block >= base && block - base < out.size()) out[block - base] = piece;
      remoteBlockCache().insert(id_, block, std::move(piece));
    }
  }
}

std::vector<Block> RemoteFile::blocks(uint64_t first, uint64_t last) const {
  std::vector<Block> got(last - first + 1);
  std::vector<uint64_t> missing;
  for (uint64_t block = first; block <= last; ++block) {
    Block& slot = got[block - first];
    slot = remoteBlockCache().find(id_, block);
    if (slot) {
      ++remoteCounterValues().memoryCacheHits;
      continue;
    }
    slot = fromDisk(block);
    if (slot) {
      remoteBlockCache().insert(id_, block, slot);
    } else {
      missing.push_back(block);
    }
  }
  fetchBlocks(missing, first, got);
  return got;
}

void RemoteFile::fetchInto(uint64_t offset, uint64_t length, uint8_t* target) const {
  std::vector<Transfer> transfers;
  for (uint64_t at = 0; at < length; at += kMaxRequestBytes) {
    const uint64_t bytes = std::min(kMaxRequestBytes, length - at);
    transfers.push_back(
        {.url = url_, .first = offset + at, .length = bytes, .target = target + at, .bodyLimit = bytes});
  }
  std::vector<Transfer*> pointers;
  for (Transfer& t : transfers) pointers.push_back(&t);
  runTransfers(pointers, [this](Transfer& t) { return judgeRange(t); });
}

std::span<const uint8_t> RemoteFile::read(uint64_t offset, uint64_t length,
                                          std::vector<uint8_t>& storage) const {
  if (offset > size_ || length > size_ - offset) {
    throw RemoteError(RemoteFailure::BadAnswer, 0,
                      shown_ + ": bytes " + std::to_string(offset) + "+" + std::to_string(length) +
                          " asked, past the end of the " + std::to_string(size_) + "-byte file");
  }
  if (length == 0) return {};
  if (!whole_.empty()) return std::span<const uint8_t>(whole_).subspan(offset, length);
  if (changed_) {
    fail(RemoteFailure::Changed, 0, "the file changed while it was read; open it again");
  }
  storage.resize(length);
  // Reads larger than a few requests (a whole plain LAZ file) go straight into the caller's
  // buffer: caching them would only push out what the stream needs.
  if (length > 4 * kMaxRequestBytes) {
    fetchInto(offset, length, storage.data());
    return storage;
  }
  const uint64_t first = offset / kBlockBytes, last = (offset + length - 1) / kBlockBytes;
  const std::vector<Block> got = blocks(first, last);
  for (uint64_t block = first; block <= last; ++block) {
    const std::vector<uint8_t>& bytes = *got[block - first];
    const uint64_t blockStart = block * kBlockBytes;
    const uint64_t from = std::max(offset, blockStart);
    const uint64_t to = std::min(offset + length, blockStart + bytes.size());
    if (to < from || to - blockStart > bytes.size()) {
      fail(RemoteFailure::BadAnswer, 0, "a cached block is shorter than the file says");
    }
    std::memcpy(storage.data() + (from - offset), bytes.data() + (from - blockStart), to - from);
  }
  return storage;
}

void RemoteFile::prefetch(const std::vector<ByteRange>& ranges) const {
  if (!whole_.empty() || size_ == 0 || changed_) return;
  std::vector<uint64_t> wanted;
  for (const ByteRange& range : ranges) {
    if (range.length == 0 || range.offset >= size_) continue;
    const uint64_t end = std::min(size_, range.end());
    for (uint64_t block = range.offset / kBlockBytes; block <= (end - 1) / kBlockBytes; ++block) {
      wanted.push_back(block);
    }
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<uint64_t> missing;
  // No more than half the memory cache: what comes first would be pushed out by what follows.
  const uint64_t maxBlocks = std::max<uint64_t>(1, remoteOptions().memoryCacheBytes / 2 / kBlockBytes);
  for (const uint64_t block : wanted) {
    if (missing.size() >= maxBlocks) break;
    if (remoteBlockCache().find(id_, block)) continue;
    if (Block cached = fromDisk(block)) {
      remoteBlockCache().insert(id_, block, std::move(cached));
      continue;
    }
    missing.push_back(block);
  }
  std::vector<Block> none;
  fetchBlocks(missing, 0, none);
}

}  // namespace pcv::io
