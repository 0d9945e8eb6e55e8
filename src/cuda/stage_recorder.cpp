#include "pcv/cuda/stage_recorder.hpp"

namespace pcv {

void StageRecorder::beginFrame(cudaStream_t stream) {
  stream_ = stream;
  stages_.clear();
  if (events_.empty()) events_.emplace_back();
  CUDA_CHECK(cudaEventRecord(events_[0].get(), stream_));
}

void StageRecorder::endStage(const char* stage) {
  if (!perStage_) return;
  record(stage);
}

void StageRecorder::endFrame() {
  if (!perStage_) record("frame");
}

void StageRecorder::record(const char* stage) {
  stages_.emplace_back(stage);
  while (events_.size() < stages_.size() + 1) events_.emplace_back();
  CUDA_CHECK(cudaEventRecord(events_[stages_.size()].get(), stream_));
}

void StageRecorder::checkLaunch(const char* stage) {
  const cudaError_t launchStatus = cudaGetLastError();
  if (launchStatus != cudaSuccess) {
    throw Error(std::string("launching the '") + stage +
                "' kernel failed: " + cudaGetErrorString(launchStatus));
  }
#ifndef NDEBUG
  const cudaError_t runStatus = cudaStreamSynchronize(stream_);
  if (runStatus != cudaSuccess) {
    throw Error(std::string("the '") + stage + "' kernel failed: " + cudaGetErrorString(runStatus));
  }
#endif
}

StageTimings StageRecorder::timings() {
  StageTimings result;
  if (stages_.empty()) return result;
  CUDA_CHECK(cudaEventSynchronize(events_[stages_.size()].get()));
  for (size_t i = 0; i < stages_.size(); ++i) {
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i].get(), events_[i + 1].get()));
    result.push_back({stages_[i], ms});
  }
  return result;
}

}  // namespace pcv
