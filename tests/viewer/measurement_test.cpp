// The Measure tool's numbers: distances, polylines, height and horizontal distance, the area of a
// polygon on the horizontal plane (z or y up), at georeferenced coordinates in double precision,
// and the CSV and JSON exports reading back to the same doubles.
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "viewer/tools/measure/measure_state.hpp"

namespace pcv::app {
namespace {

TEST(Measurement, DistanceAndPolylineAreTheSegmentsLengths) {
  const Measurement distance{.kind = MeasureKind::Distance, .points = {{0, 0, 0}, {3, 4, 12}}};
  EXPECT_DOUBLE_EQ(measure(distance).length, 13.0);
  const Measurement polyline{.kind = MeasureKind::Polyline,
                             .points = {{0, 0, 0}, {3, 4, 0}, {3, 4, 2}, {0, 0, 2}}};
  EXPECT_EQ(segmentCount(polyline), 3u);
  EXPECT_DOUBLE_EQ(measure(polyline).length, 12.0);
}

TEST(Measurement, HeightAndHorizontalFollowTheUpAxis) {
  Measurement m{.kind = MeasureKind::Height, .points = {{1, 2, 3}, {4, 6, 15}}};
  MeasureResult r = measure(m);
  EXPECT_DOUBLE_EQ(r.height, 12.0);
  EXPECT_DOUBLE_EQ(r.horizontal, 5.0);
  m.up = UpAxis::Y;  // y is height, the ground is x and z
  r = measure(m);
  EXPECT_DOUBLE_EQ(r.height, 4.0);
  EXPECT_DOUBLE_EQ(r.horizontal, std::sqrt(9.0 + 144.0));
  EXPECT_EQ(summaryText(m, 2), "height +4.00, horizontal 12.37");
}

TEST(Measurement, AreaOfAPolygonOnTheHorizontalPlaneAtUtmCoordinates) {
  // A 30 x 20 m rectangle with a 10 x 10 m notch, at UTM coordinates, heights varying: the area
  // is of its shadow on the ground, exact in double.
  const double e = 637000.25, n = 4849000.75;
  const Measurement area{.kind = MeasureKind::Area,
                         .points = {{e, n, 10},
                                    {e + 30, n, 12},
                                    {e + 30, n + 20, 11},
                                    {e + 20, n + 20, 9},
                                    {e + 20, n + 10, 10},
                                    {e + 10, n + 10, 14},
                                    {e + 10, n + 20, 10},
                                    {e, n + 20, 10}}};
  const MeasureResult r = measure(area);
  EXPECT_DOUBLE_EQ(r.area, 600.0 - 100.0);
  EXPECT_EQ(segmentCount(area), 8u);  // closed
  // Clockwise gives the same area.
  Measurement reversed = area;
  std::reverse(reversed.points.begin(), reversed.points.end());
  EXPECT_DOUBLE_EQ(measure(reversed).area, 500.0);
  // A y-up polygon in the x-z plane.
  const Measurement yUp{
      .kind = MeasureKind::Area, .points = {{0, 5, 0}, {2, 7, 0}, {2, 1, 3}}, .up = UpAxis::Y};
  EXPECT_DOUBLE_EQ(measure(yUp).area, 3.0);
}

TEST(MeasureState, DistancesFinishThemselvesPolylinesByHand) {
  MeasureState tool;
  tool.setActive(true);
  tool.setKind(MeasureKind::Distance);
  tool.addPoint({0, 0, 0}, UpAxis::Z);
  EXPECT_TRUE(tool.finished().empty());
  tool.addPoint({1, 0, 0}, UpAxis::Z);
  ASSERT_EQ(tool.finished().size(), 1u);
  EXPECT_TRUE(tool.current().points.empty());
  tool.setKind(MeasureKind::Area);
  tool.addPoint({0, 0, 0}, UpAxis::Z);
  tool.addPoint({1, 0, 0}, UpAxis::Z);
  EXPECT_FALSE(tool.finish());  // two points make no polygon: dropped
  for (const glm::dvec3 p : {glm::dvec3(0, 0, 0), glm::dvec3(1, 0, 0), glm::dvec3(9, 9, 9)}) {
    tool.addPoint(p, UpAxis::Z);
  }
  tool.undoPoint();  // the stray third point
  tool.addPoint({0, 1, 0}, UpAxis::Z);
  EXPECT_TRUE(tool.finish());
  ASSERT_EQ(tool.finished().size(), 2u);
  EXPECT_DOUBLE_EQ(measure(tool.finished()[1]).area, 0.5);
  tool.remove(0);
  EXPECT_EQ(tool.finished()[0].kind, MeasureKind::Area);
}

TEST(Measurement, ExportsReadBackToTheSameDoubles) {
  const std::vector<Measurement> list = {
      {.kind = MeasureKind::Distance,
       .points = {{637000.123456789, 4849000.1, 1.0 / 3.0}, {637001.5, 4849002.25, 7.0}}},
      {.kind = MeasureKind::Area, .points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}}};
  const nlohmann::json json = nlohmann::json::parse(measurementsJson(list));
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0]["kind"], "distance");
  EXPECT_EQ(json[0]["length"].get<double>(), measure(list[0]).length);
  EXPECT_EQ(json[0]["points"][0][0].get<double>(), 637000.123456789);
  EXPECT_EQ(json[0]["points"][0][2].get<double>(), 1.0 / 3.0);
  EXPECT_EQ(json[1]["area"].get<double>(), 0.5);
  const std::string csv = measurementsCsv(list);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
  const size_t row = csv.find("\n1,distance,");
  ASSERT_NE(row, std::string::npos) << csv;
  EXPECT_EQ(std::strtod(csv.c_str() + row + 12, nullptr), measure(list[0]).length);
  // The first point's coordinates, with all their digits.
  const size_t x = csv.find(",637000.1234567");
  ASSERT_NE(x, std::string::npos) << csv;
  char* end = nullptr;
  EXPECT_EQ(std::strtod(csv.c_str() + x + 1, &end), 637000.123456789);
  EXPECT_EQ(std::strtod(end, &end), 4849000.1);
  EXPECT_EQ(std::strtod(end, &end), 1.0 / 3.0);
}

TEST(Measurement, LengthsSayTheUnitOfTheData) {
  const LengthUnit metre{"metre", 1.0}, usFoot{"US survey foot", 1200.0 / 3937.0};
  const Measurement distance{.kind = MeasureKind::Distance, .points = {{0, 0, 0}, {3, 4, 0}}};
  EXPECT_EQ(summaryText(distance, 2, metre), "5.00 m");
  EXPECT_EQ(summaryText(distance, 2), "5.00") << "no unit where the data declares none";
  const Measurement height{.kind = MeasureKind::Height, .points = {{1, 2, 3}, {4, 6, 15}}};
  EXPECT_EQ(summaryText(height, 1, usFoot), "height +12.0 ftUS, horizontal 5.0 ftUS");
  const Measurement area{.kind = MeasureKind::Area, .points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}};
  EXPECT_EQ(summaryText(area, 1, metre).rfind("area 0.5 m\u00b2, perimeter 3.4 m", 0), 0u);
  const std::vector<Measurement> list = {distance};
  const std::string csv = measurementsCsv(list, usFoot);
  EXPECT_NE(csv.find(",points,unit,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",2,ftUS,"), std::string::npos) << csv;
  const nlohmann::json json = nlohmann::json::parse(measurementsJson(list, usFoot));
  EXPECT_EQ(json[0]["unit"], "ftUS");
  EXPECT_TRUE(nlohmann::json::parse(measurementsJson(list))[0]["unit"].is_null());
}

}  // namespace
}  // namespace pcv::app
