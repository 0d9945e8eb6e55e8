/// @brief Where a client's messages go: the WebSocket connection implements it, and the render
/// thread and the encoders send through it without knowing the network. Thread-safe: sends are
/// queued onto the connection's own executor; after the connection closed they are dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pcv::app {

class ClientChannel {
 public:
  virtual ~ClientChannel() = default;
  /// A JSON text message.
  virtual void sendText(std::string text) = 0;
  /// A binary message (a frame).
  virtual void sendBinary(std::vector<uint8_t> bytes) = 0;
  /// Closes the connection (policy violation); the client is disconnected after.
  virtual void close() = 0;
};

}  // namespace pcv::app
