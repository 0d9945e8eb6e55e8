#include "laz_records.hpp"

#include <algorithm>

namespace pcv::io {
namespace {

constexpr uint64_t kEvlrHeaderBytes = 60;

/// Chunk data ends at the first EVLR, if there is one after the points.
uint64_t pointDataLimit(const LasHeader& header, uint64_t fileSize) {
  uint64_t limit = fileSize;
  for (const LasVlr& evlr : header.evlrs) {
    const uint64_t start = evlr.payloadOffset - kEvlrHeaderBytes;
    if (start >= header.pointsOffset) limit = std::min(limit, start);
  }
  return limit;
}

}  // namespace

LazPointRecords::LazPointRecords(std::span<const uint8_t> file, const LasHeader& header,
                                 const ReadContext& context)
    : ownedSource_(std::make_unique<SpanByteSource>(file, context.file)),
      file_(ownedSource_.get()),
      context_(context),
      pointsOffset_(header.pointsOffset) {
  locate(header, context);
}

LazPointRecords::LazPointRecords(const ByteSource& file, const LasHeader& header,
                                 const ReadContext& context)
    : file_(&file), context_(context), pointsOffset_(header.pointsOffset) {
  locate(header, context);
}

std::vector<ByteRange> LazPointRecords::firstRecordRanges() const {
  std::vector<ByteRange> ranges;
  for (const laz::ChunkLocation& chunk : layout_.chunks) {
    ranges.push_back({chunk.offset, recordLength()});
  }
  return ranges;
}

void LazPointRecords::locate(const LasHeader& header, const ReadContext& context) {
  std::vector<uint8_t> storage;
  const LasVlr* vlr = header.findVlr(laz::kLaszipUserId, laz::kLaszipRecordId);
  if (!vlr) {
    context.failAt(104,
                   "the point format byte marks the points as LASzip-compressed, but there "
                   "is no LASzip VLR ('laszip encoded', record 22204) to decode them");
  }
  try {
    vlr_ = laz::parseLaszipVlr(file_->read(vlr->payloadOffset, vlr->payloadBytes, storage),
                               header.pointFormat, uint32_t(header.recordLength));
  } catch (const laz::LazError& e) {
    context.failAt(vlr->payloadOffset + e.byte, e.what());
  }
  try {
    layout_ = laz::locateChunks(*file_, header.pointsOffset, header.pointCount, vlr_,
                                pointDataLimit(header, file_->size()));
  } catch (const laz::LazError& e) {
    context.failAt(e.byte, e.what());
  }
  if (layout_.missingPoints > 0 && context.strict()) {
    context.failAt(file_->size(), truncationText());
  }
}

std::string LazPointRecords::truncationText() const {
  const uint64_t present =
      layout_.chunks.empty() ? 0
                             : layout_.chunks.back().firstPoint + layout_.chunks.back().pointCount;
  return "the file is cut short (truncated): " + std::to_string(layout_.missingPoints) +
         " of the " + std::to_string(present + layout_.missingPoints) +
         " points the header declares lie past its end; its " +
         std::to_string(layout_.chunks.size()) + " whole chunks hold " + std::to_string(present);
}

std::vector<std::string> LazPointRecords::describe() const {
  std::vector<std::string> lines;
  std::string compression = "LAZ: compressor " + std::to_string(int(vlr_.compressor)) + " (" +
                            laz::compressorName(vlr_.compressor) + "), LASzip version " +
                            std::to_string(vlr_.versionMajor) + "." +
                            std::to_string(vlr_.versionMinor) + "r" +
                            std::to_string(vlr_.versionRevision);
  lines.push_back(compression);
  if (vlr_.chunked()) {
    std::string chunks = vlr_.variableChunks()
                             ? "LAZ chunks: variable size"
                             : "LAZ chunks: " + std::to_string(vlr_.chunkSize) + " points each";
    chunks += ", " + std::to_string(chunkCount()) + (chunkCount() == 1 ? " chunk" : " chunks");
    lines.push_back(chunks);
  }
  lines.push_back("LAZ items: " + laz::describeItems(vlr_.items));
  if (!layout_.tableProblem.empty()) {
    lines.push_back("LAZ chunk table not used: " + layout_.tableProblem +
                    (layout_.sequential ? "; the chunks were decoded one after the other"
                                        : "; the chunks were found from their own sizes"));
  }
  return lines;
}

std::vector<std::string> LazPointRecords::warnings() const {
  std::vector<std::string> lines;
  if (!layout_.tableProblem.empty()) {
    lines.push_back(context_.file + ": " + layout_.tableProblem +
                    (layout_.sequential ? "; the chunks were decoded one after the other"
                                        : "; the chunks were found from their own sizes"));
  }
  for (const std::string& warning : layout_.warnings)
    lines.push_back(context_.file + ": " + warning);
  if (layout_.missingPoints > 0) {
    lines.push_back(context_.file + ": " + truncationText() + ", which are read");
  }
  return lines;
}

std::unique_ptr<laz::ChunkDecoder> LazPointRecords::makeDecoder(
    const laz::FieldSelection& fields) const {
  return std::make_unique<laz::ChunkDecoder>(vlr_, fields);
}

void LazPointRecords::failInChunk(size_t index, uint64_t chunkByte, const std::string& what) const {
  const laz::ChunkLocation& chunk = layout_.chunks[index];
  std::string where = "chunk " + std::to_string(index) + " of " + std::to_string(chunkCount()) +
                      " (points " + std::to_string(chunk.firstPoint) + "-" +
                      std::to_string(chunk.firstPoint + chunk.pointCount - 1) + ", from byte " +
                      std::to_string(chunk.offset) + ")";
  context_.failAt(chunk.offset + chunkByte, where + ": " + what);
}

void LazPointRecords::decodeChunk(size_t index, laz::ChunkDecoder& decoder, uint8_t* buffer,
                                  uint64_t bufferPoints, const RecordSink& sink) {
  laz::ChunkLocation& chunk = layout_.chunks[index];
  const uint64_t size = layout_.sequential ? layout_.dataEnd - chunk.offset : chunk.byteCount;
  // The chunk's bytes: in place for a mapped file, fetched (one merged request) for a remote one.
  std::vector<uint8_t> storage;
  const std::span<const uint8_t> bytes = file_->read(chunk.offset, size, storage);
  try {
    decoder.start(bytes.data(), size, chunk.pointCount);
  } catch (const laz::LazError& e) {
    failInChunk(index, e.byte, e.what());
  }
  if (vlr_.compressor == laz::Compressor::Layered &&
      decoder.statedPointCount() != chunk.pointCount) {
    failInChunk(index, recordLength(),
                "point counts disagree: the chunk states " +
                    std::to_string(decoder.statedPointCount()) +
                    " points, the header and chunk "
                    "table give it " +
                    std::to_string(chunk.pointCount));
  }
  for (uint64_t done = 0; done < chunk.pointCount;) {
    const uint64_t count = std::min(bufferPoints, chunk.pointCount - done);
    decoder.decode(count, buffer);
    if (const auto fault = decoder.fault()) failInChunk(index, fault->byte, fault->what);
    sink(buffer, chunk.firstPoint + done, count);
    done += count;
  }
  // Encoders write exactly the bytes a decoder reads: bytes left over mean the chunk holds
  // more points than the header and table give it.
  const bool endKnown = vlr_.chunked() && !layout_.sequential;
  if (endKnown && chunk.pointCount > 0 && decoder.bytesUsed() < chunk.byteCount) {
    failInChunk(index, decoder.bytesUsed(),
                "point counts disagree: " + std::to_string(chunk.byteCount - decoder.bytesUsed()) +
                    " of the chunk's bytes are left after its " + std::to_string(chunk.pointCount) +
                    " points");
  }
  if (layout_.sequential) {
    chunk.byteCount = decoder.bytesUsed();
    if (index + 1 < chunkCount()) {
      laz::ChunkLocation& next = layout_.chunks[index + 1];
      next.offset = chunk.offset + chunk.byteCount;
      next.byteCount = layout_.dataEnd - next.offset;
    }
  }
}

}  // namespace pcv::io
