// Plain POSIX sockets, a thread per connection: the tests open a few connections at a time.
#include "http_test_server.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace pcv::test {
namespace {

bool sendAll(int connection, const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t sent = ::send(connection, p, bytes, MSG_NOSIGNAL);
    if (sent <= 0) return false;
    p += sent;
    bytes -= size_t(sent);
  }
  return true;
}

/// Consumes one from `counter` when it is positive.
bool take(std::atomic<int>& counter) {
  int value = counter.load();
  while (value > 0) {
    if (counter.compare_exchange_weak(value, value - 1)) return true;
  }
  return false;
}

std::string headerValue(const std::string& request, const std::string& name) {
  std::string lower = request;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  const size_t at = lower.find("\r\n" + name + ":");
  if (at == std::string::npos) return "";
  const size_t start = at + name.size() + 3;
  const size_t end = request.find("\r\n", start);
  std::string value = request.substr(start, end - start);
  value.erase(0, value.find_first_not_of(' '));
  return value;
}

}  // namespace

HttpTestServer::HttpTestServer() {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener_ < 0) throw std::runtime_error("test server: socket failed");
  const int yes = 1;
  ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;  // the kernel picks a free port
  if (::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(listener_, 64) != 0) {
    ::close(listener_);
    throw std::runtime_error("test server: cannot listen on 127.0.0.1");
  }
  socklen_t length = sizeof address;
  ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
  port_ = ntohs(address.sin_port);
  acceptor_ = std::thread([this] { acceptLoop(); });
}

HttpTestServer::~HttpTestServer() {
  stopping_ = true;
  ::shutdown(listener_, SHUT_RDWR);
  acceptor_.join();
  ::close(listener_);
  {
    const std::lock_guard lock(mutex_);
    for (const int connection : connections_) ::shutdown(connection, SHUT_RDWR);
  }
  for (std::thread& worker : workers_) worker.join();
}

void HttpTestServer::put(const std::string& name, std::vector<uint8_t> bytes) {
  const std::lock_guard lock(mutex_);
  File& file = files_[name];
  file.bytes = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  ++version_;
  file.etag = "\"v" + std::to_string(version_) + "-" + std::to_string(file.bytes->size()) + "\"";
  // A different date for each version (one second apart, as HTTP dates go).
  const int second = int(version_ % 60), minute = int(version_ / 60 % 60);
  char date[64];
  std::snprintf(date, sizeof date, "Wed, 02 Dec 2026 06:%02d:%02d GMT", minute, second);
  file.lastModified = date;
}

void HttpTestServer::putFile(const std::string& name, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("test server: cannot read " + path);
  put(name, std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {}));
}

void HttpTestServer::setStatus(const std::string& name, int status) {
  const std::lock_guard lock(mutex_);
  files_[name].status = status;
}

std::string HttpTestServer::url(const std::string& name) const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/" + name;
}

void HttpTestServer::acceptLoop() {
  while (!stopping_) {
    const int connection = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) {
      if (stopping_) return;
      continue;
    }
    // As web servers do on kept-alive connections (nginx's tcp_nodelay): a head and its body
    // sent apart must not wait for the client's delayed ACK of the head.
    const int yes = 1;
    ::setsockopt(connection, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    const uint64_t number = ++connectionsAccepted_;
    const std::lock_guard lock(mutex_);
    connections_.push_back(connection);
    workers_.emplace_back([this, connection, number] { serve(connection, number); });
  }
}

void HttpTestServer::serve(int connection, uint64_t number) {
  std::string pending;
  char buffer[16384];
  while (!stopping_) {
    // A TLS handshake (record type 22) to this plain server: answered in plain text, which the
    // client's TLS layer refuses at once, as it would a server with a broken certificate setup.
    if (!pending.empty() && uint8_t(pending[0]) == 0x16) {
      const std::string plain = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
      sendAll(connection, plain.data(), plain.size());
      break;
    }
    const size_t end = pending.find("\r\n\r\n");
    if (end != std::string::npos) {
      const std::string request = pending.substr(0, end + 4);
      pending.erase(0, end + 4);
      if (!answer(connection, number, request)) break;
      continue;
    }
    const ssize_t got = ::recv(connection, buffer, sizeof buffer, 0);
    if (got <= 0) break;
    pending.append(buffer, size_t(got));
  }
  ::shutdown(connection, SHUT_RDWR);
  const std::lock_guard lock(mutex_);
  // Closed while the lock is held, so the destructor never shuts down a reused descriptor.
  connections_.erase(std::find(connections_.begin(), connections_.end(), connection));
  ::close(connection);
}

bool HttpTestServer::answer(int connection, uint64_t number, const std::string& request) {
  size_t logged = 0;
  {
    const std::lock_guard lock(mutex_);
    logged = log_.size();
    log_.push_back({.name = {},
                    .range = headerValue(request, "range"),
                    .connection = number,
                    .answeredBefore = answered_});
  }
  const bool kept = answerRequest(connection, logged, request);
  const std::lock_guard lock(mutex_);
  log_[logged].answerOrder = answered_++;
  return kept;
}

bool HttpTestServer::answerRequest(int connection, size_t logged, const std::string& request) {
  ++requests_;
  if (const int delay = faults_.delayMs; delay > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(delay));
  }
  if (take(faults_.dropNext)) return false;
  const size_t space = request.find(' ');
  const size_t space2 = request.find(' ', space + 1);
  std::string name = request.substr(space + 2, space2 - space - 2);
  name = name.substr(0, name.find('?'));
  File file;
  {
    const std::lock_guard lock(mutex_);
    ++requestsByName_[name];
    log_[logged].name = name;
    const auto found = files_.find(name);
    if (found != files_.end()) file = found->second;  // a copy: put() may replace it meanwhile
    else file.status = 404;
  }
  auto sendStatus = [&](int status, const std::string& reason, const std::string& extra) {
    const std::string text = "HTTP/1.1 " + std::to_string(status) + " " + reason +
                             "\r\nContent-Length: 0\r\n" + extra + "\r\n";
    return sendAll(connection, text.data(), text.size());
  };
  const bool suffix = headerValue(request, "range").rfind("bytes=-", 0) == 0;
  if (take(faults_.failNext) || (suffix && take(faults_.failSuffixNext))) {
    const int status = faults_.failStatus;
    return sendStatus(status, status == 503 ? "Service Unavailable" : "Internal Server Error", "");
  }
  if (file.status == 404) return sendStatus(404, "Not Found", "");
  if (file.status != 0) return sendStatus(file.status, "Refused", "");
  const std::vector<uint8_t>& bytes = *file.bytes;
  const uint64_t size = bytes.size();
  uint64_t first = 0, last = size == 0 ? 0 : size - 1;
  bool ranged = false;
  const std::string range = headerValue(request, "range");
  if (!faults_.ignoreRanges && range.rfind("bytes=", 0) == 0) {
    const std::string spec = range.substr(6);
    const size_t dash = spec.find('-');
    if (dash == 0) {  // the last N bytes
      const uint64_t count = std::stoull(spec.substr(1));
      first = size - std::min(size, count);
      if (faults_.shiftSuffixRanges && first > 0) {
        --first;
        --last;
      }
    } else {
      first = std::stoull(spec.substr(0, dash));
      if (dash + 1 < spec.size()) last = std::min(last, uint64_t(std::stoull(spec.substr(dash + 1))));
    }
    if (first >= size) {
      return sendStatus(416, "Range Not Satisfiable",
                        "Content-Range: bytes */" + std::to_string(size) + "\r\n");
    }
    ranged = true;
  }
  const uint64_t length = size == 0 ? 0 : last - first + 1;
  std::string head = std::string("HTTP/1.1 ") + (ranged ? "206 Partial Content" : "200 OK") +
                     "\r\nContent-Length: " + std::to_string(length) + "\r\nETag: " + file.etag +
                     "\r\nLast-Modified: " + file.lastModified + "\r\n";
  if (ranged) {
    head += "Content-Range: bytes " + std::to_string(first) + "-" + std::to_string(last) + "/" +
            std::to_string(size) + "\r\nAccept-Ranges: bytes\r\n";
  }
  if (const int padding = faults_.paddingHeadBytes; padding > 0) {
    const std::string line = "X-Padding: " + std::string(1000, 'p') + "\r\n";
    std::string pad;
    for (int sent = 0; sent < padding; sent += int(line.size())) pad += line;
    head += pad;
  }
  head += "\r\n";
  if (!sendAll(connection, head.data(), head.size())) return false;
  if (take(faults_.truncateNext)) {
    sendAll(connection, bytes.data() + first, length / 2);
    return false;
  }
  if (const int rate = faults_.trickleBytesPerSecond; rate > 0) {
    const uint64_t step = std::max(1, rate / 10);
    for (uint64_t sent = 0; sent < length; sent += step) {
      if (stopping_) return false;
      if (!sendAll(connection, bytes.data() + first + sent, std::min(step, length - sent))) {
        return false;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return true;
  }
  return sendAll(connection, bytes.data() + first, length);
}

uint64_t HttpTestServer::requestsFor(const std::string& name) {
  const std::lock_guard lock(mutex_);
  const auto found = requestsByName_.find(name);
  return found == requestsByName_.end() ? 0 : found->second;
}

std::vector<HttpTestServer::Request> HttpTestServer::requestLog() {
  const std::lock_guard lock(mutex_);
  return log_;
}

}  // namespace pcv::test
