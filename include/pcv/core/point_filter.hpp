/// @brief Which points a frame draws and an export writes, by what LiDAR files say of each point:
/// its class (ASPRS codes 0-255), its return (first, last, only, the N-th) and the ranges of any
/// attributes (intensity, gps_time ...). The renderer (both backends), the export and the profile
/// read the same description; the parsers here are the command line's, with errors that name the
/// flag, the text, where in it the fault is and what was expected.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pcv/core/point_cloud.hpp"

namespace pcv {

/// A set of ASPRS classes, one bit per code 0-255.
struct ClassSet {
  uint64_t words[4] = {~0ull, ~0ull, ~0ull, ~0ull};  ///< every class by default

  static ClassSet none() { return ClassSet{{0, 0, 0, 0}}; }
  bool contains(uint32_t code) const { return code < 256 && (words[code >> 6] >> (code & 63)) & 1; }
  void set(uint32_t code, bool kept) {
    const uint64_t bit = 1ull << (code & 63);
    words[code >> 6] = kept ? words[code >> 6] | bit : words[code >> 6] & ~bit;
  }
  bool all() const { return (words[0] & words[1] & words[2] & words[3]) == ~0ull; }
  bool operator==(const ClassSet&) const = default;
};

/// Which returns of each pulse are kept.
enum class ReturnChoice : uint8_t {
  Any,     ///< every return
  First,   ///< return number 1
  Last,    ///< return number == number of returns
  Only,    ///< single returns: number of returns == 1
  Number,  ///< return number == PointFilter::returnNumber
};

/// The points whose attribute lies in [min, max] (inclusive; NaN never does).
struct AttributeRange {
  std::string attribute;  ///< as the readers name it: "intensity", "gps_time" ...
  double min = 0.0;
  double max = 0.0;
  bool operator==(const AttributeRange&) const = default;
};

struct PointFilter {
  ClassSet classes;                        ///< classes kept (all by default)
  ReturnChoice returns = ReturnChoice::Any;
  uint32_t returnNumber = 0;               ///< with ReturnChoice::Number: 1-15
  std::vector<AttributeRange> ranges;      ///< all must hold

  bool filtersClasses() const { return !classes.all(); }
  bool filtersReturns() const { return returns != ReturnChoice::Any; }
  /// True when any point can be left out.
  bool active() const { return filtersClasses() || filtersReturns() || !ranges.empty(); }
  bool operator==(const PointFilter&) const = default;
};

/// Whether a return passes the choice: returnNumber and numberOfReturns as a LAS record has them.
inline bool returnKept(const PointFilter& filter, uint32_t returnNumber, uint32_t numberOfReturns) {
  switch (filter.returns) {
    case ReturnChoice::Any: return true;
    case ReturnChoice::First: return returnNumber == 1;
    case ReturnChoice::Last: return returnNumber == numberOfReturns && numberOfReturns > 0;
    case ReturnChoice::Only: return numberOfReturns == 1;
    case ReturnChoice::Number: return returnNumber == filter.returnNumber;
  }
  return true;
}

/// Whether `value` lies in the range (NaN never does).
inline bool rangeKeeps(const AttributeRange& range, double value) {
  return value >= range.min && value <= range.max;
}

/// The attributes each filter reads from a cloud ("classification", "return_number",
/// "number_of_returns", the ranges' names), without repeats.
std::vector<std::string> attributesNeeded(const PointFilter& filter);

/// The CPU predicate over a cloud's points: looks up the attributes once. Throws InputError
/// naming the attribute and the ones the cloud has when it lacks one the filter reads.
class CloudFilter {
 public:
  CloudFilter(const PointFilter& filter, const PointCloud& cloud);
  /// Whether point `index` of the cloud passes every filter.
  bool keeps(uint64_t index) const;

 private:
  PointFilter filter_;
  const ScalarAttribute* classification_ = nullptr;
  const ScalarAttribute* returnNumber_ = nullptr;
  const ScalarAttribute* numberOfReturns_ = nullptr;
  std::vector<const ScalarAttribute*> ranged_;  ///< one per range
};

/// The name of an ASPRS class (LAS 1.4 R15, table 17), or "Class N" for codes it leaves to users.
std::string asprsClassName(uint32_t code);

/// "2,6,9-12": the classes of `--classes` / `--exclude-classes` (ranges a-b inclusive). `flag`
/// names the option in errors. Throws InputError saying where the text is wrong.
ClassSet parseClassList(std::string_view text, std::string_view flag);
/// "first", "last", "only" or a return number 1-15, into `filter`. Throws InputError.
void parseReturnChoice(std::string_view text, PointFilter& filter);
/// "intensity=100:2000" (either bound may be empty: unbounded). Throws InputError.
AttributeRange parseAttributeRange(std::string_view text);
/// The command line's words for a filter ("--classes 2,6 --returns first ..."), with a leading
/// space each; empty when the filter is inactive. Parses back to the same filter.
std::string filterArguments(const PointFilter& filter);

}  // namespace pcv
