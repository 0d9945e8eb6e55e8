#include "read_context.hpp"

#include "pcv/core/host_memory.hpp"
#include "pcv/io/malformed_file_error.hpp"

namespace pcv::io {

void ReadContext::requireMemoryForPoints(uint64_t points, size_t attributes) const {
  requireHostMemory(file + "'s points (16 bytes each, 4 per attribute)", points,
                    sizeof(Point) + 4 * attributes);
}

void ReadContext::failAt(uint64_t byteOffset, const std::string& what) const {
  throw MalformedFileError(file, {.byteOffset = byteOffset, .line = {}}, what);
}

void ReadContext::failAtLine(uint64_t line, const std::string& what) const {
  throw MalformedFileError(file, {.byteOffset = {}, .line = line}, what);
}

void ReadContext::fail(const std::string& what) const {
  throw MalformedFileError(file, {}, what);
}

void ReadContext::advance(uint64_t bytes) const {
  if (!progress) return;
  progress->bytesDone.fetch_add(bytes, std::memory_order_relaxed);
  if (progress->cancel.load(std::memory_order_relaxed)) {
    throw LoadCancelled(file + ": loading cancelled");
  }
}

void ReadContext::reachedByte(uint64_t bytes) const {
  if (progress) progress->bytesDone.store(bytes, std::memory_order_relaxed);
  advance(0);
}

}  // namespace pcv::io
