#include "pcv/core/point_filter.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

/// Where text fails: "--classes '2,x': at character 3, 'x': expected ...".
[[noreturn]] void failAt(std::string_view flag, std::string_view text, size_t position,
                         std::string_view expected) {
  const size_t end = std::min(text.size(), text.find(',', position));
  const std::string piece(text.substr(position, end - position));
  throw InputError(std::string(flag) + " '" + std::string(text) + "': at character " +
                   std::to_string(position + 1) + ", '" + piece + "': expected " +
                   std::string(expected));
}

/// A whole number in [0, limit] at text[position...], advancing position past it.
bool readNumber(std::string_view text, size_t& position, uint32_t limit, uint32_t& value) {
  const char* begin = text.data() + position;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(begin, end, value);
  if (error != std::errc() || stop == begin || value > limit) return false;
  position += size_t(stop - begin);
  return true;
}

bool readDouble(std::string_view text, double& value) {
  if (text.empty()) return false;
  const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && stop == text.data() + text.size() && !std::isnan(value);
}

const ScalarAttribute* requireAttribute(const PointCloud& cloud, const std::string& name,
                                        const char* why) {
  if (const ScalarAttribute* found = cloud.findAttribute(name)) return found;
  std::string known;
  for (const ScalarAttribute& a : cloud.attributes) known += (known.empty() ? "" : ", ") + a.name;
  throw InputError(std::string(why) + " needs the points' '" + name +
                   "' attribute; the points have " + (known.empty() ? "none" : known));
}

}  // namespace

std::vector<std::string> attributesNeeded(const PointFilter& filter) {
  std::vector<std::string> names;
  auto add = [&](const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  };
  if (filter.filtersClasses()) add("classification");
  if (filter.filtersReturns()) {
    add("return_number");
    if (filter.returns == ReturnChoice::Last || filter.returns == ReturnChoice::Only)
      add("number_of_returns");
  }
  for (const AttributeRange& range : filter.ranges) add(range.attribute);
  return names;
}

CloudFilter::CloudFilter(const PointFilter& filter, const PointCloud& cloud)
    : filter_(filter) {
  if (filter.filtersClasses())
    classification_ = requireAttribute(cloud, "classification", "the class filter");
  if (filter.filtersReturns()) {
    returnNumber_ = requireAttribute(cloud, "return_number", "the return filter");
    if (filter.returns == ReturnChoice::Last || filter.returns == ReturnChoice::Only)
      numberOfReturns_ = requireAttribute(cloud, "number_of_returns", "the return filter");
  }
  for (const AttributeRange& range : filter.ranges) {
    ranged_.push_back(requireAttribute(cloud, range.attribute, "the range filter"));
  }
}

bool CloudFilter::keeps(uint64_t index) const {
  if (classification_) {
    const float c = float(classification_->value(index));
    if (!(c >= 0.0f && c <= 255.0f) || !filter_.classes.contains(uint32_t(c))) return false;
  }
  if (returnNumber_) {
    const uint32_t number = uint32_t(std::clamp(returnNumber_->value(index), 0.0, 255.0));
    const uint32_t count =
        numberOfReturns_ ? uint32_t(std::clamp(numberOfReturns_->value(index), 0.0, 255.0)) : 0;
    if (!returnKept(filter_, number, count)) return false;
  }
  for (size_t r = 0; r < ranged_.size(); ++r) {
    if (!rangeKeeps(filter_.ranges[r], ranged_[r]->value(index))) return false;
  }
  return true;
}

std::string asprsClassName(uint32_t code) {
  static constexpr std::array<const char*, 23> kNames = {
      "Created, never classified", "Unclassified", "Ground", "Low vegetation",
      "Medium vegetation", "High vegetation", "Building", "Low point (noise)",
      "Reserved (model key-point)", "Water", "Rail", "Road surface", "Reserved (overlap)",
      "Wire guard (shield)", "Wire conductor (phase)", "Transmission tower",
      "Wire-structure connector", "Bridge deck", "High noise", "Overhead structure",
      "Ignored ground", "Snow", "Temporal exclusion"};
  if (code < kNames.size()) return kNames[code];
  return "Class " + std::to_string(code);
}

ClassSet parseClassList(std::string_view text, std::string_view flag) {
  constexpr const char* kExpected = "class numbers 0-255 or ranges a-b, separated by commas";
  ClassSet set = ClassSet::none();
  if (text.empty()) failAt(flag, text, 0, kExpected);
  size_t position = 0;
  while (true) {
    const size_t start = position;
    uint32_t low = 0, high = 0;
    if (!readNumber(text, position, 255, low)) failAt(flag, text, start, kExpected);
    high = low;
    if (position < text.size() && text[position] == '-') {
      ++position;
      if (!readNumber(text, position, 255, high) || high < low)
        failAt(flag, text, start, "a range a-b with a <= b <= 255");
    }
    for (uint32_t c = low; c <= high; ++c) set.set(c, true);
    if (position == text.size()) break;
    if (text[position] != ',') failAt(flag, text, start, kExpected);
    ++position;
  }
  return set;
}

void parseReturnChoice(std::string_view text, PointFilter& filter) {
  if (text == "first") filter.returns = ReturnChoice::First;
  else if (text == "last") filter.returns = ReturnChoice::Last;
  else if (text == "only") filter.returns = ReturnChoice::Only;
  else {
    size_t position = 0;
    uint32_t number = 0;
    if (!readNumber(text, position, 15, number) || number == 0 || position != text.size())
      failAt("--returns", text, 0, "first, last, only or a return number 1-15");
    filter.returns = ReturnChoice::Number;
    filter.returnNumber = number;
  }
}

AttributeRange parseAttributeRange(std::string_view text) {
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0)
    failAt("--range", text, 0, "NAME=MIN:MAX, e.g. intensity=100:2000");
  const size_t colon = text.find(':', equals);
  if (colon == std::string_view::npos)
    failAt("--range", text, equals + 1, "MIN:MAX (either may be empty: unbounded)");
  AttributeRange range{.attribute = std::string(text.substr(0, equals)),
                       .min = -INFINITY,
                       .max = INFINITY};
  const std::string_view low = text.substr(equals + 1, colon - equals - 1);
  const std::string_view high = text.substr(colon + 1);
  if (!low.empty() && !readDouble(low, range.min))
    failAt("--range", text, equals + 1, "a number before ':' (or nothing: unbounded)");
  if (!high.empty() && !readDouble(high, range.max))
    failAt("--range", text, colon + 1, "a number after ':' (or nothing: unbounded)");
  if (range.min > range.max) failAt("--range", text, equals + 1, "MIN <= MAX");
  return range;
}

std::string filterArguments(const PointFilter& filter) {
  std::string words;
  if (filter.filtersClasses()) {
    std::string list;
    for (uint32_t c = 0; c < 256; ++c) {
      if (!filter.classes.contains(c)) continue;
      uint32_t end = c;
      while (end + 1 < 256 && filter.classes.contains(end + 1)) ++end;
      list += (list.empty() ? "" : ",") + std::to_string(c);
      if (end > c) list += "-" + std::to_string(end);
      c = end;
    }
    // No class kept is written as an empty exclusion of all (0-255).
    words += list.empty() ? " --exclude-classes 0-255" : " --classes " + list;
  }
  switch (filter.returns) {
    case ReturnChoice::Any: break;
    case ReturnChoice::First: words += " --returns first"; break;
    case ReturnChoice::Last: words += " --returns last"; break;
    case ReturnChoice::Only: words += " --returns only"; break;
    case ReturnChoice::Number: words += " --returns " + std::to_string(filter.returnNumber); break;
  }
  auto bound = [](double value) {
    if (std::isinf(value)) return std::string();
    char buffer[32];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, end);
  };
  for (const AttributeRange& range : filter.ranges) {
    words += " --range " + range.attribute + "=" + bound(range.min) + ":" + bound(range.max);
  }
  return words;
}

}  // namespace pcv
