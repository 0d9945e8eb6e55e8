// The filter description and its parsers (core), and the per-batch summaries the rasterizers
// skip batches by (shared/point_filter_frame.hpp): a batch classified kAll or kNone must hold no
// point whose own test says otherwise, and a mixed batch tests only the parts of the filter that
// some of its points fail.
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
    } else {
      // A mixed batch tests only some parts of the filter: the verdict is still each point's.
      const uint32_t tests = batchFilterTests(frame, summary);
      const FilterArrays arrays{&summary, words.data(), values.data()};
      for (uint32_t i = 0; i < count; ++i) {
        EXPECT_EQ(filterKeepsSlot(frame, arrays, tests, i), filterKeeps(frame, words[i], values[i]))
            << trial << " point " << i;
      }
    }
  }
  // Every class occurs, so none of the checks above is vacuous.
  EXPECT_GT(seen[0], 50u);
  EXPECT_GT(seen[1], 50u);
  EXPECT_GT(seen[2], 50u);
}

/// The summary of `count` points of class `classification`, returns 1..3 of 3, values from
/// `low` to `high`.
BatchSummary summaryOf(uint32_t classification, float low, float high) {
  std::vector<uint16_t> words;
  std::vector<float> values;
  for (uint32_t i = 0; i < 30; ++i) {
    words.push_back(packFilterWord(classification, 1 + i % 3, 3));
    values.push_back(low + (high - low) * float(i) / 29.0f);
  }
  return summarizeBatch(words.data(), values.data(), uint32_t(words.size()));
}

TEST(PointFilterFrame, BatchesAllPassingNeedNoTests) {
  PointFilter classes;
  classes.classes = parseClassList("2,6", "--classes");
  EXPECT_EQ(batchFilterTests(makeFilterFrame(classes), summaryOf(2, 0, 10)), 0u);
  PointFilter ranged;
  ranged.ranges = {{"intensity", -5.0, 10.0}};
  EXPECT_EQ(batchFilterTests(makeFilterFrame(ranged), summaryOf(2, 0, 10)), 0u);
  // An unfiltered frame tests nothing, whatever the summary.
  EXPECT_EQ(batchFilterTests(makeFilterFrame({}), summaryOf(9, 0, 10)), 0u);
  EXPECT_EQ(classifyBatchFilter(makeFilterFrame(classes), summaryOf(6, 0, 10)),
            BatchFilterClass::kAll);
}

TEST(PointFilterFrame, BatchesNonePassingAreDropped) {
  PointFilter classes;
  classes.classes = parseClassList("2,6", "--classes");
  EXPECT_EQ(batchFilterTests(makeFilterFrame(classes), summaryOf(3, 0, 10)), kFilterDropsAll);
  PointFilter ranged;
  ranged.ranges = {{"intensity", 20.0, 30.0}};
  EXPECT_EQ(batchFilterTests(makeFilterFrame(ranged), summaryOf(2, 0, 10)), kFilterDropsAll);
  PointFilter numbered;
  numbered.returns = ReturnChoice::Number;
  numbered.returnNumber = 5;
  EXPECT_EQ(batchFilterTests(makeFilterFrame(numbered), summaryOf(2, 0, 10)), kFilterDropsAll);
  // Either part failing every point drops the batch, whatever the other says.
  classes.ranges = {{"intensity", 20.0, 30.0}};
  EXPECT_EQ(batchFilterTests(makeFilterFrame(classes), summaryOf(2, 0, 10)), kFilterDropsAll);
}

TEST(PointFilterFrame, MixedBatchesTestOnlyThePartsSomePointsFail) {
  // Returns 1-3 of 3: a first-return filter splits the batch; its class passes whole.
  PointFilter first;
  first.returns = ReturnChoice::First;
  EXPECT_EQ(batchFilterTests(makeFilterFrame(first), summaryOf(2, 0, 10)), kFilterWordTest);
  // Every class kept, the range splits the values: the words are not read.
  PointFilter ranged;
  ranged.classes = parseClassList("1-5", "--classes");
  ranged.ranges = {{"intensity", 5.0, 30.0}};
  EXPECT_EQ(batchFilterTests(makeFilterFrame(ranged), summaryOf(2, 0, 10)), kFilterValueTest);
  // The range keeps every value, the returns split: the values are not read.
  ranged.returns = ReturnChoice::Last;
  ranged.ranges = {{"intensity", -1.0, 30.0}};
  EXPECT_EQ(batchFilterTests(makeFilterFrame(ranged), summaryOf(2, 0, 10)), kFilterWordTest);
  ranged.ranges = {{"intensity", 5.0, 30.0}};
  EXPECT_EQ(batchFilterTests(makeFilterFrame(ranged), summaryOf(2, 0, 10)),
            kFilterWordTest | kFilterValueTest);
  // A NaN value fails every range: a batch holding one is tested.
  std::vector<uint16_t> words(4, packFilterWord(2, 1, 1));
  std::vector<float> values = {1.0f, 2.0f, NAN, 3.0f};
  ranged.returns = ReturnChoice::Any;
  ranged.ranges = {{"intensity", 0.0, 10.0}};
  EXPECT_EQ(
      batchFilterTests(makeFilterFrame(ranged), summarizeBatch(words.data(), values.data(), 4)),
      kFilterValueTest);
}

TEST(PointFilterFrame, WordMasksAgreeWithTheCoreFilterForEveryWord) {
  const ReturnChoice returns[] = {ReturnChoice::Any, ReturnChoice::First, ReturnChoice::Last,
                                  ReturnChoice::Only, ReturnChoice::Number};
  for (const char* classes : {"0-255", "2", "1,3-5,200-255"}) {
    for (const ReturnChoice choice : returns) {
      PointFilter filter;
      filter.classes = parseClassList(classes, "--classes");
      filter.returns = choice;
      filter.returnNumber = 2;
      const FilterFrame frame = makeFilterFrame(filter);
      for (uint32_t word = 0; word < 65536; ++word) {
        const uint32_t c = word & 0xff, number = (word >> 8) & 0xf, count = word >> 12;
        const bool expected = filter.classes.contains(c) && returnKept(filter, number, count);
        ASSERT_EQ(filterKeeps(frame, uint16_t(word), 0.0f), expected)
            << filterArguments(filter) << " word " << word;
      }
    }
  }
}

}  // namespace
}  // namespace pcv
