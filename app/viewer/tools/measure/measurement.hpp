/// @brief Measurements on picked points, in double precision and world units: a distance, a
/// polyline's length, a height difference with the horizontal distance, the area of a closed
/// polygon projected on the horizontal plane ("horizontal" and "height" follow the up axis). No
/// window and no GL: the Measure section draws them, the tests check the numbers.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"
#include "pcv/core/length_unit.hpp"

namespace pcv::app {

enum class MeasureKind {
  Distance,  ///< two points: their straight-line distance
  Polyline,  ///< any number of points: the sum of the segments
  Height,    ///< two points: the height difference and the horizontal distance
  Area,      ///< three or more points: the closed polygon's area on the horizontal plane
};

/// "distance", "polyline", "height", "area".
const char* measureKindName(MeasureKind kind);
/// The kind of a name above; false when the name is none of them.
bool parseMeasureKind(const std::string& name, MeasureKind& kind);
/// Points a measurement of the kind needs before it can be finished.
size_t minimumPoints(MeasureKind kind);
/// Points after which the measurement is complete by itself (0: finished by hand).
size_t completePoints(MeasureKind kind);

struct Measurement {
  MeasureKind kind = MeasureKind::Distance;
  std::vector<glm::dvec3> points;  ///< world coordinates, in the order they were picked
  UpAxis up = UpAxis::Z;           ///< what is horizontal
};

/// The numbers of a measurement, world units.
struct MeasureResult {
  double length = 0.0;      ///< along the segments (Area: the perimeter, closed)
  double horizontal = 0.0;  ///< first to last point on the horizontal plane (Height)
  double height = 0.0;      ///< last minus first point along the up axis (Height)
  double area = 0.0;        ///< of the closed polygon on the horizontal plane (Area)
};

MeasureResult measure(const Measurement& measurement);

/// The length of segment i (points i and i + 1; for Area the last segment closes the polygon).
double segmentLength(const Measurement& measurement, size_t segment);
/// Segments the measurement has: points - 1, or points for a closed polygon of three or more.
size_t segmentCount(const Measurement& measurement);

/// The headline in world units with `digits` decimals, each length with `unit`'s symbol where
/// known: "12.345 m" (distance, polyline), "height +1.200 m, horizontal 3.400 m", "area
/// 3.500 m², perimeter 7.000 m"; the numbers alone without a unit.
std::string summaryText(const Measurement& measurement, int digits = 3,
                        const LengthUnit& unit = {});

/// Every measurement as CSV: one row per measurement (index, kind, length, horizontal, height,
/// area, point count, unit symbol (empty when unknown), then x y z of each point), numbers with
/// all their digits.
std::string measurementsCsv(const std::vector<Measurement>& measurements,
                            const LengthUnit& unit = {});
/// The same as a JSON array of objects; "unit" is the symbol, or null when unknown.
std::string measurementsJson(const std::vector<Measurement>& measurements,
                             const LengthUnit& unit = {});

}  // namespace pcv::app
