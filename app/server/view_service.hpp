/// @brief The server's one scene on one renderer, drawn for every browser from one thread:
/// each client's messages are applied to its view (ClientView), its frames drawn when owed
/// (round robin, so one busy client cannot starve the others) and handed to the encoders. The
/// renderer and the scene are touched by that thread alone; the network threads only queue
/// messages here.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "options/render_arguments.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/scene_model.hpp"
#include "server/client_channel.hpp"
#include "server/client_message.hpp"
#include "server/client_view.hpp"
#include "server/frame_encoder.hpp"

namespace pcv::app {

struct ViewServiceOptions {
  std::vector<std::string> files;  ///< what is shown; empty: the cylinders
  DemoCylinders demo;              ///< the cylinders' points and seed
  ColoringOptions coloring;        ///< of the files
  ReadOptions read;                ///< what to read of each file
  StreamLimits stream;             ///< --point-budget, --gpu-memory, --memory, --in-core
  RenderSettings render;           ///< the method and background every client starts from
  PacingLimits pacing;             ///< per client
  int encoderThreads = 2;
  int jpegQuality = 80;       ///< frames while moving
  int finalJpegQuality = 95;  ///< the final frame, when not lossless
};

class ViewService {
 public:
  /// Opens the scene on `renderer` (its files load and stream in the background) and starts
  /// the render thread.
  ViewService(std::unique_ptr<Renderer> renderer, const ViewServiceOptions& options);
  /// Stops the thread; clients get nothing more.
  ~ViewService();
  ViewService(const ViewService&) = delete;
  ViewService& operator=(const ViewService&) = delete;

  /// A new client: it gets `hello`, then frames. Returns its id.
  uint64_t connect(std::weak_ptr<ClientChannel> channel);
  /// A client's message, with its "seq" when it had one.
  void receive(uint64_t client, ClientMessage message, std::optional<uint64_t> sequence = {});
  void disconnect(uint64_t client);
  /// Forgets every client and waits until the render thread and the encoders hold none of
  /// their channels: the network side calls it before its connections go (a channel must not
  /// outlive the network it writes to).
  void disconnectAll();
  /// Clients connected now.
  size_t clientCount() const { return clientCount_.load(); }

 private:
  struct Client {
    std::weak_ptr<ClientChannel> channel;
    ClientView view;
    bool greeted = false;
    bool framed = false;  ///< its camera was framed on the scene once
  };
  struct Event {
    enum class Kind { Connect, Message, Disconnect, DisconnectAll } kind;
    uint64_t client = 0;
    std::weak_ptr<ClientChannel> channel;
    std::optional<ClientMessage> message;
    std::optional<uint64_t> sequence;
  };

  void run();
  void post(Event event);
  void handle(Event& event);
  void handleMessage(Client& client, uint64_t id, const ClientMessage& message,
                     std::optional<uint64_t> sequence);
  void greet(Client& client);
  void takeSceneChanges();
  /// Whether `client`'s camera should be framed on the scene now, and framing it.
  bool wantsFraming(const Client& client) const;
  void frameScene(Client& client);
  /// Draws the next client owed a frame, after the last one drawn; false when none is.
  bool drawNext();
  void draw(uint64_t id, Client& client, FrameKind kind);
  void waitForWork();

  nlohmann::json sceneJson() const;
  nlohmann::json settingsJson(const ClientView& view) const;
  nlohmann::json statusJson(const ClientView& view, uint64_t frame, FrameKind kind,
                            const RenderSettings& settings, double drawMs) const;
  std::optional<glm::dvec3> pickWorld(const ClientView& view, int xPx, int yPx);
  void send(Client& client, const nlohmann::json& message);
  std::unique_ptr<Image> takeImage(int width, int height);

  ViewServiceOptions options_;
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<SceneModel> scene_;
  std::map<uint64_t, Client> clients_;  // the render thread's
  std::vector<uint32_t> sceneClasses_;  // the classes present, for hello and scene
  uint64_t lastDrawn_ = 0;

  std::mutex mutex_;  // guards events_, stopping_, images_
  std::condition_variable wake_;
  std::deque<Event> events_;
  bool stopping_ = false;
  uint64_t disconnectsAsked_ = 0;               // DisconnectAll events posted
  uint64_t disconnectsDone_ = 0;                // and handled
  std::vector<std::unique_ptr<Image>> images_;  // drawn and encoded, to draw into again
  std::atomic<uint64_t> nextId_{1};
  std::atomic<size_t> clientCount_{0};

  std::unique_ptr<FrameEncoder> encoder_;
  std::thread thread_;
};

}  // namespace pcv::app
