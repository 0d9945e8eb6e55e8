/// @brief Reads the JSON a command wrote with --report (or bench --json), so that tests check
/// figures, not the wording of messages.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

namespace pcv::test {

/// The JSON object in `path`; a failed expectation and an empty object when the file is missing
/// or holds no JSON object. Nested figures read as report.value("/a/b"_json_pointer, fallback).
inline nlohmann::json readJsonReport(const std::filesystem::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "no report at " << path;
  if (!in) return nlohmann::json::object();
  nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  EXPECT_TRUE(report.is_object()) << path << " holds no JSON object";
  return report.is_object() ? report : nlohmann::json::object();
}

}  // namespace pcv::test
