// libFuzzer target for the journal of an in-place save (io/common/save_journal): a journal read
// back after a crash may be cut anywhere or damaged; it must parse or be refused, never crash or
// read out of bounds, and what parses must hold together (every region inside the file it names
// and inside the journal's bytes).
#include <cstdint>
#include <cstdlib>
#include <span>

#include "common/save_journal.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  const auto journal = pcv::io::parseSaveJournal(bytes);
  if (!journal) return 0;
  for (const auto& region : journal->regions) {
    if (region.offset > journal->fileSize ||
        region.bytes.size() > journal->fileSize - region.offset || region.bytes.data() < data ||
        region.bytes.data() + region.bytes.size() > data + size) {
      std::abort();
    }
  }
  return 0;
}
