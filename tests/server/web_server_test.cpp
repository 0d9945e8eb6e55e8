// pcv serve over loopback: the page and nothing else, the token, the WebSocket's frames and
// their pacing, and what happens to clients that misbehave. A real server (the CPU backend, a
// small cylinder scene) on a free port, driven by Beast's client.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "pcv/raster/renderer.hpp"
#include "server/frame_encoder.hpp"
#include "server/page_files.hpp"
#include "server/view_service.hpp"
#include "server/web_server.hpp"

namespace pcv::app {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using nlohmann::json;

constexpr const char* kToken = "test-token-0123456789";

/// A server on a free loopback port, run on a thread of its own, stopped when it goes.
class TestServer {
 public:
  explicit TestServer(WebServerOptions options = {}) {
    ViewServiceOptions service;
    service.demo = {20'000, 1};
    service.encoderThreads = 1;
    views_ = std::make_unique<ViewService>(createRenderer("cpu"), service);
    options.port = 0;
    web_ = std::make_unique<WebServer>(*views_, options);
    thread_ = std::thread([this] { web_->run(); });
  }
  ~TestServer() {
    web_->stop();
    thread_.join();
    web_.reset();
    views_.reset();
  }
  uint16_t port() const { return web_->port(); }
  std::string host() const { return "127.0.0.1:" + std::to_string(port()); }

 private:
  std::unique_ptr<ViewService> views_;
  std::unique_ptr<WebServer> web_;
  std::thread thread_;
};

/// Reads on `socket` fail after `seconds` instead of blocking a test forever.
void limitReads(tcp::socket& socket, int seconds) {
  const timeval limit{seconds, 0};
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
}

http::response<http::string_body> get(const TestServer& server, const std::string& target,
                                      http::verb verb = http::verb::get,
                                      const std::string& cookie = {}) {
  net::io_context io;
  tcp::socket socket(io);
  socket.connect({net::ip::make_address("127.0.0.1"), server.port()});
  limitReads(socket, 10);
  http::request<http::string_body> request{verb, target, 11};
  request.set(http::field::host, server.host());
  if (!cookie.empty()) request.set(http::field::cookie, cookie);
  request.prepare_payload();
  http::write(socket, request);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.skip(verb == http::verb::head);  // a HEAD answer has a length but no body
  http::read(socket, buffer, parser);
  return parser.release();
}

/// One browser's WebSocket, as the page uses it.
class Viewer {
 public:
  Viewer(const TestServer& server, const std::string& target = "/ws",
         const std::string& origin = {})
      : socket_(io_) {
    socket_.next_layer().connect({net::ip::make_address("127.0.0.1"), server.port()});
    limitReads(socket_.next_layer(), 10);
    if (!origin.empty()) {
      socket_.set_option(
          websocket::stream_base::decorator([origin](websocket::request_type& request) {
            request.set(http::field::origin, origin);
          }));
    }
    socket_.handshake(server.host(), target);
  }
  void send(const json& message) {
    socket_.text(true);
    socket_.write(net::buffer(message.dump()));
  }
  void sendRaw(const std::string& text) {
    socket_.text(true);
    socket_.write(net::buffer(text));
  }
  /// The next message: text as JSON (binary empty), or a frame's bytes (text null).
  struct Message {
    json text;
    std::string binary;
  };
  Message read() {
    beast::flat_buffer buffer;
    socket_.read(buffer);
    const std::string bytes = beast::buffers_to_string(buffer.data());
    if (socket_.got_text()) return {json::parse(bytes), {}};
    return {nullptr, bytes};
  }
  /// Reads until a message of `type`.
  json readUntil(const std::string& type) {
    for (int i = 0; i < 100; ++i) {
      Message message = read();
      if (!message.text.is_null() && message.text.value("type", "") == type) return message.text;
    }
    ADD_FAILURE() << "no '" << type << "' message";
    return nullptr;
  }
  /// The next frame: its status and its bytes (header and image).
  std::pair<json, std::string> readFrame() {
    json status = readUntil("status");
    Message frame = read();
    EXPECT_TRUE(frame.text.is_null()) << "a frame follows its status";
    return {status, frame.binary};
  }
  websocket::stream<tcp::socket>& socket() { return socket_; }

 private:
  net::io_context io_;
  websocket::stream<tcp::socket> socket_;
};

uint32_t littleEndian(const std::string& bytes, size_t at, int size) {
  uint32_t value = 0;
  for (int i = size - 1; i >= 0; --i) value = value << 8 | uint8_t(bytes[at + i]);
  return value;
}

TEST(WebServer, ServesThePageAndNothingElse) {
  TestServer server;
  ASSERT_NE(findPageFile("/"), nullptr) << "the page is built into pcv";
  const auto page = get(server, "/");
  EXPECT_EQ(page.result(), http::status::ok);
  EXPECT_EQ(page.body(), std::string(findPageFile("/index.html")->body));
  EXPECT_EQ(get(server, "/", http::verb::head).result(), http::status::ok);
  for (const char* target : {"/etc/passwd", "/../../etc/passwd", "/%2e%2e/etc/passwd",
                             "/index.html/..", "//etc/passwd", "/ws"}) {
    EXPECT_EQ(get(server, target).result(), http::status::not_found) << target;
  }
  EXPECT_EQ(get(server, "/", http::verb::post).result(), http::status::method_not_allowed);
  EXPECT_EQ(get(server, "/", http::verb::delete_).result(), http::status::method_not_allowed);
}

TEST(WebServer, ATokenIsRequiredWhereOneIsSet) {
  TestServer server({.token = kToken});
  EXPECT_EQ(get(server, "/").result(), http::status::unauthorized);
  EXPECT_EQ(get(server, "/?token=wrong").result(), http::status::forbidden);
  const auto page = get(server, std::string("/?token=") + kToken);
  EXPECT_EQ(page.result(), http::status::ok);
  const std::string cookie(page[http::field::set_cookie]);
  EXPECT_NE(cookie.find(std::string("pcv_token=") + kToken), std::string::npos);
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos);
  // The page's other files come with the cookie, not the query.
  EXPECT_EQ(get(server, "/", http::verb::get, std::string("pcv_token=") + kToken).result(),
            http::status::ok);
  EXPECT_EQ(get(server, "/", http::verb::get, "pcv_token=wrong").result(), http::status::forbidden);
  // The WebSocket likewise.
  EXPECT_THROW(Viewer(server, "/ws"), boost::system::system_error);
  EXPECT_THROW(Viewer(server, "/ws?token=wrong"), boost::system::system_error);
  Viewer viewer(server, std::string("/ws?token=") + kToken);
  EXPECT_EQ(viewer.readUntil("hello")["version"], 1);
}

TEST(WebServer, AForeignOriginGetsNoSocket) {
  TestServer server;
  EXPECT_THROW(Viewer(server, "/ws", "http://evil.example"), boost::system::system_error);
  Viewer viewer(server, "/ws", "http://" + server.host());
  EXPECT_TRUE(viewer.readUntil("hello").is_object());
}

TEST(WebServer, FramesComeAtTheViewsSizeAndTheFinalOneLosslessWhenAsked) {
  TestServer server;
  Viewer viewer(server);
  const json hello = viewer.readUntil("hello");
  EXPECT_EQ(hello["scene"]["points"], 20'000);
  viewer.send({{"type", "size"}, {"width", 160}, {"height", 100}});
  viewer.send({{"type", "settings"}, {"lossless", true}});
  bool sawFinal = false;
  for (int i = 0; i < 20 && !sawFinal; ++i) {
    const auto [status, frame] = viewer.readFrame();
    ASSERT_GE(frame.size(), kFrameHeaderBytes);
    EXPECT_EQ(littleEndian(frame, 0, 4), kFrameMagic);
    EXPECT_EQ(littleEndian(frame, 4, 4), status["frame"].get<uint32_t>());
    const bool final = (uint8_t(frame[13]) & kFrameFinal) != 0;
    EXPECT_EQ(final, status["final"].get<bool>());
    EXPECT_EQ(littleEndian(frame, 8, 2), 160u);  // nothing is drawn before the size is known
    EXPECT_EQ(littleEndian(frame, 10, 2), 100u);
    const uint8_t format = uint8_t(frame[12]);
    // PNG and JPEG files, as their signatures say.
    if (format == uint8_t(FrameFormat::Png)) {
      EXPECT_EQ(frame.substr(kFrameHeaderBytes + 1, 3), "PNG");
    } else {
      EXPECT_EQ(format, uint8_t(FrameFormat::Jpeg));
      EXPECT_EQ(uint8_t(frame[kFrameHeaderBytes]), 0xff);
      EXPECT_EQ(uint8_t(frame[kFrameHeaderBytes + 1]), 0xd8);
    }
    EXPECT_EQ(status["command"].get<std::string>().rfind("pcv render", 0), 0u);
    if (final) {
      sawFinal = true;
      EXPECT_EQ(format, uint8_t(FrameFormat::Png));
      EXPECT_NE(status["command"].get<std::string>().find("--size 160x100"), std::string::npos);
    }
    viewer.send({{"type", "ack"}, {"frame", status["frame"]}});
  }
  EXPECT_TRUE(sawFinal);
}

TEST(WebServer, BadMessagesAreAnsweredAndTenInARowCloseTheSocket) {
  TestServer server;
  Viewer viewer(server);
  viewer.readUntil("hello");
  viewer.sendRaw("nonsense");
  EXPECT_TRUE(viewer.readUntil("error").contains("message"));
  // A good message resets the count; then ten bad ones end the connection.
  viewer.send({{"type", "home"}});
  for (int i = 0; i < 10; ++i) viewer.sendRaw(R"({"type":"size","width":"big"})");
  EXPECT_THROW(
      {
        for (int i = 0; i < 200; ++i) viewer.read();
      },
      boost::system::system_error);
}

TEST(WebServer, AnOversizedMessageClosesTheSocket) {
  TestServer server;
  Viewer viewer(server);
  viewer.readUntil("hello");
  viewer.sendRaw(R"({"type":"home","pad":")" + std::string(kMaxClientMessageBytes, 'x') + "\"}");
  EXPECT_THROW(
      {
        for (int i = 0; i < 200; ++i) viewer.read();
      },
      boost::system::system_error);
}

TEST(WebServer, AClientThatStopsReadingSlowsNobodyElse) {
  TestServer server;
  Viewer stalled(server);
  stalled.send({{"type", "size"}, {"width", 640}, {"height", 400}});
  // It never reads nor acknowledges: it is sent two frames, then nothing.
  Viewer moving(server);
  moving.readUntil("hello");
  moving.send({{"type", "size"}, {"width", 160}, {"height", 100}});
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 30; ++i) {
    moving.send({{"type", "drag"}, {"dx", 4}, {"dy", 0}, {"button", "left"}});
    const auto [status, frame] = moving.readFrame();
    moving.send({{"type", "ack"}, {"frame", status["frame"]}});
  }
  // 30 frames of 160x100 on the CPU backend take well under this even on a loaded machine;
  // a server waiting on the stalled client would never get there.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

TEST(WebServer, ConnectionsBeyondTheLimitAreRefused) {
  TestServer server({.maxClients = 1});
  Viewer first(server);
  first.readUntil("hello");
  EXPECT_THROW(Viewer(server, "/ws"), boost::system::system_error);
}

TEST(WebServer, TwoViewersHaveTheirOwnCameras) {
  TestServer server;
  Viewer a(server), b(server);
  a.readUntil("hello");
  b.readUntil("hello");
  a.send({{"type", "size"}, {"width", 160}, {"height", 100}});
  b.send({{"type", "size"}, {"width", 160}, {"height", 100}});
  a.send({{"type", "drag"}, {"dx", 200}, {"dy", 0}, {"button", "left"}});
  b.send({{"type", "drag"}, {"dx", -200}, {"dy", 50}, {"button", "left"}});
  // The final frame of each, drawn once its drag was taken.
  const auto finalCamera = [](Viewer& viewer) {
    for (int i = 0; i < 20; ++i) {
      const auto [status, frame] = viewer.readFrame();
      viewer.send({{"type", "ack"}, {"frame", status["frame"]}});
      if (status["final"].get<bool>()) return status["camera"];
    }
    ADD_FAILURE() << "no final frame";
    return json();
  };
  const json cameraA = finalCamera(a);
  const json cameraB = finalCamera(b);
  EXPECT_NE(cameraA["eye"], cameraB["eye"]);
}

}  // namespace
}  // namespace pcv::app
