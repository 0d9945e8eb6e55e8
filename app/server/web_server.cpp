#include "server/web_server.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <type_traits>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "pcv/core/error.hpp"
#include "server/access_token.hpp"
#include "server/page_files.hpp"

namespace pcv::app {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

/// A request's head may hold this much; its body (none is expected) this much.
constexpr uint32_t kMaxHeaderBytes = 8192;
constexpr uint64_t kMaxBodyBytes = 1024;
/// A connection that sends no complete request for this long is closed.
constexpr std::chrono::seconds kRequestTimeout{30};
/// Messages queued for a browser and not yet written: past this it is not reading, and is
/// dropped (frames are paced by acknowledgement, so a reading client never has more than a
/// few).
constexpr size_t kMaxQueuedMessages = 64;
/// Bad messages in a row that close the connection.
constexpr int kMaxBadMessages = 10;

std::string_view view(beast::string_view text) {
  return {text.data(), text.size()};
}

/// What every connection shares.
struct ServerState {
  ServerState(ViewService& views, WebServerOptions options)
      : views(views), options(std::move(options)) {}
  ViewService& views;
  WebServerOptions options;
  bool tls = false;
  std::atomic<size_t> sockets{0};  ///< WebSocket connections open
};

/// Whether the request carries the token: 0 when none is required or it is right, else the
/// status to answer (401: none given, 403: a wrong one).
unsigned authorization(const Request& request, const ServerState& state) {
  if (!state.options.token) return 0;
  std::optional<std::string> given = queryParameter(view(request.target()), "token");
  if (!given) {
    const auto cookie = request.find(http::field::cookie);
    if (cookie != request.end()) given = cookieValue(view(cookie->value()), kTokenCookie);
  }
  if (!given) return 401;
  return tokensEqual(*given, *state.options.token) ? 0 : 403;
}

/// A browser's WebSocket must come from the page itself: its Origin names the host it asked.
/// (Clients that are not browsers send no Origin; the token still holds them.)
bool originAllowed(const Request& request, const ServerState& state) {
  const auto origin = request.find(http::field::origin);
  if (origin == request.end()) return true;
  const auto host = request.find(http::field::host);
  if (host == request.end()) return false;
  const std::string expected =
      std::string(state.tls ? "https://" : "http://") + std::string(host->value());
  return origin->value() == expected;
}

Response plainAnswer(const Request& request, http::status status, std::string text) {
  Response response{status, request.version()};
  response.set(http::field::server, "pcv");
  response.set(http::field::content_type, "text/plain; charset=utf-8");
  response.set(http::field::cache_control, "no-store");
  response.keep_alive(request.keep_alive());
  response.body() = std::move(text) + "\n";
  response.prepare_payload();
  return response;
}

/// The answer to a plain HTTP request: a file of the page, or why not.
Response answer(const Request& request, const ServerState& state) {
  if (request.method() != http::verb::get && request.method() != http::verb::head) {
    Response response = plainAnswer(request, http::status::method_not_allowed,
                                    "pcv serve answers GET and HEAD only");
    response.set(http::field::allow, "GET, HEAD");
    return response;
  }
  const PageFile* file = findPageFile(targetPath(view(request.target())));
  if (!file) return plainAnswer(request, http::status::not_found, "not found");
  if (const unsigned status = authorization(request, state)) {
    return plainAnswer(
        request, http::int_to_status(status),
        status == 401 ? "this pcv serve needs the token its URL carries" : "wrong token");
  }
  Response response{http::status::ok, request.version()};
  response.set(http::field::server, "pcv");
  response.set(http::field::content_type,
               beast::string_view(file->contentType.data(), file->contentType.size()));
  response.set(http::field::cache_control, "no-store");
  response.set("X-Content-Type-Options", "nosniff");
  response.set("Referrer-Policy", "no-referrer");
  // The page loads its own files and talks to its own WebSocket, nothing else.
  const auto host = request.find(http::field::host);
  const std::string socketOrigin =
      host == request.end()
          ? std::string()
          : std::string(state.tls ? " wss://" : " ws://") + std::string(host->value());
  response.set("Content-Security-Policy",
               "default-src 'self'; img-src 'self' blob: data:; connect-src 'self'" + socketOrigin +
                   "; frame-ancestors 'self'");
  if (state.options.token && queryParameter(view(request.target()), "token")) {
    response.set(http::field::set_cookie, std::string(kTokenCookie) + "=" + *state.options.token +
                                              "; Path=/; HttpOnly; SameSite=Strict" +
                                              (state.tls ? "; Secure" : ""));
  }
  response.keep_alive(request.keep_alive());
  if (request.method() == http::verb::get) response.body() = std::string(file->body);
  response.content_length(file->body.size());
  return response;
}

/// The lowest layer's close, for either stream.
template <class Stream>
void shutDown(Stream& stream) {
  beast::error_code ignored;
  beast::get_lowest_layer(stream).socket().shutdown(tcp::socket::shutdown_both, ignored);
  beast::get_lowest_layer(stream).close();
}

/// One browser's WebSocket: messages in (parsed here, so nothing else sees a client's bytes),
/// frames and answers out through a bounded queue.
template <class Stream>
class SocketSession : public ClientChannel,
                      public std::enable_shared_from_this<SocketSession<Stream>> {
 public:
  SocketSession(Stream&& stream, std::shared_ptr<ServerState> state)
      : socket_(std::move(stream)), state_(std::move(state)) {
    ++state_->sockets;
  }
  ~SocketSession() override {
    leave();
    --state_->sockets;
  }

  void start(Request request) {
    socket_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    socket_.set_option(websocket::stream_base::decorator(
        [](websocket::response_type& response) { response.set(http::field::server, "pcv"); }));
    // A longer message fails the read with message_too_big, and Beast closes with 1009.
    socket_.read_message_max(kMaxClientMessageBytes);
    socket_.async_accept(request, [self = this->shared_from_this()](beast::error_code error) {
      if (error) return;
      self->client_ = self->state_->views.connect(self);
      self->joined_ = true;
      self->read();
    });
  }

  void sendText(std::string text) override {
    net::post(socket_.get_executor(),
              [self = this->shared_from_this(), text = std::move(text)]() mutable {
                self->enqueue({true, std::vector<uint8_t>(text.begin(), text.end())});
              });
  }
  void sendFrame(std::string status, std::vector<uint8_t> frame) override {
    net::post(socket_.get_executor(), [self = this->shared_from_this(), status = std::move(status),
                                       frame = std::move(frame)]() mutable {
      self->enqueue({true, std::vector<uint8_t>(status.begin(), status.end())});
      self->enqueue({false, std::move(frame)});
    });
  }
  void close() override {
    net::post(socket_.get_executor(), [self = this->shared_from_this()] {
      self->closeWith(websocket::close_code::policy_error);
    });
  }

 private:
  struct Outgoing {
    bool text = false;
    std::vector<uint8_t> bytes;
  };

  void read() {
    socket_.async_read(incoming_,
                       [self = this->shared_from_this()](beast::error_code error, size_t) {
                         if (error) {
                           self->leave();
                           return;
                         }
                         self->take();
                         // After a close began, its handshake does the reading: a second read would
                         // race it.
                         if (!self->closing_) self->read();
                       });
  }

  void take() {
    const std::string text = beast::buffers_to_string(incoming_.data());
    incoming_.consume(incoming_.size());
    ParsedClientMessage parsed;
    if (!socket_.got_text()) {
      parsed.error = "messages are JSON text";
    } else {
      parsed = parseClientMessage(text);
    }
    if (parsed.message) {
      badInARow_ = 0;
      state_->views.receive(client_, std::move(*parsed.message), parsed.sequence);
      return;
    }
    const nlohmann::json error = {{"type", "error"}, {"message", parsed.error}};
    enqueue({true, [&] {
               const std::string s = error.dump();
               return std::vector<uint8_t>(s.begin(), s.end());
             }()});
    if (++badInARow_ >= kMaxBadMessages) closeWith(websocket::close_code::policy_error);
  }

  void enqueue(Outgoing message) {
    if (closing_) return;
    if (queue_.size() >= kMaxQueuedMessages) {
      // The browser stopped reading: nothing more is kept for it.
      closeWith(websocket::close_code::try_again_later);
      return;
    }
    queue_.push_back(std::move(message));
    if (!writing_) writeNext();
  }

  void writeNext() {
    if (queue_.empty() || closing_) {
      writing_ = false;
      return;
    }
    writing_ = true;
    socket_.text(queue_.front().text);
    socket_.async_write(net::buffer(queue_.front().bytes),
                        [self = this->shared_from_this()](beast::error_code error, size_t) {
                          if (error) {
                            self->writing_ = false;
                            self->leave();
                            return;
                          }
                          self->queue_.pop_front();
                          self->writeNext();
                        });
  }

  void closeWith(websocket::close_code code) {
    if (closing_) return;
    closing_ = true;
    leave();
    if (writing_) {
      // The message being written keeps its bytes until its write completes (with an error,
      // once the socket is shut); a close frame cannot follow it, so the connection is dropped.
      queue_.resize(1);
      shutDown(socket_.next_layer());
      return;
    }
    queue_.clear();
    socket_.async_close(code, [self = this->shared_from_this()](beast::error_code) {});
  }

  /// The view service forgets the client (once).
  void leave() {
    if (!joined_) return;
    joined_ = false;
    state_->views.disconnect(client_);
  }

  websocket::stream<Stream> socket_;
  std::shared_ptr<ServerState> state_;
  beast::flat_buffer incoming_;
  std::deque<Outgoing> queue_;
  bool writing_ = false;
  bool closing_ = false;
  bool joined_ = false;
  uint64_t client_ = 0;
  int badInARow_ = 0;
};

/// One HTTP connection: requests answered in turn until it closes or asks for a WebSocket.
template <class Stream>
class HttpSession : public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  HttpSession(Stream&& stream, std::shared_ptr<ServerState> state)
      : stream_(std::move(stream)), state_(std::move(state)) {}

  void start() {
    if constexpr (std::is_same_v<Stream, beast::ssl_stream<beast::tcp_stream>>) {
      beast::get_lowest_layer(stream_).expires_after(kRequestTimeout);
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code error) {
                                if (!error) self->read();
                              });
    } else {
      read();
    }
  }

 private:
  void read() {
    parser_.emplace();
    parser_->header_limit(kMaxHeaderBytes);
    parser_->body_limit(kMaxBodyBytes);
    beast::get_lowest_layer(stream_).expires_after(kRequestTimeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code error, size_t) {
                       self->onRead(error);
                     });
  }

  void onRead(beast::error_code error) {
    if (error == http::error::header_limit || error == http::error::body_limit) {
      Request head;
      head.version(11);
      head.keep_alive(false);
      return respond(plainAnswer(head, http::status::payload_too_large, "request too large"));
    }
    if (error) return shutDown(stream_);
    Request request = parser_->release();
    if (websocket::is_upgrade(request)) return upgrade(std::move(request));
    respond(answer(request, *state_));
  }

  void upgrade(Request request) {
    if (targetPath(view(request.target())) != "/ws") {
      return respond(plainAnswer(request, http::status::not_found, "not found"));
    }
    if (const unsigned status = authorization(request, *state_)) {
      return respond(plainAnswer(request, http::int_to_status(status), "token"));
    }
    if (!originAllowed(request, *state_)) {
      return respond(plainAnswer(request, http::status::forbidden, "foreign origin"));
    }
    if (state_->sockets.load() >= state_->options.maxClients) {
      return respond(plainAnswer(request, http::status::service_unavailable,
                                 "too many viewers; try again later"));
    }
    beast::get_lowest_layer(stream_).expires_never();  // the WebSocket keeps its own timeouts
    std::make_shared<SocketSession<Stream>>(std::move(stream_), state_)->start(std::move(request));
  }

  void respond(Response response) {
    auto owned = std::make_shared<Response>(std::move(response));
    http::async_write(stream_, *owned,
                      [self = this->shared_from_this(), owned](beast::error_code error, size_t) {
                        if (error || owned->need_eof()) return shutDown(self->stream_);
                        self->read();
                      });
  }

  Stream stream_;
  std::shared_ptr<ServerState> state_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

std::string hostForUrl(const std::string& bind) {
  if (bind != "0.0.0.0" && bind != "::") {
    return bind.find(':') != std::string::npos ? "[" + bind + "]" : bind;
  }
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("localhost");
}

}  // namespace

struct WebServer::Impl {
  net::io_context io{1};
  std::shared_ptr<ServerState> state;
  std::optional<ssl::context> tls;
  tcp::acceptor acceptor{io};
  net::signal_set signals{io, SIGINT, SIGTERM};
  net::steady_timer idleCheck{io};
  std::chrono::steady_clock::time_point lastBusy = std::chrono::steady_clock::now();

  void accept() {
    acceptor.async_accept(
        net::make_strand(io), [this](beast::error_code error, tcp::socket socket) {
          if (error) {
            if (error != net::error::operation_aborted) accept();
            return;
          }
          // Frames and answers are small writes that must leave at once: Nagle's algorithm would
          // hold each behind the client's delayed acknowledgement (tens of milliseconds).
          socket.set_option(tcp::no_delay(true), error);
          beast::tcp_stream stream(std::move(socket));
          if (tls) {
            std::make_shared<HttpSession<beast::ssl_stream<beast::tcp_stream>>>(
                beast::ssl_stream<beast::tcp_stream>(std::move(stream), *tls), state)
                ->start();
          } else {
            std::make_shared<HttpSession<beast::tcp_stream>>(std::move(stream), state)->start();
          }
          accept();
        });
  }

  void watchIdle() {
    idleCheck.expires_after(std::chrono::milliseconds(250));
    idleCheck.async_wait([this](beast::error_code error) {
      if (error) return;
      const auto now = std::chrono::steady_clock::now();
      if (state->views.clientCount() > 0 || state->sockets.load() > 0) lastBusy = now;
      if (std::chrono::duration<double>(now - lastBusy).count() >=
          state->options.exitWhenIdleSeconds) {
        std::fprintf(stderr, "pcv serve: no viewer for %g s, stopping\n",
                     state->options.exitWhenIdleSeconds);
        io.stop();
        return;
      }
      watchIdle();
    });
  }
};

WebServer::WebServer(ViewService& views, const WebServerOptions& options)
    : impl_(std::make_unique<Impl>()) {
  impl_->state = std::make_shared<ServerState>(views, options);
  if (!options.certFile.empty() || !options.keyFile.empty()) {
    if (options.certFile.empty() || options.keyFile.empty()) {
      throw InputError("--cert and --key go together: HTTPS needs both");
    }
    impl_->tls.emplace(ssl::context::tls_server);
    impl_->tls->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                            ssl::context::no_sslv3 | ssl::context::no_tlsv1 |
                            ssl::context::no_tlsv1_1);
    try {
      impl_->tls->use_certificate_chain_file(options.certFile);
      impl_->tls->use_private_key_file(options.keyFile, ssl::context::pem);
    } catch (const boost::system::system_error& error) {
      throw InputError("--cert '" + options.certFile + "' / --key '" + options.keyFile +
                       "': " + error.what());
    }
    impl_->state->tls = true;
  }
  beast::error_code error;
  const net::ip::address address = net::ip::make_address(options.bind, error);
  if (error) throw InputError("--bind '" + options.bind + "' is no IP address");
  const tcp::endpoint endpoint(address, options.port);
  impl_->acceptor.open(endpoint.protocol(), error);
  if (!error) impl_->acceptor.set_option(net::socket_base::reuse_address(true), error);
  if (!error) impl_->acceptor.bind(endpoint, error);
  if (!error) impl_->acceptor.listen(net::socket_base::max_listen_connections, error);
  if (error) {
    throw Error("cannot listen on " + options.bind + ":" + std::to_string(options.port) + ": " +
                error.message());
  }
}

WebServer::~WebServer() {
  // The connections' channels may be held by the render thread and the encoders; they must be
  // let go before the io_context (which the connections' streams use) is destroyed.
  impl_->io.stop();
  impl_->state->views.disconnectAll();
}

uint16_t WebServer::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::string WebServer::url() const {
  const ServerState& state = *impl_->state;
  std::string url = std::string(state.tls ? "https://" : "http://") +
                    hostForUrl(state.options.bind) + ":" + std::to_string(port()) + "/";
  if (state.options.token) url += "?token=" + *state.options.token;
  return url;
}

void WebServer::run() {
  impl_->signals.async_wait([this](beast::error_code error, int) {
    if (!error) impl_->io.stop();
  });
  if (impl_->state->options.exitWhenIdleSeconds > 0.0) impl_->watchIdle();
  impl_->accept();
  impl_->io.run();
}

void WebServer::stop() {
  impl_->io.stop();
}

}  // namespace pcv::app
