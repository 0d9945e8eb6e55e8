/// @brief LAZ and COPC chunks decoded on the GPU: what a front end needs to choose it
/// (`--decode auto|cuda|cpu`) and hand it to the readers through ReadOptions::lazDecoder.
#pragma once

#include <memory>
#include <string>

#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::io {

/// Whether a CUDA device is there to decode on; `why` (may be null) says why not.
bool cudaLazDecodeUsable(std::string* why = nullptr);

/// A GPU decoder for ReadOptions::lazDecoder (throws pcv::Error when no device is usable). One
/// decoder keeps its device memory from file to file; it decodes one file at a time. With
/// `fallBackToCpu` the readers decode on the CPU when the device fails (`--decode auto`).
std::shared_ptr<laz::ChunkBatchDecoder> makeCudaLazDecoder(bool fallBackToCpu = false);

/// The decoder a front end's choice names (`--decode`, pcv.read's `decode=`): null for "cpu"
/// and for "auto", which takes the CPU (the GPU decoder is faster than 16 cores only for batches
/// of over ~1 500 chunks, bench/RESULTS.md); the GPU decoder for "cuda", or UnavailableError
/// saying why no device is usable. Any other name is an InputError.
std::shared_ptr<laz::ChunkBatchDecoder> lazDecoderNamed(const std::string& choice);

}  // namespace pcv::io
