#include "server/view_service.hpp"

#include <algorithm>
#include <cstdio>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/color_map.hpp"
#include "pcv/core/error.hpp"
#include "pcv/raster/view_setup.hpp"

namespace pcv::app {
namespace {

using nlohmann::json;

/// How long the render thread sleeps at most with nothing owed: it still polls the scene
/// (files arriving, streamed nodes decoded) this often.
constexpr std::chrono::milliseconds kIdlePoll{20};

json vec3Json(const glm::dvec3& v) {
  return json::array({v.x, v.y, v.z});
}

/// The colour modes a scene offers the page: the ones colorPoints draws for it without falling
/// back (rgb needs colours; intensity and classification their attributes).
std::vector<std::string> colorModesOf(const SceneParts& parts) {
  std::vector<std::string> modes{"elevation"};
  const std::vector<std::string> attributes = parts.colorableAttributes();
  const auto has = [&](const char* name) {
    return std::find(attributes.begin(), attributes.end(), name) != attributes.end();
  };
  if (parts.inCore.cloud().hasColor || parts.cylinders || parts.stream)
    modes.insert(modes.begin(), "rgb");
  if (has("intensity")) modes.push_back("intensity");
  if (has("classification")) modes.push_back("classification");
  return modes;
}

/// The classes the files read whole hold, ascending, for the page's class filter (whatever they
/// are coloured by). A stream's are known once it is coloured by class.
std::vector<uint32_t> classesPresent(const PointCloud& cloud, const Coloring& coloring) {
  if (!coloring.classes.empty()) return coloring.classes;
  const ScalarAttribute* classification = cloud.findAttribute("classification");
  if (!classification) return {};
  bool present[256] = {};
  for (uint64_t i = 0; i < classification->size(); ++i) {
    const double value = classification->value(i);
    if (value >= 0.0 && value < 256.0) present[size_t(value)] = true;
  }
  std::vector<uint32_t> classes;
  for (uint32_t c = 0; c < 256; ++c) {
    if (present[c]) classes.push_back(c);
  }
  return classes;
}

}  // namespace

ViewService::ViewService(std::unique_ptr<Renderer> renderer, const ViewServiceOptions& options)
    : options_(options), renderer_(std::move(renderer)) {
  scene_ = std::make_unique<SceneModel>(*renderer_, options_.demo, options_.coloring,
                                        options_.stream, reportOnStderr());
  // Class filters are every client's: the points carry what they read.
  scene_->keepFilterData(true);
  if (options_.files.empty()) {
    scene_->showDemo();
  } else {
    scene_->open(options_.files, true, options_.read);
  }
  encoder_ =
      std::make_unique<FrameEncoder>(options_.encoderThreads, [this](std::unique_ptr<Image> image) {
        std::lock_guard lock(mutex_);
        images_.push_back(std::move(image));
      });
  thread_ = std::thread([this] { run(); });
}

ViewService::~ViewService() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  encoder_.reset();  // its threads give images back under mutex_
  clients_.clear();
  scene_.reset();  // cancels loads, joins their threads, removes the sets
  renderer_.reset();
}

uint64_t ViewService::connect(std::weak_ptr<ClientChannel> channel) {
  const uint64_t id = nextId_++;
  ++clientCount_;
  post({Event::Kind::Connect, id, std::move(channel), std::nullopt});
  return id;
}

void ViewService::receive(uint64_t client, ClientMessage message,
                          std::optional<uint64_t> sequence) {
  post({Event::Kind::Message, client, {}, std::move(message), sequence});
}

void ViewService::disconnect(uint64_t client) {
  --clientCount_;
  post({Event::Kind::Disconnect, client, {}, std::nullopt});
}

void ViewService::disconnectAll() {
  uint64_t ticket = 0;
  {
    std::lock_guard lock(mutex_);
    ticket = ++disconnectsAsked_;
    events_.push_back({Event::Kind::DisconnectAll, 0, {}, std::nullopt});
  }
  wake_.notify_all();
  std::unique_lock lock(mutex_);
  wake_.wait(lock, [&] { return disconnectsDone_ >= ticket || stopping_; });
}

void ViewService::post(Event event) {
  {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  }
  wake_.notify_all();
}

void ViewService::run() {
  while (true) {
    std::deque<Event> events;
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      events.swap(events_);
    }
    try {
      for (Event& event : events) handle(event);
      takeSceneChanges();
      if (scene_->preparing()) {  // the cylinders are laid out on the renderer meanwhile
        waitForWork();
        continue;
      }
      for (auto& [id, client] : clients_) {
        if (!client.greeted) greet(client);
      }
      if (!drawNext()) waitForWork();
    } catch (const std::exception& error) {
      // The scene failed (a stream that stopped, a device lost): every client hears it, and
      // the loop goes on after a pause rather than at the frame rate.
      std::fprintf(stderr, "pcv serve: %s\n", error.what());
      for (auto& [id, client] : clients_) {
        send(client, {{"type", "error"}, {"message", error.what()}});
      }
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stopping_; });
    }
  }
}

void ViewService::handle(Event& event) {
  switch (event.kind) {
    case Event::Kind::Connect: {
      Client& client =
          clients_.emplace(event.client, Client{event.channel, ClientView(options_.pacing)})
              .first->second;
      client.view.rig().setFollowsScene(true);
      break;
    }
    case Event::Kind::Disconnect:
      clients_.erase(event.client);
      break;
    case Event::Kind::DisconnectAll: {
      clients_.clear();
      encoder_->drain();  // frames being encoded hold their channels until handed over
      {
        std::lock_guard lock(mutex_);
        ++disconnectsDone_;
      }
      wake_.notify_all();
      break;
    }
    case Event::Kind::Message: {
      const auto it = clients_.find(event.client);
      if (it != clients_.end()) {
        handleMessage(it->second, event.client, *event.message, event.sequence);
      }
      break;
    }
  }
}

void ViewService::greet(Client& client) {
  ClientView& view = client.view;
  // Data without colours of its own is shaded by eye-dome lighting, as pcv render does.
  if (!scene_->parts().inCore.cloud().hasColor && !scene_->parts().cylinders &&
      !scene_->parts().stream) {
    SettingsMessage edl;
    edl.edl = true;
    view.apply(edl, ServerClock::now());
  }
  if (wantsFraming(client)) frameScene(client);
  send(client, {{"type", "hello"},
                {"version", 1},
                {"scene", sceneJson()},
                {"settings", settingsJson(view)}});
  client.greeted = true;
}

bool ViewService::wantsFraming(const Client& client) const {
  // A camera never framed on anything (its input came while the scene was still empty) is
  // framed when the scene arrives, whatever it did meanwhile; one the user moved since is not.
  return !scene_->shownBounds().empty() && (!client.framed || client.view.rig().followsScene());
}

void ViewService::frameScene(Client& client) {
  CameraRig& rig = client.view.rig();
  rig.frame(scene_->shownBounds(), client.view.aspect(),
            scene_->loading() ? std::vector<glm::dvec3>()
                              : framingSamples(scene_->parts().inCore.cloud()));
  rig.setMode(CameraMode::Orbit, rig.orbit().distance());
  rig.setFollowsScene(true);  // until the user moves it
  client.framed = true;
}

void ViewService::takeSceneChanges() {
  const std::optional<Box3d> shown = scene_->poll();
  if (!shown) return;
  sceneClasses_ = classesPresent(scene_->parts().inCore.cloud(), scene_->coloring().used);
  const json changed = {{"type", "scene"}, {"scene", sceneJson()}};
  for (auto& [id, client] : clients_) {
    if (wantsFraming(client)) frameScene(client);
    client.view.sceneChanged();
    if (client.greeted) send(client, changed);
  }
}

void ViewService::handleMessage(Client& client, uint64_t id, const ClientMessage& message,
                                std::optional<uint64_t> sequence) {
  ClientView& view = client.view;
  const ServerClock::time_point now = ServerClock::now();
  if (sequence) view.noteSequence(*sequence);
  if (const auto* focus = std::get_if<FocusMessage>(&message)) {
    if (const auto point = pickWorld(view, focus->x, focus->y)) view.rig().focusOn(*point);
    view.touched(now);
    return;
  }
  if (const auto* pick = std::get_if<PickMessage>(&message)) {
    json answer = {{"type", "pick"}, {"id", pick->id}, {"point", nullptr}};
    if (const auto point = pickWorld(view, pick->x, pick->y)) {
      json attributes = json::object();
      const PointCloud& cloud = scene_->parts().inCore.cloud();
      const std::optional<PickedWorldPoint>& picked = scene_->picked();
      if (picked && picked->inCoreIndex && *picked->inCoreIndex < cloud.size()) {
        for (const ScalarAttribute& attribute : cloud.attributes) {
          attributes[attribute.name] = attribute.value(*picked->inCoreIndex);
        }
      }
      answer["point"] = {{"position", vec3Json(*point)}, {"attributes", attributes}};
    }
    send(client, answer);
    return;
  }
  if (std::holds_alternative<HomeMessage>(message)) {
    if (!scene_->shownBounds().empty()) frameScene(client);
    view.touched(now);
    return;
  }
  if (const auto* settings = std::get_if<SettingsMessage>(&message)) {
    // The scene's settings change every client's view.
    bool sceneChanged = false;
    if (settings->color) {
      ColoringOptions coloring = scene_->coloring().asked;
      try {
        coloring.mode = parseColorMode(*settings->color);
      } catch (const Error& error) {
        send(client, {{"type", "error"}, {"message", error.what()}});
        return;
      }
      scene_->setColoring(coloring);
      sceneClasses_ = classesPresent(scene_->parts().inCore.cloud(), scene_->coloring().used);
      sceneChanged = true;
    }
    if (settings->pointBudget && scene_->stream()) {
      scene_->stream()->cloud().setPointBudget(*settings->pointBudget);
      sceneChanged = true;
    }
    if (sceneChanged) {
      const json changed = {{"type", "scene"}, {"scene", sceneJson()}};
      for (auto& [otherId, other] : clients_) {
        other.view.sceneChanged();
        if (otherId != id && other.greeted) send(other, changed);
      }
    }
  }
  const bool sized = std::holds_alternative<ViewSizeMessage>(message);
  view.apply(message, now);
  // A view not yet moved keeps the scene framed at its new size.
  if (sized && wantsFraming(client)) frameScene(client);
  if (std::holds_alternative<SettingsMessage>(message)) {
    send(client, {{"type", "settings"}, {"settings", settingsJson(view)}});
  }
}

std::optional<glm::dvec3> ViewService::pickWorld(const ClientView& view, int xPx, int yPx) {
  if (xPx >= view.widthPx() || yPx >= view.heightPx()) return std::nullopt;
  scene_->updateStream(view.rig().camera(), view.widthPx(), view.heightPx());
  // The page counts rows from the top, the renderer from the bottom.
  return scene_->pick(view.rig().camera(), view.renderSettings(options_.render, FrameKind::Moving),
                      view.widthPx(), view.heightPx(), xPx, view.heightPx() - 1 - yPx);
}

bool ViewService::drawNext() {
  const ServerClock::time_point now = ServerClock::now();
  const bool settled = !scene_->loading();
  // Round robin: start after the client drawn last.
  auto it = clients_.upper_bound(lastDrawn_);
  for (size_t tried = 0; tried < clients_.size(); ++tried, ++it) {
    if (it == clients_.end()) it = clients_.begin();
    Client& client = it->second;
    if (!client.greeted) continue;
    const FrameKind kind = client.view.owed(now, settled);
    if (kind == FrameKind::None) continue;
    lastDrawn_ = it->first;
    try {
      draw(it->first, client, kind);
    } catch (const Error& error) {
      // A frame the renderer refused (settings it cannot draw, a device out of memory): the
      // client hears why, and is not drawn again until it changes something.
      std::fprintf(stderr, "pcv serve: %s\n", error.what());
      client.view.drawFailed();
      send(client, {{"type", "error"}, {"message", error.what()}});
    }
    return true;
  }
  return false;
}

void ViewService::draw(uint64_t id, Client& client, FrameKind kind) {
  ClientView& view = client.view;
  const std::shared_ptr<ClientChannel> channel = client.channel.lock();
  if (!channel) return;  // gone: its disconnect is on the way
  const ServerClock::time_point start = ServerClock::now();
  view.advance(start);
  const Camera& camera = view.rig().camera();
  const int width = view.widthPx(), height = view.heightPx();
  scene_->updateStream(camera, width, height);
  const SceneParts& parts = scene_->parts();
  const RenderSettings settings = view.renderSettings(options_.render, kind);
  std::unique_ptr<Image> image = takeImage(width, height);
  renderer_->render(parts.drawnSets(), makeViewTransform(camera, width, height, parts.origin),
                    settings, RenderTarget{image->pixels.data(), width, height, MemorySpace::Host});
  const double drawMs =
      std::chrono::duration<double, std::milli>(ServerClock::now() - start).count();
  const uint64_t frame = view.frameSent(kind, ServerClock::now());
  const bool lossless = kind == FrameKind::Final && view.settings().lossless;
  encoder_->submit(FrameJob{
      .channel = client.channel,
      .client = id,
      .frame = frame,
      .image = std::move(image),
      .format = lossless ? FrameFormat::Png : FrameFormat::Jpeg,
      .jpegQuality = kind == FrameKind::Final ? options_.finalJpegQuality : options_.jpegQuality,
      .final = kind == FrameKind::Final,
      .status = statusJson(view, frame, kind, settings, drawMs)});
}

void ViewService::waitForWork() {
  const ServerClock::time_point now = ServerClock::now();
  const bool settled = !scene_->loading();
  ServerClock::time_point until = now + kIdlePoll;
  for (const auto& [id, client] : clients_) {
    if (const auto chance = client.view.nextChance(now, settled)) until = std::min(until, *chance);
  }
  std::unique_lock lock(mutex_);
  wake_.wait_until(lock, until, [this] { return stopping_ || !events_.empty(); });
}

std::unique_ptr<Image> ViewService::takeImage(int width, int height) {
  std::unique_ptr<Image> image;
  {
    std::lock_guard lock(mutex_);
    if (!images_.empty()) {
      image = std::move(images_.back());
      images_.pop_back();
    }
  }
  if (!image) image = std::make_unique<Image>();
  // The same size as the last time is the common case: no allocation, no page faults.
  image->width = width;
  image->height = height;
  image->pixels.resize(size_t(width) * size_t(height));
  return image;
}

void ViewService::send(Client& client, const json& message) {
  if (const std::shared_ptr<ClientChannel> channel = client.channel.lock()) {
    channel->sendText(message.dump());
  }
}

json ViewService::sceneJson() const {
  const SceneParts& parts = scene_->parts();
  const Box3d bounds = scene_->shownBounds();
  json classes = json::array();
  for (const uint32_t c : sceneClasses_) {
    classes.push_back({{"code", c}, {"name", classificationName(c)}});
  }
  const StreamPart* stream = parts.stream.get();
  return {{"points", parts.pointsDrawn()},
          {"bounds", bounds.empty() ? json(nullptr)
                                    : json::array({bounds.min.x, bounds.min.y, bounds.min.z,
                                                   bounds.max.x, bounds.max.y, bounds.max.z})},
          {"hasColor", parts.inCore.cloud().hasColor || parts.cylinders != nullptr},
          {"colors", colorModesOf(parts)},
          {"color", colorModeName(scene_->coloring().used.mode)},
          {"classes", classes},
          {"streamed", stream != nullptr},
          {"pointBudget", stream ? json(stream->cloud().pointBudget()) : json(nullptr)},
          {"loading", scene_->loading()},
          {"backend", renderer_->backendName()},
          {"device", renderer_->deviceDescription()}};
}

json ViewService::settingsJson(const ClientView& view) const {
  const ClientSettings& s = view.settings();
  json classes = nullptr;
  if (s.classes) classes = *s.classes;
  return {{"pointSize", s.pointSizePx},
          {"edl", s.edl},
          {"hq", s.hq},
          {"lossless", s.lossless},
          {"classes", classes},
          {"color", colorModeName(scene_->coloring().asked.mode)},
          {"camera", view.rig().mode() == CameraMode::Orbit ? "orbit" : "fly"}};
}

json ViewService::statusJson(const ClientView& view, uint64_t frame, FrameKind kind,
                             const RenderSettings& settings, double drawMs) const {
  const Camera& camera = view.rig().camera();
  const SceneParts& parts = scene_->parts();
  json stream = nullptr;
  if (parts.stream) {
    const StreamingStats& stats = parts.stream->cloud().stats();
    stream = {{"resident", stats.nodesResident},
              {"wanted", stats.nodesWanted},
              {"converged", stats.nodesResident >= stats.nodesWanted}};
  }
  const ViewDescription description{.files = options_.files,
                                    .demoPoints = options_.demo.pointCount,
                                    .demoSeed = options_.demo.seed,
                                    .camera = camera,
                                    .widthPx = view.widthPx(),
                                    .heightPx = view.heightPx(),
                                    .settings = settings,
                                    .coloring = scene_->coloring().asked,
                                    .read = options_.read};
  return {{"type", "status"},
          {"frame", frame},
          {"camera",
           {{"eye", vec3Json(camera.eye)},
            {"yaw", degreesReproducing(camera.yawRadians)},
            {"pitch", degreesReproducing(camera.pitchRadians)},
            {"fov", degreesReproducing(camera.fovYRadians)}}},
          {"mode", view.rig().mode() == CameraMode::Orbit ? "orbit" : "fly"},
          {"final", kind == FrameKind::Final},
          {"input", view.inputSequence()},
          {"width", view.widthPx()},
          {"height", view.heightPx()},
          {"points", parts.pointsDrawn()},
          {"drawMs", drawMs},
          {"stream", stream},
          {"command", renderCommand(description)}};
}

}  // namespace pcv::app
