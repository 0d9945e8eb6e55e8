/// @brief pcv serve's network side (Boost.Beast over Asio): HTTP for the page's files, the
/// WebSocket at /ws that carries one browser's messages to the ViewService and its frames back,
/// the access token and Origin checks, optional TLS, and limits on request sizes, connections
/// and what a connection may leave unsent. It runs on the calling thread; the drawing is the
/// ViewService's.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "server/view_service.hpp"

namespace pcv::app {

struct WebServerOptions {
  std::string bind = "127.0.0.1";    ///< the address listened on
  uint16_t port = 8080;              ///< 0: any free port (port() says which)
  std::optional<std::string> token;  ///< required of every request when set
  std::string certFile;              ///< PEM certificate chain: with keyFile, HTTPS and WSS
  std::string keyFile;               ///< PEM private key
  size_t maxClients = 16;            ///< WebSocket connections at once
  /// Stop once no browser has been connected for this long (0: never); for tests and scripts.
  double exitWhenIdleSeconds = 0.0;
};

class WebServer {
 public:
  /// Listens at once; throws Error when the address cannot be bound or TLS files not read.
  WebServer(ViewService& views, const WebServerOptions& options);
  ~WebServer();
  WebServer(const WebServer&) = delete;
  WebServer& operator=(const WebServer&) = delete;

  uint16_t port() const;
  /// What a browser opens: scheme, host, port and the token when one is required.
  std::string url() const;
  /// Serves until stop(), SIGINT or SIGTERM, or the idle limit.
  void run();
  /// From any thread.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pcv::app
