// The phase breakdown of a COPC conversion: the line names the phases that ran and what no phase
// accounts for, and the times a conversion reports add up to no more than its wall time.
#include <gtest/gtest.h>

#include "io_test_util.hpp"
#include "pcv/io/copc_phases.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinders.hpp"

namespace pcv::test {
namespace {

TEST(CopcPhases, TheLineListsThePhasesThatRanAndTheRest) {
  const CopcPhaseTimes times{.totalSeconds = 10.0,
                             .reading = 2.0,
                             .sort = 1.3,
                             .gatheringAhead = 0.8,
                             .encoding = 4.0,
                             .writing = 3.0,
                             .finishing = 0.5};
  EXPECT_EQ(describeCopcPhases(times),
            "COPC in 10.0 s: reading 2.0 s, sort 1.3 s, encoding 4.0 s, finishing 0.5 s, other "
            "2.2 s; writing 3.0 s on its own thread, overlapping gathering and encoding; "
            "gathering ahead 0.8 s, overlapping encoding");
}

TEST(CopcPhases, OtherIsNeverNegative) {
  const CopcPhaseTimes times{.totalSeconds = 1.0, .keys = 0.6, .sampling = 0.6};
  EXPECT_EQ(describeCopcPhases(times), "COPC in 1.0 s: keys 0.6 s, sampling 0.6 s, other 0.0 s");
}

PointRecordSource cylinders(uint64_t count) {
  return [=] {
    CylinderSet scene = makeCylinderSet(4);
    const Box3d bounds = cylinderSetReach(scene);
    return producedRecords(std::make_shared<CylinderProducer>(std::move(scene), count), bounds,
                           glm::dvec3(0.0), 7);
  };
}

/// The phases that run on the calling thread one after the other.
double sequentialSeconds(const CopcPhaseTimes& t) {
  return t.reading + t.bounds + t.partitioning + t.loading + t.keys + t.sort + t.ties + t.tree +
         t.sampling + t.merging + t.grouping + t.gathering + t.encoding + t.waitingForWrites +
         t.finishing;
}

TEST(CopcPhases, AConversionTimesItsPhasesWithinItsWallTime) {
  TempDir dir;
  for (const uint64_t memory : {uint64_t(0), uint64_t(2560) << 10}) {
    SCOPED_TRACE(memory);
    const CopcWriteSummary summary = writeCopcFile(
        cylinders(150000), dir.file("c.copc.laz"),
        {.memoryBytes = memory, .tempDirectory = dir.file(""), .maxPointsPerNode = 2000});
    const CopcPhaseTimes& t = summary.phases;
    EXPECT_GT(t.totalSeconds, 0.0);
    EXPECT_LE(sequentialSeconds(t), t.totalSeconds * 1.0001);
    for (const double phase : {t.keys, t.sort, t.sampling, t.grouping, t.gathering, t.encoding,
                               t.writing, t.finishing}) {
      EXPECT_GT(phase, 0.0);
    }
    if (memory == 0) {
      EXPECT_GT(t.reading, 0.0);
      EXPECT_EQ(t.partitioning, 0.0);
    } else {
      // Larger than the budget: through cell files, parts sampled together above them.
      EXPECT_EQ(t.reading, 0.0);
      EXPECT_GT(t.partitioning, 0.0);
      EXPECT_GT(t.loading, 0.0);
      EXPECT_GT(t.merging, 0.0);
      // Rounds of 16 384 points (the budget's smallest): later rounds are gathered ahead.
      EXPECT_GT(t.gatheringAhead, 0.0);
    }
  }
}

}  // namespace
}  // namespace pcv::test
