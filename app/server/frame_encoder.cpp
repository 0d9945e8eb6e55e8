#include "server/frame_encoder.hpp"

#include <chrono>
#include <cstdio>

#include "pcv/core/error.hpp"
#include "pcv/io/jpeg_writer.hpp"
#include "pcv/io/png_writer.hpp"

namespace pcv::app {
namespace {

/// zlib level of lossless frames: the fastest, since they cross a network once and are gone.
constexpr int kPngLevel = 1;

void putLittleEndian(std::vector<uint8_t>& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(value >> (8 * i)));
}

}  // namespace

std::vector<uint8_t> frameMessage(uint64_t frame, int width, int height, FrameFormat format,
                                  bool final, const std::vector<uint8_t>& encoded) {
  std::vector<uint8_t> message;
  message.reserve(kFrameHeaderBytes + encoded.size());
  putLittleEndian(message, kFrameMagic, 4);
  putLittleEndian(message, uint32_t(frame), 4);
  putLittleEndian(message, uint16_t(width), 2);
  putLittleEndian(message, uint16_t(height), 2);
  message.push_back(uint8_t(format));
  message.push_back(final ? kFrameFinal : 0);
  putLittleEndian(message, 0, 2);
  message.insert(message.end(), encoded.begin(), encoded.end());
  return message;
}

FrameEncoder::FrameEncoder(int threads, std::function<void(std::unique_ptr<Image>)> recycle)
    : recycle_(std::move(recycle)) {
  for (int i = 0; i < std::max(1, threads); ++i) {
    lanes_.push_back(std::make_unique<Lane>());
    Lane& lane = *lanes_.back();
    lane.thread = std::thread([this, &lane] { run(lane); });
  }
}

FrameEncoder::~FrameEncoder() {
  for (auto& lane : lanes_) {
    {
      std::lock_guard lock(lane->mutex);
      lane->stopping = true;
    }
    lane->ready.notify_all();
  }
  for (auto& lane : lanes_) lane->thread.join();
}

void FrameEncoder::submit(FrameJob job) {
  Lane& lane = *lanes_[job.client % lanes_.size()];
  {
    std::lock_guard lock(lane.mutex);
    lane.jobs.push_back(std::move(job));
  }
  lane.ready.notify_one();
}

void FrameEncoder::drain() {
  for (auto& lane : lanes_) {
    std::unique_lock lock(lane->mutex);
    lane->ready.wait(lock, [&] { return lane->jobs.empty() && !lane->busy; });
  }
}

void FrameEncoder::run(Lane& lane) {
  while (true) {
    FrameJob job;
    {
      std::unique_lock lock(lane.mutex);
      lane.busy = false;
      lane.ready.notify_all();  // drain() waits for this
      lane.ready.wait(lock, [&] { return lane.stopping || !lane.jobs.empty(); });
      if (lane.jobs.empty()) return;
      job = std::move(lane.jobs.front());
      lane.jobs.pop_front();
      lane.busy = true;
    }
    if (const std::shared_ptr<ClientChannel> channel = job.channel.lock()) {
      try {
        const auto start = std::chrono::steady_clock::now();
        const std::vector<uint8_t> encoded = job.format == FrameFormat::Png
                                                 ? encodePng(*job.image, kPngLevel)
                                                 : encodeJpeg(*job.image, job.jpegQuality);
        job.status["encodeMs"] =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        job.status["bytes"] = encoded.size();
        channel->sendFrame(job.status.dump(),
                           frameMessage(job.frame, job.image->width, job.image->height, job.format,
                                        job.final, encoded));
      } catch (const Error& error) {
        std::fprintf(stderr, "pcv serve: frame %llu not sent: %s\n",
                     static_cast<unsigned long long>(job.frame), error.what());
        channel->close();
      }
    }
    recycle_(std::move(job.image));
  }
}

}  // namespace pcv::app
