/// @brief Frames encoded off the render thread: JPEG (libturbojpeg) while moving, PNG for a
/// lossless final frame, on a few threads of their own, each client's frames always on the same
/// thread so they leave in the order they were drawn. The encoded frame goes to the client's
/// channel after its status message.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "pcv/core/image.hpp"
#include "server/client_channel.hpp"

namespace pcv::app {

enum class FrameFormat : uint8_t { Jpeg = 1, Png = 2 };

/// The 16-byte header of a frame message (docs/serve.md), little-endian:
/// | u32 magic "PCVF" | u32 frame | u16 width | u16 height | u8 format | u8 flags | u16 0 |
constexpr uint32_t kFrameMagic = 0x46564350;
constexpr size_t kFrameHeaderBytes = 16;
constexpr uint8_t kFrameFinal = 1;  ///< flags bit 0: the full-quality frame of a still view

struct FrameJob {
  std::weak_ptr<ClientChannel> channel;
  uint64_t client = 0;  ///< picks the thread: one client's frames stay in order
  uint64_t frame = 0;
  std::unique_ptr<Image> image;
  FrameFormat format = FrameFormat::Jpeg;
  int jpegQuality = 85;
  bool final = false;
  nlohmann::json status;  ///< sent first, with "encodeMs" and "bytes" added
};

class FrameEncoder {
 public:
  /// `threads` encoders (at least one). `recycle` gets each image back once encoded.
  FrameEncoder(int threads, std::function<void(std::unique_ptr<Image>)> recycle);
  /// Encodes what is queued, then stops.
  ~FrameEncoder();
  FrameEncoder(const FrameEncoder&) = delete;
  FrameEncoder& operator=(const FrameEncoder&) = delete;

  void submit(FrameJob job);
  /// Waits until every frame submitted so far is encoded and handed over (or dropped).
  void drain();

 private:
  struct Lane {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<FrameJob> jobs;
    bool busy = false;  // a job taken and not yet finished
    bool stopping = false;
    std::thread thread;
  };
  void run(Lane& lane);

  std::function<void(std::unique_ptr<Image>)> recycle_;
  std::vector<std::unique_ptr<Lane>> lanes_;
};

/// The frame message: header then `encoded`.
std::vector<uint8_t> frameMessage(uint64_t frame, int width, int height, FrameFormat format,
                                  bool final, const std::vector<uint8_t>& encoded);

}  // namespace pcv::app
