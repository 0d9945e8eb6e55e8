// Reads a VPC feature by feature: nlohmann's parser calls back at the end of each item of
// "features", the item becomes a VpcTile and its JSON is dropped, so memory holds one feature
// at a time whatever the number of tiles.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <limits>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "pcv/core/error.hpp"
#include "pcv/io/byte_source.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/uri_reference.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "vpc_fields.hpp"

namespace pcv {
namespace {

using nlohmann::json;

/// Deeper JSON than any VPC needs is refused before the parser builds it.
constexpr int kMaxDepth = 32;

/// Throws the InputError for a value at a JSON pointer.
[[noreturn]] void failAt(const std::string& name, const std::string& pointer,
                         const std::string& what) {
  throw InputError(name + ": " + (pointer.empty() ? "/" : pointer) + ": " + what);
}

/// Turns the object-building events of the parser into tiles.
class FeatureCollectionParser {
 public:
  FeatureCollectionParser(std::string name, std::string base, VpcHrefRules rules)
      : name_(std::move(name)), base_(std::move(base)), rules_(rules) {}

  /// nlohmann's parser_callback_t: false drops the value just parsed.
  bool onEvent(int depth, json::parse_event_t event, json& parsed) {
    using Event = json::parse_event_t;
    const bool opens = event == Event::object_start || event == Event::array_start;
    if (opens && depth > kMaxDepth) {
      failAt(name_, featurePointer(),
             "nested deeper than " + std::to_string(kMaxDepth) +
                 " levels, expected a FeatureCollection");
    }
    if (depth == 0) return onRoot(event);
    if (depth == 1) return onRootMember(event, parsed);
    if (!inFeatures_ || depth > 2) return true;
    // An item of "features".
    if (event == Event::object_start) return true;
    if (event == Event::object_end) {
      FeatureFields fields = readFeature(parsed, featurePointer(), name_, base_, rules_);
      fields.tile.crsIndex = crsIndexOf(std::move(fields.crs));
      collection_.tiles.push_back(std::move(fields.tile));
      ++featureIndex_;
      return false;
    }
    failAt(name_, featurePointer(), "expected a Feature object");
  }

  VirtualPointCloud finish() {
    if (!sawFeatures_) failAt(name_, "/features", "missing, expected the array of tile items");
    if (collection_.coordinateSystems.empty()) collection_.coordinateSystems.emplace_back();
    return std::move(collection_);
  }

 private:
  bool onRoot(json::parse_event_t event) {
    if (event == json::parse_event_t::object_start || event == json::parse_event_t::object_end) {
      return true;
    }
    failAt(name_, "", "expected a JSON object (a GeoJSON FeatureCollection)");
  }

  /// Members of the root object: "features" is read item by item, "type" is checked, the rest
  /// (links, context ...) is dropped as soon as it is parsed.
  bool onRootMember(json::parse_event_t event, json& parsed) {
    using Event = json::parse_event_t;
    if (event == Event::key) {
      rootKey_ = parsed.get<std::string>();
      return true;
    }
    if (rootKey_ == "features") {
      if (event == Event::array_start) {
        inFeatures_ = sawFeatures_ = true;
        return true;
      }
      if (event == Event::array_end) {
        inFeatures_ = false;
        return false;
      }
      failAt(name_, "/features", "expected an array of Feature objects");
    }
    if (rootKey_ == "type" && event == Event::value &&
        (!parsed.is_string() || parsed.get<std::string>() != "FeatureCollection")) {
      failAt(name_, "/type", "expected \"FeatureCollection\", found " + parsed.dump(-1, ' ', true));
    }
    return event == Event::object_start || event == Event::array_start;
  }

  /// The CRS's index in the collection's list, added when new. Looked up by its declaration,
  /// so a VPC whose every item has its own CRS still reads in linear time.
  size_t crsIndexOf(CoordinateSystem crs) {
    std::string key = crs.wkt;
    key += '\0';
    key += std::to_string(crs.epsg);
    key += '+';
    key += std::to_string(crs.verticalEpsg);
    const auto [found, added] = crsIndices_.try_emplace(std::move(key), crsIndices_.size());
    if (added) collection_.coordinateSystems.push_back(std::move(crs));
    return found->second;
  }

  std::string featurePointer() const {
    if (inFeatures_) return "/features/" + std::to_string(featureIndex_);
    return rootKey_.empty() ? "" : "/" + rootKey_;
  }

  std::string name_, base_;
  VpcHrefRules rules_;
  std::string rootKey_;
  bool inFeatures_ = false, sawFeatures_ = false;
  uint64_t featureIndex_ = 0;
  std::unordered_map<std::string, size_t> crsIndices_;
  VirtualPointCloud collection_;
};

/// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string withoutId(const json::exception& error) {
  const std::string what = error.what();
  const size_t detail = what.find("] ");
  return detail == std::string::npos ? what : what.substr(detail + 2);
}

/// Passes a stream's bytes through in blocks and counts them, so an error nlohmann reports
/// without a position (a number out of range) still names the byte it reached.
class CountingBuffer : public std::streambuf {
 public:
  explicit CountingBuffer(std::streambuf* source) : source_(source) {}
  uint64_t consumed() const { return delivered_ - uint64_t(egptr() - gptr()); }

 private:
  int_type underflow() override {
    const std::streamsize got = source_ ? source_->sgetn(block_, sizeof block_) : 0;
    if (got <= 0) return traits_type::eof();
    delivered_ += uint64_t(got);
    setg(block_, block_, block_ + got);
    return traits_type::to_int_type(block_[0]);
  }

  std::streambuf* source_;
  char block_[1 << 16];
  uint64_t delivered_ = 0;
};

/// A ByteSource read front to back in blocks, as a stream: a remote VPC is parsed while it
/// arrives, never held whole (nor copied into a string and a string stream, as it once was).
class SourceBuffer : public std::streambuf {
 public:
  explicit SourceBuffer(const ByteSource& source) : source_(source) {}

 private:
  /// Bytes per read: few round trips, and a block the remote cache keeps or lets go.
  static constexpr uint64_t kBlockBytes = 4 << 20;

  int_type underflow() override {
    if (offset_ >= source_.size()) return traits_type::eof();
    const uint64_t length = std::min(kBlockBytes, source_.size() - offset_);
    const std::span<const uint8_t> got = source_.read(offset_, length, storage_);
    offset_ += got.size();
    char* begin = const_cast<char*>(reinterpret_cast<const char*>(got.data()));
    setg(begin, begin, begin + got.size());
    return traits_type::to_int_type(*begin);
  }

  const ByteSource& source_;
  uint64_t offset_ = 0;
  std::vector<uint8_t> storage_;
};

}  // namespace

uint64_t VirtualPointCloud::totalPoints() const {
  uint64_t total = 0;
  for (const VpcTile& tile : tiles) total += tile.pointCount.value_or(0);
  return total;
}

VirtualPointCloud parseVirtualPointCloud(std::istream& input, const std::string& name,
                                         const std::string& base, const VpcHrefRules& rules) {
  FeatureCollectionParser parser(name, base, rules);
  CountingBuffer counted(input.rdbuf());
  std::istream countedInput(&counted);
  try {
    // The root comes back without its members: every feature was dropped once read.
    const json emptied = json::parse(
        countedInput,
        [&](int depth, json::parse_event_t event, json& parsed) {
          return parser.onEvent(depth, event, parsed);
        },
        true, false);
  } catch (const json::parse_error& error) {
    throw InputError(name + ": byte " + std::to_string(error.byte) + ": " + withoutId(error) +
                     " (expected a VPC: GeoJSON FeatureCollection of STAC items)");
  } catch (const json::exception& error) {
    throw InputError(name + ": byte " + std::to_string(counted.consumed()) + ": " +
                     withoutId(error));
  }
  return parser.finish();
}

VirtualPointCloud readVirtualPointCloud(const std::filesystem::path& path) {
  return readVirtualPointCloud(path, {.sameOrigin = remoteOptions().tilesOnVpcOrigin});
}

VirtualPointCloud readVirtualPointCloud(const std::filesystem::path& path,
                                        const VpcHrefRules& rules) {
  if (isRemoteLocation(path.string())) {
    // Parsed as its blocks arrive; its hrefs are references resolved against its URL (RFC
    // 3986), so they name web resources only.
    const std::string url = path.string();
    const std::shared_ptr<const ByteSource> source = openByteSource(url);
    SourceBuffer buffer(*source);
    std::istream input(&buffer);
    return parseVirtualPointCloud(input, locationForMessages(url), url, rules);
  }
  // Checked before it is opened: a FIFO or a device would block the open or the read.
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error)
    throw InputError(path.string() + ": cannot open the virtual point cloud: " + error.message());
  if (!std::filesystem::is_regular_file(status)) {
    throw InputError(path.string() + ": the virtual point cloud is not a regular file");
  }
  std::ifstream input(path, std::ios::binary);
  if (!input) throw InputError(path.string() + ": cannot open the virtual point cloud");
  std::string base = path.parent_path().string();
  if (base.empty()) base = ".";
  return parseVirtualPointCloud(input, path.string(), base, rules);
}

}  // namespace pcv
