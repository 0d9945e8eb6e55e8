// The filter description and its parsers (core), and the per-batch summaries the rasterizers
// skip batches by (shared/point_filter_frame.hpp): a batch classified kAll or kNone must hold no
// point whose own test says otherwise.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "filter_frame.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/point_filter.hpp"
#include "shared/point_filter_frame.hpp"

namespace pcv {
namespace {

TEST(PointFilterParsing, ClassListsAndRanges) {
  const ClassSet set = parseClassList("2,6,9-11", "--classes");
  for (uint32_t c = 0; c < 256; ++c) {
    EXPECT_EQ(set.contains(c), c == 2 || c == 6 || (c >= 9 && c <= 11)) << c;
  }
  const AttributeRange range = parseAttributeRange("intensity=100:2000");
  EXPECT_EQ(range.attribute, "intensity");
  EXPECT_EQ(range.min, 100.0);
  EXPECT_EQ(range.max, 2000.0);
  const AttributeRange open = parseAttributeRange("gps_time=:1.5e8");
  EXPECT_TRUE(std::isinf(open.min));
  EXPECT_EQ(open.max, 1.5e8);
  PointFilter filter;
  parseReturnChoice("last", filter);
  EXPECT_EQ(filter.returns, ReturnChoice::Last);
  parseReturnChoice("3", filter);
  EXPECT_EQ(filter.returns, ReturnChoice::Number);
  EXPECT_EQ(filter.returnNumber, 3u);
}

TEST(PointFilterParsing, RejectsMalformedText) {
  for (const char* text : {"", "2,", "x", "2,,3", "256", "5-3", "2;6", "-1"}) {
    EXPECT_THROW(parseClassList(text, "--classes"), InputError) << text;
  }
  PointFilter filter;
  for (const char* text : {"second", "0", "16", "1x", ""}) {
    EXPECT_THROW(parseReturnChoice(text, filter), InputError) << text;
  }
  for (const char* text : {"intensity", "=1:2", "intensity=1", "intensity=a:2", "intensity=3:2",
                           "intensity=1:2:3", "intensity=nan:2"}) {
    EXPECT_THROW(parseAttributeRange(text), InputError) << text;
  }
}

TEST(PointFilterParsing, ArgumentsParseBackToTheSameFilter) {
  PointFilter filter;
  filter.classes = parseClassList("1-5,7,200", "--classes");
  filter.returns = ReturnChoice::Only;
  filter.ranges = {{"intensity", 0.1, 1e9}, {"gps_time", -INFINITY, 3.25}};
  const std::string words = filterArguments(filter);
  // --classes 1-5,7,200 --returns only --range intensity=0.1:1000000000 --range gps_time=:3.25
  PointFilter back;
  const size_t classes = words.find("--classes ") + 10;
  back.classes = parseClassList(words.substr(classes, words.find(' ', classes) - classes), "c");
  back.returns = ReturnChoice::Only;
  size_t at = 0;
  while ((at = words.find("--range ", at)) != std::string::npos) {
    at += 8;
    back.ranges.push_back(parseAttributeRange(words.substr(at, words.find(' ', at) - at)));
  }
  EXPECT_EQ(back, filter) << words;
  EXPECT_EQ(filterArguments(PointFilter{}), "");
}

TEST(PointFilterPredicate, CloudFilterReadsTheNamedAttributes) {
  PointCloud cloud;
  cloud.points.resize(4);
  cloud.attributes.push_back({"classification", {}});
  cloud.attributes.push_back({"return_number", {}});
  cloud.attributes.push_back({"number_of_returns", {}});
  const float classes[] = {2, 6, 2, 7}, numbers[] = {1, 2, 2, 1}, counts[] = {2, 2, 3, 1};
  for (int a = 0; a < 3; ++a) cloud.attributes[a].values.resize(4);
  for (int i = 0; i < 4; ++i) {
    cloud.attributes[0].values[i] = classes[i];
    cloud.attributes[1].values[i] = numbers[i];
    cloud.attributes[2].values[i] = counts[i];
  }
  PointFilter filter;
  filter.classes = parseClassList("2,7", "--classes");
  filter.returns = ReturnChoice::Last;
  const CloudFilter keeps(filter, cloud);
  EXPECT_FALSE(keeps.keeps(0));  // class 2, return 1 of 2
  EXPECT_FALSE(keeps.keeps(1));  // class 6
  EXPECT_FALSE(keeps.keeps(2));  // return 2 of 3
  EXPECT_TRUE(keeps.keeps(3));   // class 7, only return
  filter.ranges = {{"intensity", 0, 1}};
  EXPECT_THROW(CloudFilter(filter, cloud), InputError);
}

TEST(PointFilterFrame, RangeBoundsRoundInwardToFloats) {
  PointFilter filter;
  filter.ranges = {{"gps_time", 0.1, 0.3}};
  const FilterFrame frame = makeFilterFrame(filter);
  EXPECT_GE(double(frame.rangeMin), 0.1);
  EXPECT_LE(double(frame.rangeMax), 0.3);
  EXPECT_LT(double(std::nextafter(frame.rangeMin, -1.0f)), 0.1);
  EXPECT_GT(double(std::nextafter(frame.rangeMax, 1.0f)), 0.3);
  filter.ranges.push_back({"intensity", 0, 1});
  EXPECT_THROW(makeFilterFrame(filter), InputError);
}

TEST(PointFilterFrame, BatchClassesAgreeWithEveryPointOfRandomBatches) {
  std::mt19937 random(7);
  const std::vector<std::string> classLists = {"2", "1-5", "0-255", "3,9", "200"};
  const ReturnChoice returns[] = {ReturnChoice::Any, ReturnChoice::First, ReturnChoice::Last,
                                  ReturnChoice::Only, ReturnChoice::Number};
  uint64_t seen[3] = {0, 0, 0};
  for (int trial = 0; trial < 3000; ++trial) {
    // Batches of few distinct values, as Morton order makes them, or of many.
    const uint32_t count = 1 + random() % 64;
    const uint32_t classSpread = 1 + random() % 4, baseClass = random() % 10;
    std::vector<uint16_t> words(count);
    std::vector<float> values(count);
    const bool varied = random() % 2;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t n = varied ? 1 + random() % 4 : 1;
      words[i] = packFilterWord(baseClass + random() % classSpread, 1 + random() % n, n);
      values[i] = random() % 50 == 0 ? NAN : float(random() % 1000);
    }
    PointFilter filter;
    filter.classes = parseClassList(classLists[random() % classLists.size()], "--classes");
    filter.returns = returns[random() % 5];
    filter.returnNumber = 1 + random() % 3;
    if (random() % 2) filter.ranges = {{"intensity", double(random() % 800), 1000.0}};
    const FilterFrame frame = makeFilterFrame(filter);
    const BatchSummary summary = summarizeBatch(words.data(), values.data(), count);
    const BatchFilterClass c = classifyBatchFilter(frame, summary);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; ++i) kept += filterKeeps(frame, words[i], values[i]);
    ++seen[int(c)];
    if (c == BatchFilterClass::kAll) {
      EXPECT_EQ(kept, count) << trial;
    } else if (c == BatchFilterClass::kNone) {
      EXPECT_EQ(kept, 0u) << trial;
    }
  }
  // Every class occurs, so none of the checks above is vacuous.
  EXPECT_GT(seen[0], 50u);
  EXPECT_GT(seen[1], 50u);
  EXPECT_GT(seen[2], 50u);
}

}  // namespace
}  // namespace pcv
