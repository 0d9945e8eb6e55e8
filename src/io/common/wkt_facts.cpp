#include "wkt_facts.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <vector>

namespace pcv::io {
namespace {

/// KEYWORD[value, "text", CHILD[...], ...]: quoted texts and bare values in order, and the
/// bracketed children.
struct WktNode {
  std::string keyword;
  std::vector<std::string> values;
  std::vector<WktNode> children;
};

/// Recursive descent over the WKT grammar's one shape. A file's WKT is untrusted: nesting is
/// capped so a crafted record cannot exhaust the stack, and a fault ends the parse with what was
/// read so far.
class WktParser {
 public:
  explicit WktParser(std::string_view text) : text_(text) {}

  /// The outermost node; its keyword is empty when the text does not start with one.
  WktNode parse() {
    WktNode root;
    skipSpace();
    root.keyword = identifier();
    skipSpace();
    if (!root.keyword.empty() && at() == '[') ++position_, body(root, ']', 0);
    if (!root.keyword.empty() && at() == '(') ++position_, body(root, ')', 0);
    return root;
  }

 private:
  static constexpr int kMaxDepth = 32;

  char at() const { return position_ < text_.size() ? text_[position_] : '\0'; }
  void skipSpace() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(at()))) {
      ++position_;
    }
  }
  std::string identifier() {
    const size_t start = position_;
    while (std::isalnum(static_cast<unsigned char>(at())) || at() == '_') ++position_;
    return std::string(text_.substr(start, position_ - start));
  }
  /// A quoted text; "" inside stands for one quote (WKT2).
  std::string quoted() {
    std::string value;
    ++position_;
    while (position_ < text_.size()) {
      const char c = text_[position_++];
      if (c != '"') {
        value += c;
      } else if (at() == '"') {
        value += '"';
        ++position_;
      } else {
        break;
      }
    }
    return value;
  }

  /// The items after the opening bracket, through `close`; false on a fault.
  bool body(WktNode& node, char close, int depth) {
    if (depth > kMaxDepth) return false;
    for (;;) {
      skipSpace();
      if (at() == close) {
        ++position_;
        return true;
      }
      if (at() == '"') {
        node.values.push_back(quoted());
      } else if (std::isalpha(static_cast<unsigned char>(at()))) {
        std::string word = identifier();
        skipSpace();
        if (at() == '[' || at() == '(') {
          const char childClose = at() == '[' ? ']' : ')';
          ++position_;
          WktNode child;
          child.keyword = std::move(word);
          const bool complete = body(child, childClose, depth + 1);
          node.children.push_back(std::move(child));
          if (!complete) return false;
        } else {
          node.values.push_back(std::move(word));  // an enumeration: CS[Cartesian,2], east
        }
      } else {
        const size_t start = position_;
        while (position_ < text_.size() && at() != ',' && at() != close &&
               !std::isspace(static_cast<unsigned char>(at()))) {
          ++position_;
        }
        if (position_ == start) return false;  // a stray bracket or the end of the text
        node.values.emplace_back(text_.substr(start, position_ - start));
      }
      skipSpace();
      if (at() == ',') {
        ++position_;
      } else if (at() != close) {
        return false;
      }
    }
  }

  std::string_view text_;
  size_t position_ = 0;
};

bool named(const WktNode& node, std::initializer_list<std::string_view> keywords) {
  return std::any_of(keywords.begin(), keywords.end(), [&](std::string_view keyword) {
    return std::equal(node.keyword.begin(), node.keyword.end(), keyword.begin(), keyword.end(),
                      [](char a, char b) { return std::toupper(a) == b; });
  });
}

const std::initializer_list<std::string_view> kProjected = {"PROJCS", "PROJCRS", "PROJECTEDCRS"};
const std::initializer_list<std::string_view> kGeographic = {"GEOGCS", "GEOGCRS", "GEOGRAPHICCRS",
                                                             "GEODCRS", "GEODETICCRS"};
const std::initializer_list<std::string_view> kGeocentric = {"GEOCCS"};
const std::initializer_list<std::string_view> kVertical = {"VERT_CS", "VERTCS", "VERTCRS",
                                                           "VERTICALCRS"};
const std::initializer_list<std::string_view> kCompound = {"COMPD_CS", "COMPOUNDCRS"};
const std::initializer_list<std::string_view> kUnit = {"UNIT", "LENGTHUNIT", "ANGLEUNIT"};

double numberOf(const std::string& text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() ? value : 0.0;
}

/// A UNIT node as a unit; ANGLEUNIT, and a WKT1 UNIT inside a geographic CRS, are angular.
LengthUnit unitOf(const WktNode& unit, bool angular) {
  if (unit.values.size() < 2) return {};
  return lengthUnitFromWkt(unit.values[0], numberOf(unit.values[1]),
                           angular || named(unit, {"ANGLEUNIT"}));
}

/// AUTHORITY["EPSG","32633"] (WKT1) or ID["EPSG",32633] (WKT2) among the node's children.
int epsgOf(const WktNode& crs) {
  for (const WktNode& child : crs.children) {
    if (!named(child, {"AUTHORITY", "ID"}) || child.values.size() < 2) continue;
    if (!named(WktNode{child.values[0], {}, {}}, {"EPSG"})) continue;
    int code = 0;
    const std::string& text = child.values[1];
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), code);
    if (error == std::errc() && code > 0) return code;
  }
  return 0;
}

/// The units of a CRS's axes: its own UNIT (WKT1, and WKT2's CS-wide unit), else each AXIS's.
/// Lengths go to `linear`, angles to `angular`; the first of each wins.
void unitsOf(const WktNode& crs, bool geographic, LengthUnit& linear, LengthUnit& angular) {
  const auto take = [&](const WktNode& unitNode) {
    const LengthUnit unit = unitOf(unitNode, geographic && named(unitNode, {"UNIT"}));
    LengthUnit& slot = unit.angular() ? angular : linear;
    if (unit.known() && !slot.known()) slot = unit;
  };
  for (const WktNode& child : crs.children) {
    if (named(child, kUnit)) take(child);
  }
  for (const WktNode& child : crs.children) {
    if (!named(child, {"AXIS"})) continue;
    for (const WktNode& unit : child.children) {
      if (named(unit, kUnit)) take(unit);
    }
  }
}

void readCrs(const WktNode& crs, WktFacts& facts, int depth) {
  if (depth > 4) return;
  if (named(crs, kCompound)) {
    for (const WktNode& part : crs.children) readCrs(part, facts, depth + 1);
  } else if (named(crs, {"BOUNDCRS", "SOURCECRS"})) {
    // A CRS bound to a transformation: its source is the CRS the coordinates are in.
    for (const WktNode& part : crs.children) {
      if (named(crs, {"SOURCECRS"}) || named(part, {"SOURCECRS"})) readCrs(part, facts, depth + 1);
    }
  } else if (named(crs, kVertical)) {
    LengthUnit linear, angular;
    unitsOf(crs, false, linear, angular);
    if (!facts.verticalUnit.known()) facts.verticalUnit = linear;
    if (facts.verticalEpsg == 0) facts.verticalEpsg = epsgOf(crs);
  } else if (named(crs, kProjected) || named(crs, kGeographic) || named(crs, kGeocentric)) {
    if (facts.horizontalUnit.known()) return;  // a compound CRS's second horizontal part
    const bool geographic = named(crs, kGeographic);
    LengthUnit linear, angular;
    unitsOf(crs, geographic, linear, angular);
    // A 3D geographic CRS: degrees across, its ellipsoidal height in a length unit.
    facts.horizontalUnit = geographic && angular.known() ? angular : linear;
    if (geographic && angular.known() && linear.known() && !facts.verticalUnit.known()) {
      facts.verticalUnit = linear;
    }
    if (facts.epsg == 0) facts.epsg = epsgOf(crs);
  }
}

}  // namespace

WktFacts readWktFacts(std::string_view wkt) {
  const WktNode root = WktParser(wkt).parse();
  WktFacts facts;
  if (!root.values.empty()) facts.name = root.values[0];
  readCrs(root, facts, 0);
  return facts;
}

}  // namespace pcv::io
