/// @brief Numbers as text for people: fixed decimals that never read "-0.000", and the decimals
/// a range of values needs, so labels of small ranges neither run together nor lose digits.
#pragma once

#include <cstdint>
#include <string>

#include <glm/glm.hpp>

namespace pcv {

/// `value` with `decimals` digits after the point; a value that rounds to zero is "0.000", not
/// "-0.000".
std::string fixedText(double value, int decimals);

/// "(x, y, z)" of fixedText.
std::string fixedText(const glm::dvec3& value, int decimals);

/// The shortest text that reads back to exactly `value` (for commands and files that must
/// reproduce it: a copied view, a bookmark).
std::string exactText(double value);

/// A world coordinate of a point held as a float offset from `origin` (a picked point, an eye
/// that moved with the points): the shortest text whose offset from `origin` rounds to the same
/// float. 636407.0100097656, a file's 636407.01 seen through its float offset 407.01f, prints
/// as "636407.01", which reads back to the same point.
std::string offsetText(double value, double origin);

/// The shortest text that reads back to exactly `value` when parsed as a float.
std::string exactFloatText(float value);

/// A count for people: "950", "200 k", "1.5 M", "10 M", "2 G".
std::string countText(uint64_t count);

/// Decimals that show the values between `low` and `high` to about a tenth of the span: 0 for
/// spans of 10 and more, 3 for a span of 0.05; at most 12.
int decimalsForSpan(double low, double high);

}  // namespace pcv
