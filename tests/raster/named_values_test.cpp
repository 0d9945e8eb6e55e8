// The name tables front ends parse enums with: every name reads back to itself, every value has
// a name, aliases read but are never written, and a wrong name is refused with the known names
// as data (what the command line and Python show).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "pcv/core/camera.hpp"
#include "pcv/core/color_map.hpp"
#include "pcv/core/named_values.hpp"
#include "pcv/raster/backend_choice.hpp"
#include "pcv/raster/quality_settings.hpp"
#include "pcv/raster/raster_method.hpp"
#include "pcv/raster/renderer.hpp"

namespace pcv {
namespace {

using Names = std::vector<std::string>;

/// names -> value -> name gives the name back, and no two names share a value.
template <typename Enum>
void expectRoundTrip(const NameTable<Enum>& table) {
  const Names names = table.names();
  ASSERT_FALSE(names.empty());
  std::set<Enum> values;
  for (const std::string& name : names) {
    const Enum value = table.parse(name);
    EXPECT_EQ(table.name(value), name);
    values.insert(value);
  }
  EXPECT_EQ(values.size(), names.size()) << table.what;
}

/// Each of `values` has a name of the table (none falls through to "?").
template <typename Enum>
void expectEveryValueNamed(const NameTable<Enum>& table, std::initializer_list<Enum> values) {
  const Names names = table.names();
  for (const Enum value : values) {
    EXPECT_NE(std::find(names.begin(), names.end(), table.name(value)), names.end())
        << table.what << " value " << int(value);
  }
}

/// A wrong name (close misses included: other case, surrounding space, empty) throws an
/// UnknownNameError, an InputError, that lists exactly the table's names.
template <typename Enum>
void expectWrongNamesRefused(const NameTable<Enum>& table) {
  for (const std::string& wrong : {std::string("sometimes"), std::string(""),
                                   " " + table.names().front(), table.names().front() + " "}) {
    try {
      table.parse(wrong);
      ADD_FAILURE() << table.what << " accepted '" << wrong << "'";
    } catch (const UnknownNameError& error) {
      EXPECT_EQ(error.knownNames(), table.names()) << table.what;
    }
  }
  EXPECT_THROW(table.parse("sometimes"), InputError);  // bad input, as pcv reports it
}

TEST(NamedValues, EdlModes) {
  EXPECT_EQ(edlModeNames(), (Names{"off", "on", "auto"}));
  expectRoundTrip(edlModeTable());
  expectEveryValueNamed(edlModeTable(), {EdlMode::Off, EdlMode::On, EdlMode::Auto});
  expectWrongNamesRefused(edlModeTable());
  EXPECT_EQ(parseEdlMode("auto"), EdlMode::Auto);
  EXPECT_STREQ(edlModeName(EdlMode::On), "on");
}

TEST(NamedValues, PointShapes) {
  EXPECT_EQ(pointShapeNames(), (Names{"square", "round"}));
  expectRoundTrip(pointShapeTable());
  expectEveryValueNamed(pointShapeTable(), {PointShape::Square, PointShape::Round});
  expectWrongNamesRefused(pointShapeTable());
  EXPECT_EQ(parsePointShape("round"), PointShape::Round);
}

TEST(NamedValues, UpAxes) {
  EXPECT_EQ(upAxisNames(), (Names{"z", "y"}));
  expectRoundTrip(upAxisTable());
  expectEveryValueNamed(upAxisTable(), {UpAxis::Z, UpAxis::Y});
  expectWrongNamesRefused(upAxisTable());
  EXPECT_EQ(parseUpAxis("y"), UpAxis::Y);
  EXPECT_THROW(parseUpAxis("x"), UnknownNameError);
}

TEST(NamedValues, Backends) {
  EXPECT_EQ(backendNames(), (Names{"auto", "cuda", "vulkan", "cpu"}));
  expectRoundTrip(backendTable());
  expectEveryValueNamed(backendTable(),
                        {BackendChoice::Auto, BackendChoice::Cuda, BackendChoice::Vulkan,
                         BackendChoice::Cpu});
  expectWrongNamesRefused(backendTable());
}

TEST(NamedValues, CreateRendererRefusesAnUnknownBackendWithTheKnownNames) {
  try {
    createRenderer("metal");
    ADD_FAILURE() << "an unknown backend was accepted";
  } catch (const UnknownNameError& error) {
    EXPECT_EQ(error.knownNames(), backendNames());
  }
}

TEST(NamedValues, RasterMethods) {
  EXPECT_EQ(methodNames(), (Names{"compact", "earlyz", "packed", "seed"}));
  expectRoundTrip(methodTable());
  for (const RasterMethod method : allMethods()) EXPECT_EQ(parseMethod(methodName(method)), method);
  EXPECT_EQ(allMethods().size(), methodNames().size());
  expectWrongNamesRefused(methodTable());
}

TEST(NamedValues, ColorModes) {
  EXPECT_EQ(colorModeNames(),
            (Names{"rgb", "elevation", "intensity", "classification", "attribute"}));
  expectRoundTrip(colorModeTable());
  expectEveryValueNamed(colorModeTable(),
                        {ColorMode::Rgb, ColorMode::Elevation, ColorMode::Intensity,
                         ColorMode::Classification, ColorMode::Attribute});
  expectWrongNamesRefused(colorModeTable());
}

TEST(NamedValues, ColorMapsReadAnAliasButWriteOneName) {
  EXPECT_EQ(colorMapNames(), (Names{"viridis", "turbo", "grey"}));
  expectRoundTrip(colorMapTable());
  expectEveryValueNamed(colorMapTable(), {ColorMap::Viridis, ColorMap::Turbo, ColorMap::Grey});
  expectWrongNamesRefused(colorMapTable());
  EXPECT_EQ(parseColorMap("gray"), ColorMap::Grey);
  EXPECT_EQ(colorMapName(parseColorMap("gray")), "grey");
}

TEST(NamedValues, TheErrorKeepsTheNamesAndSaysThemAll) {
  const UnknownNameError error("fruit", "kiwi", {"apple", "pear"});
  EXPECT_EQ(error.knownNames(), (Names{"apple", "pear"}));
  // The message is for people; it holds the wrong name and every known one.
  const std::string message = error.what();
  for (const char* part : {"kiwi", "apple", "pear"}) {
    EXPECT_NE(message.find(part), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace pcv
