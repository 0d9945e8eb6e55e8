// What a file's coordinate system says: its name, EPSG codes and the units of x, y and z, from
// the LAS 1.4 WKT record (WKT1 and WKT2) and from the GeoTIFF keys.
#include <gtest/gtest.h>

#include <cstring>

#include "io_test_util.hpp"
#include "pcv/io/coordinate_system.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "vpc_test_files.hpp"

namespace pcv::test {
namespace {

const LengthUnit kMetre{"metre", 1.0};
const LengthUnit kUsFoot{"US survey foot", 1200.0 / 3937.0};
const LengthUnit kFoot{"foot", 0.3048};

/// NAD83 / Oregon GIC Lambert (ft) as ESRI-flavoured WKT1 writes it (the Autzen tiles' CRS),
/// in a compound CRS with NAVD88 heights in US feet.
const std::string kOregonFeetCompound =
    "COMPD_CS[\"NAD83 / Oregon GIC Lambert (ft) + NAVD88 height (ftUS)\",PROJCS[\"NAD83 / Oregon "
    "GIC Lambert (ft)\",GEOGCS[\"NAD83\",DATUM[\"North_American_Datum_1983\",SPHEROID[\"GRS "
    "1980\",6378137,298.257222101]],PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433]],"
    "PROJECTION[\"Lambert_Conformal_Conic_2SP\"],PARAMETER[\"standard_parallel_1\",43],"
    "UNIT[\"foot\",0.3048,AUTHORITY[\"EPSG\",\"9002\"]],AUTHORITY[\"EPSG\",\"2992\"]],"
    "VERT_CS[\"NAVD88 height (ftUS)\",VERT_DATUM[\"North American Vertical Datum 1988\",2005],"
    "UNIT[\"US survey foot\",0.304800609601219,AUTHORITY[\"EPSG\",\"9003\"]],"
    "AXIS[\"Gravity-related height\",UP],AUTHORITY[\"EPSG\",\"6360\"]]]";

/// WKT2 (ISO 19162:2019), units on the axes.
const std::string kWkt2UsFeet =
    "PROJCRS[\"NAD83(2011) / Texas Central (ftUS)\",BASEGEOGCRS[\"NAD83(2011)\",DATUM[\"NAD83 "
    "(National Spatial Reference System 2011)\",ELLIPSOID[\"GRS 1980\",6378137,298.257222101,"
    "LENGTHUNIT[\"metre\",1]]],ANGLEUNIT[\"degree\",0.0174532925199433]],CONVERSION[\"SPCS83 "
    "Texas Central zone (US survey foot)\",METHOD[\"Lambert Conic Conformal (2SP)\",ID[\"EPSG\","
    "9802]]],CS[Cartesian,2],AXIS[\"easting (X)\",east,ORDER[1],LENGTHUNIT[\"US survey foot\","
    "0.304800609601219]],AXIS[\"northing (Y)\",north,ORDER[2],LENGTHUNIT[\"US survey foot\","
    "0.304800609601219]],ID[\"EPSG\",6588]]";

TEST(CoordinateSystem, Wkt1NamesTheCrsItsCodeAndMetres) {
  const CoordinateSystem crs = coordinateSystemFromWkt(kUtm33Wkt);
  EXPECT_EQ(crs.name, "WGS 84 / UTM zone 33N");
  EXPECT_EQ(crs.label(), "WGS 84 / UTM zone 33N");
  EXPECT_EQ(crs.epsg, 32633);
  EXPECT_EQ(crs.horizontalUnit, kMetre);
  EXPECT_FALSE(crs.verticalUnit.known()) << "no vertical CRS";
  EXPECT_EQ(crs.lengthUnit(), kMetre);
}

TEST(CoordinateSystem, CompoundWktGivesHorizontalAndVerticalUnits) {
  const CoordinateSystem crs = coordinateSystemFromWkt(kOregonFeetCompound);
  EXPECT_EQ(crs.epsg, 2992);
  EXPECT_EQ(crs.verticalEpsg, 6360);
  EXPECT_EQ(crs.horizontalUnit, kFoot) << "the international foot, not the degree of its GEOGCS";
  EXPECT_EQ(crs.verticalUnit, kUsFoot);
  EXPECT_EQ(crs.horizontalUnit.symbol(), "ft");
  EXPECT_EQ(crs.verticalUnit.symbol(), "ftUS");
}

TEST(CoordinateSystem, Wkt2AxisUnitsAndIds) {
  const CoordinateSystem crs = coordinateSystemFromWkt(kWkt2UsFeet);
  EXPECT_EQ(crs.name, "NAD83(2011) / Texas Central (ftUS)");
  EXPECT_EQ(crs.epsg, 6588) << "the CRS's ID, not its method's";
  EXPECT_EQ(crs.horizontalUnit, kUsFoot);
}

TEST(CoordinateSystem, GeographicCoordinatesAreDegreesNotLengths) {
  const CoordinateSystem crs = coordinateSystemFromWkt(
      "GEOGCS[\"WGS 84\",DATUM[\"WGS_1984\",SPHEROID[\"WGS 84\",6378137,298.257223563]],"
      "PRIMEM[\"Greenwich\",0],UNIT[\"degree\",0.0174532925199433],AUTHORITY[\"EPSG\",\"4326\"]]");
  EXPECT_EQ(crs.epsg, 4326);
  EXPECT_EQ(crs.horizontalUnit.name, "degree");
  EXPECT_TRUE(crs.horizontalUnit.angular());
  EXPECT_FALSE(crs.lengthUnit().known()) << "degrees are no unit of length";
}

TEST(CoordinateSystem, MalformedWktKeepsItsTextAndNeverThrows) {
  for (const std::string text :
       {std::string("PROJCS[\"cut"), std::string("PROJCS[\"a\",UNIT[\"metre\""),
        std::string("]]]["), std::string(4000, '['), std::string("PROJCS[\"x\",UNIT[\"m\",abc]]"),
        std::string()}) {
    CoordinateSystem crs;
    EXPECT_NO_THROW(crs = coordinateSystemFromWkt(text)) << text;
    EXPECT_EQ(crs.wkt, text);
  }
  // What came before the fault is kept.
  EXPECT_EQ(coordinateSystemFromWkt("PROJCS[\"Cut\",UNIT[\"metre\",1],PARAMETER[").horizontalUnit,
            kMetre);
}

/// A GeoTIFF key directory with the given (key id, value) pairs, each held in its entry.
LasVariableRecord geoKeys(std::vector<std::pair<uint16_t, uint16_t>> keys) {
  std::vector<uint16_t> words = {1, 1, 0, uint16_t(keys.size())};
  for (const auto& [id, value] : keys) words.insert(words.end(), {id, 0, 1, value});
  LasVariableRecord record{
      .userId = "LASF_Projection", .recordId = 34735, .description = "GeoKeyDirectoryTag"};
  record.payload.resize(words.size() * 2);
  std::memcpy(record.payload.data(), words.data(), record.payload.size());
  return record;
}

TEST(LasCoordinateSystem, GeoKeysGiveCodesAndUnits) {
  TempDir dir;
  // A user-defined projection (32767) in US survey feet, NAVD88 heights in international feet.
  writeTile(dir.file("keys.las"), 10, {0, 0, 0}, {100, 100, 10},
            {geoKeys({{3072, 32767}, {3076, 9003}, {4096, 5703}, {4099, 9002}})});
  const CoordinateSystem crs = describePointFile(dir.file("keys.las")).crs;
  EXPECT_TRUE(crs.known()) << "a vertical code makes the CRS known";
  EXPECT_EQ(crs.epsg, 0) << "user-defined is no EPSG code";
  EXPECT_EQ(crs.verticalEpsg, 5703);
  EXPECT_EQ(crs.horizontalUnit, kUsFoot);
  EXPECT_EQ(crs.verticalUnit, kFoot);
}

TEST(LasCoordinateSystem, TheWktRecordWinsOverTheKeys) {
  TempDir dir;
  writeTile(dir.file("both.las"), 10, {0, 0, 0}, {100, 100, 10},
            {wktRecord(kUtm33Wkt), geoKeys({{3072, 32633}, {3076, 9002}})});
  const CoordinateSystem crs = describePointFile(dir.file("both.las")).crs;
  EXPECT_EQ(crs.name, "WGS 84 / UTM zone 33N");
  EXPECT_EQ(crs.epsg, 32633);
  EXPECT_EQ(crs.horizontalUnit, kMetre);
}

TEST(LasCoordinateSystem, AnEpsgCodeAloneIsLookedUpWhereProjIsBuiltIn) {
  TempDir dir;
  writeTile(dir.file("code.las"), 10, {0, 0, 0}, {100, 100, 10}, {geoKeys({{3072, 2992}})});
  CoordinateSystem crs = describePointFile(dir.file("code.las")).crs;
  EXPECT_EQ(crs.epsg, 2992);
  EXPECT_FALSE(crs.horizontalUnit.known()) << "the file states no unit";
  completeFromDatabase(crs);
  if (!coordinateTransformsAvailable()) GTEST_SKIP() << "pcv is built without PROJ";
  EXPECT_EQ(crs.name, "NAD83 / Oregon GIC Lambert (ft)");
  EXPECT_EQ(crs.horizontalUnit, kFoot);
  EXPECT_EQ(crs.label(), crs.name);
}

TEST(LengthUnit, FormatsLengthsWithTheirSymbol) {
  EXPECT_EQ(formatLength(12.3456, kMetre), "12.346 m");
  EXPECT_EQ(formatLength(2.0, kUsFoot, 1), "2.0 ftUS");
  EXPECT_EQ(formatLength(2.0, LengthUnit{}), "2.000") << "no unit where none is declared";
  EXPECT_EQ(lengthUnitFromEpsg(9003), kUsFoot);
  EXPECT_EQ(lengthUnitFromWkt("Foot_US", 0.3048006096012192, false), kUsFoot);
  EXPECT_FALSE(lengthUnitFromEpsg(1234).known());
}

}  // namespace
}  // namespace pcv::test
