// Camera paths: the spline passes through every key at its time, is C1 (checked numerically:
// the velocity just before a key equals the velocity just after), yaw is unwrapped the short
// way, timing is per key or centripetal, constant-speed times step equally along the path; and
// the path file's parser, whose errors are checked by key and field through CameraPathError.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "pcv/core/camera_path.hpp"
#include "pcv/session/camera_path_file.hpp"

namespace pcv {
namespace {

/// Keys on a winding path with uneven spacing, yaws crossing +-180 and varied pitch.
std::vector<CameraKey> windingKeys() {
  return {{{0.0, 0.0, 1.0}, 170.0, -10.0}, {{4.0, 1.0, 1.5}, -170.0, -20.0},
          {{5.0, 6.0, 3.0}, -120.0, 5.0},  {{5.5, 6.2, 3.0}, -100.0, 0.0},
          {{-2.0, 8.0, 2.0}, 10.0, -45.0}, {{-3.0, 0.0, 0.5}, 90.0, 30.0}};
}

std::vector<double> poseValues(const CameraPose& pose) {
  return {pose.eye.x, pose.eye.y, pose.eye.z, pose.yawDegrees, pose.pitchDegrees};
}

TEST(CameraPath, PassesThroughEveryKeyExactlyAtItsTime) {
  const CameraPath path(windingKeys());
  for (size_t i = 0; i < path.keys().size(); ++i) {
    const CameraPose pose = path.at(path.keyTimes()[i]);
    EXPECT_EQ(pose.eye, path.keys()[i].eye) << "key " << i;
    EXPECT_EQ(pose.pitchDegrees, path.keys()[i].pitchDegrees) << "key " << i;
    EXPECT_EQ(wrapDegrees(pose.yawDegrees), wrapDegrees(path.keys()[i].yawDegrees)) << "key " << i;
  }
  EXPECT_EQ(path.at(path.keyTimes()[0]).yawDegrees, 170.0);  // the first key is not unwrapped
  // Just beside a key the pose is close to it: the spline, not only the special case, meets it.
  const double t = path.keyTimes()[2];
  const CameraPose near = path.at(t - 1e-9);
  EXPECT_NEAR(glm::length(near.eye - path.keys()[2].eye), 0.0, 1e-6);
}

TEST(CameraPath, IsC1AtTheKeys) {
  // Per-key times and centripetal ones both: velocities from the left and right of each inner
  // key agree, while within a segment the path really curves (the check could fail).
  std::vector<CameraKey> timed = windingKeys();
  const double times[] = {0.0, 1.0, 3.5, 4.0, 7.0, 8.0};
  for (size_t i = 0; i < timed.size(); ++i) timed[i].timeSeconds = times[i];
  for (const auto& keys : {windingKeys(), timed}) {
    const CameraPath path(keys);
    const double h = 1e-5;
    for (size_t i = 1; i + 1 < keys.size(); ++i) {
      const double t = path.keyTimes()[i];
      const std::vector<double> at = poseValues(path.at(t));
      const std::vector<double> before = poseValues(path.at(t - h));
      const std::vector<double> after = poseValues(path.at(t + h));
      const std::vector<double> before2 = poseValues(path.at(t - 2 * h));
      const std::vector<double> after2 = poseValues(path.at(t + 2 * h));
      for (size_t c = 0; c < at.size(); ++c) {
        if (c == 4 && std::abs(at[c]) >= 90.0) continue;  // a clamped pitch may bend
        // One-sided second-order differences: exact for the cubic on each side.
        const double left = (3 * at[c] - 4 * before[c] + before2[c]) / (2 * h);
        const double right = (-3 * at[c] + 4 * after[c] - after2[c]) / (2 * h);
        const double scale = std::max(1.0, std::abs(left));
        EXPECT_NEAR(left, right, 1e-4 * scale) << "key " << i << " component " << c;
      }
    }
    // The velocity is continuous, but the path is no straight line between keys 1 and 2.
    const double mid = 0.5 * (path.keyTimes()[1] + path.keyTimes()[2]);
    const glm::dvec3 chordMid = 0.5 * (keys[1].eye + keys[2].eye);
    EXPECT_GT(glm::length(path.at(mid).eye - chordMid), 1e-3);
  }
}

TEST(CameraPath, UnwrapsYawTheShortWay) {
  const CameraPath path({{{0, 0, 0}, 350.0, 0.0}, {{1, 0, 0}, 10.0, 0.0}});
  // Halfway the camera looks along 0 degrees (360), having turned 10, never through 180.
  for (int step = 0; step <= 20; ++step) {
    const double t = path.startSeconds() + path.durationSeconds() * step / 20.0;
    const double yaw = path.at(t).yawDegrees;
    EXPECT_GE(yaw, 350.0 - 1e-9);
    EXPECT_LE(yaw, 370.0 + 1e-9);
  }
  EXPECT_NEAR(wrapDegrees(path.at(path.startSeconds() + 0.5 * path.durationSeconds()).yawDegrees),
              0.0, 1e-9);
  const CameraPath back({{{0, 0, 0}, -170.0, 0.0}, {{1, 0, 0}, 170.0, 0.0}});
  EXPECT_NEAR(back.at(back.endSeconds()).yawDegrees, -190.0, 1e-12);
  EXPECT_EQ(wrapDegrees(540.0), 180.0);
  EXPECT_EQ(wrapDegrees(-180.0), 180.0);
  EXPECT_EQ(wrapDegrees(-190.0), 170.0);
}

TEST(CameraPath, TwoKeysAreAStraightLineAtConstantSpeed) {
  const CameraPath path({{{0, 0, 0}, 0.0, 0.0, 2.0}, {{4, 2, 0}, 40.0, 10.0, 6.0}});
  for (int step = 0; step <= 8; ++step) {
    const double f = step / 8.0;
    const CameraPose pose = path.at(2.0 + 4.0 * f);
    EXPECT_NEAR(pose.eye.x, 4.0 * f, 1e-12);
    EXPECT_NEAR(pose.eye.y, 2.0 * f, 1e-12);
    EXPECT_NEAR(pose.yawDegrees, 40.0 * f, 1e-12);
  }
  // Outside its span the path holds its ends.
  EXPECT_EQ(path.at(-5.0).eye, glm::dvec3(0.0));
  EXPECT_EQ(path.at(99.0).eye, glm::dvec3(4, 2, 0));
}

TEST(CameraPath, TimesArePerKeyOrCentripetal) {
  std::vector<CameraKey> keys = {
      {{0, 0, 0}, 0, 0}, {{4, 0, 0}, 0, 0}, {{4, 1, 0}, 0, 0}, {{4, 1, 0}, 90, 0}};
  const CameraPath centripetal(keys);
  const std::vector<double>& t = centripetal.keyTimes();
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0], 0.0);
  // Spans grow as the square root of the distance (2 : 1), a turn in place gets a quarter of
  // the mean, and the whole lasts kDefaultSecondsPerSegment per segment.
  EXPECT_NEAR((t[1] - t[0]) / (t[2] - t[1]), 2.0, 1e-12);
  EXPECT_NEAR(t[3] - t[2], 0.25 * (2.0 + 1.0 + 0.0) / 3.0 * (t[2] - t[1]), 1e-12);
  EXPECT_NEAR(t[3], 3 * CameraPath::kDefaultSecondsPerSegment, 1e-12);
  for (size_t i = 0; i < keys.size(); ++i) keys[i].timeSeconds = 10.0 + i;
  EXPECT_EQ(CameraPath(keys).keyTimes(), (std::vector<double>{10, 11, 12, 13}));
  // Frames spread evenly in time, first and last on the end keys exactly.
  const CameraPath timed(keys);
  EXPECT_EQ(timed.frameTime(0, 7), 10.0);
  EXPECT_EQ(timed.frameTime(6, 7), 13.0);
  EXPECT_DOUBLE_EQ(timed.frameTime(2, 7), 11.0);
  EXPECT_EQ(timed.frameTime(0, 1), 10.0);
}

TEST(CameraPath, DistanceTimingStepsEquallyAlongThePath) {
  // Keys unevenly spaced round a circle of radius 5: the centripetal times make the eye slow
  // on short segments; equal steps in distance do not.
  std::vector<CameraKey> keys;
  for (double degrees : {0.0, 20.0, 100.0, 130.0, 200.0, 290.0}) {
    const double a = glm::radians(degrees);
    keys.push_back({{5 * std::cos(a), 5 * std::sin(a), 1.0}, degrees + 90, 0.0});
  }
  const CameraPath path(keys);
  const int frames = 50;
  std::vector<glm::dvec3> eyes;
  for (int f = 0; f < frames; ++f) {
    eyes.push_back(path.at(path.timeAtDistance(double(f) / (frames - 1))).eye);
  }
  const double step = path.length() / (frames - 1);
  for (int f = 1; f < frames; ++f) {
    // Chords of equal arcs: a little shorter than the arc where the path bends.
    EXPECT_NEAR(glm::length(eyes[f] - eyes[f - 1]), step, 0.01 * step) << "frame " << f;
  }
  EXPECT_EQ(eyes.front(), path.keys().front().eye);
  EXPECT_EQ(eyes.back(), path.keys().back().eye);
}

TEST(CameraPath, RejectsKeysThatMakeNoPath) {
  const auto fieldOf =
      [](std::vector<CameraKey> keys) -> std::pair<std::optional<size_t>, std::string> {
    try {
      CameraPath{std::move(keys)};
    } catch (const CameraPathError& error) {
      return {error.key(), error.field()};
    }
    return {std::nullopt, "accepted"};
  };
  EXPECT_EQ(fieldOf({}).second, "");
  EXPECT_EQ(fieldOf({}).first, std::nullopt);
  using Pair = std::pair<std::optional<size_t>, std::string>;
  EXPECT_EQ(fieldOf({{{0, 0, 0}, 0, 0, 1.0}, {{1, 0, 0}, 0, 0}}), Pair(1, "time"));
  EXPECT_EQ(fieldOf({{{0, 0, 0}, 0, 0}, {{1, 0, 0}, 0, 0, 1.0}}), Pair(1, "time"));
  EXPECT_EQ(fieldOf({{{0, 0, 0}, 0, 0, 1.0}, {{1, 0, 0}, 0, 0, 1.0}}), Pair(1, "time"));
  EXPECT_EQ(fieldOf({{{0, 0, 0}, 0, 0}, {{1, 0, 0}, 0, 95}}), Pair(1, "pitch"));
  EXPECT_EQ(fieldOf({{{0, NAN, 0}, 0, 0}}), Pair(0, "eye"));
  EXPECT_EQ(fieldOf({{{0, 0, 0}, INFINITY, 0}}), Pair(0, "yaw"));
  // Numbers whose differences would overflow the spline.
  EXPECT_EQ(fieldOf({{{0, 0, 0}, 0, 0}, {{1e300, 0, 0}, 0, 0}}), Pair(1, "eye"));
  EXPECT_EQ(fieldOf({{{0, 0, 0}, 0, 0, -1e300}, {{1, 0, 0}, 0, 0, 1e300}}), Pair(0, "time"));
  // One key is a path that stays put.
  const CameraPath still({{{1, 2, 3}, 45, -5}});
  EXPECT_EQ(still.durationSeconds(), 0.0);
  EXPECT_EQ(still.at(still.frameTime(3, 10)).eye, glm::dvec3(1, 2, 3));
}

TEST(CameraPose, AppliesAnglesAsTheRenderFlagsDo) {
  Camera base;
  base.fovYRadians = 0.5f;
  base.upAxis = UpAxis::Y;
  const Camera camera = CameraPose{{1, 2, 3}, 35.25, -40.5}.applyTo(base);
  EXPECT_EQ(camera.eye, glm::dvec3(1, 2, 3));
  EXPECT_EQ(camera.yawRadians, float(glm::radians(35.25)));
  EXPECT_EQ(camera.pitchRadians, float(glm::radians(-40.5)));
  EXPECT_EQ(camera.fovYRadians, 0.5f);
  EXPECT_EQ(camera.upAxis, UpAxis::Y);
}

/// The key and field of the error parsing `text` throws.
struct Fault {
  std::optional<size_t> key;
  std::string field;
  std::optional<size_t> byte;
  bool operator==(const Fault&) const = default;
};

Fault faultOf(const std::string& text) {
  try {
    parseCameraPath(text, "p.json");
  } catch (const CameraPathError& error) {
    EXPECT_NE(std::string(error.what()).find("p.json"), std::string::npos) << error.what();
    return {error.key(), error.field(), error.byteOffset()};
  }
  ADD_FAILURE() << "accepted: " << text;
  return {};
}

TEST(CameraPathFile, ReadsKeysWithAndWithoutTimes) {
  const std::vector<CameraKey> keys = parseCameraPath(
      R"([{"eye": [1, 2, 3.5], "yaw": 350, "pitch": -20},
          {"pitch": 10, "yaw": 10, "eye": [-1e3, 0, 0]}])",
      "p.json");
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0], (CameraKey{{1, 2, 3.5}, 350, -20}));
  EXPECT_EQ(keys[1], (CameraKey{{-1000, 0, 0}, 10, 10}));
  const auto timed =
      parseCameraPath(R"([{"eye": [0,0,0], "yaw": 0, "pitch": 0, "time": 0.5}])", "p.json");
  EXPECT_EQ(timed[0].timeSeconds, 0.5);
}

TEST(CameraPathFile, WritesTextThatReadsBackToTheSameBits) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> any(-1e6, 1e6), angle(-90, 90);
  std::vector<CameraKey> keys;
  for (int i = 0; i < 20; ++i) {
    keys.push_back({{any(random), any(random), any(random)}, any(random), angle(random), i * 0.1});
  }
  EXPECT_EQ(parseCameraPath(cameraPathJson(keys), "p.json"), keys);
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("pcv_path_" + std::to_string(::getpid()) + ".json");
  writeCameraPath(file, keys);
  EXPECT_EQ(readCameraPath(file), keys);
  std::filesystem::remove(file);
}

TEST(CameraPathFile, ErrorsNameTheKeyAndField) {
  using F = Fault;
  const std::string good = R"({"eye": [0, 0, 0], "yaw": 0, "pitch": 0})";
  EXPECT_EQ(faultOf("[" + good + ", {\"eye\": [0, 0], \"yaw\": 0, \"pitch\": 0}]"),
            (F{1, "eye", {}}));
  EXPECT_EQ(faultOf("[" + good + ", {\"eye\": [0, \"a\", 0], \"yaw\": 0, \"pitch\": 0}]"),
            (F{1, "eye", {}}));
  EXPECT_EQ(faultOf(R"([{"eye": [0, 0, 0], "pitch": 0}])"), (F{0, "yaw", {}}));
  EXPECT_EQ(faultOf(R"([{"eye": [0, 0, 0], "yaw": "north", "pitch": 0}])"), (F{0, "yaw", {}}));
  EXPECT_EQ(faultOf(R"([{"eye": [0, 0, 0], "yaw": 0, "pich": 0}])"), (F{0, "pich", {}}));
  EXPECT_EQ(faultOf(R"([{"eye": [0, 0, 0], "yaw": 0, "pitch": 91}])"), (F{0, "pitch", {}}));
  EXPECT_EQ(faultOf("[" + good + ", 5]"), (F{1, "", {}}));
  EXPECT_EQ(faultOf("[" + good + R"(, {"eye": [1, 0, 0], "yaw": 0, "pitch": 0, "time": 2}])"),
            (F{1, "time", {}}));
  // The file as a whole: not an array, no keys, a syntax error (with its byte).
  EXPECT_EQ(faultOf(good), (F{{}, "", {}}));
  EXPECT_EQ(faultOf("[]"), (F{{}, "", {}}));
  const std::string cut = "[" + good + ", {\"eye\": [0, 0 0]}]";  // a comma missing
  const Fault syntax = faultOf(cut);
  EXPECT_EQ(syntax.key, std::nullopt);
  ASSERT_TRUE(syntax.byte.has_value());
  EXPECT_EQ(cut[*syntax.byte], '0') << *syntax.byte;  // the number where a comma should be
  EXPECT_GT(*syntax.byte, good.size());
  EXPECT_EQ(faultOf(R"([{"eye": [1e999, 0, 0], "yaw": 0, "pitch": 0}])").key, std::nullopt);
}

TEST(CameraPathFile, MissingFileIsAnInputError) {
  EXPECT_THROW(readCameraPath("/nonexistent/pcv/path.json"), InputError);
}

}  // namespace
}  // namespace pcv
