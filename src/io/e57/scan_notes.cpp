#include "scan_notes.hpp"

#include <cstdio>

namespace pcv::io::e57 {
namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string coordinates(const glm::dvec3& v) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.6g, %.6g, %.6g)", v.x, v.y, v.z);
  return text;
}

/// "cartesianX, cartesianY, cartesianZ: Float single; colorRed, ...: Integer 0..255": fields
/// of the same type grouped, in prototype order.
std::string fieldList(const std::vector<RecordField>& fields) {
  std::string text;
  for (size_t f = 0; f < fields.size();) {
    const std::string type = fields[f].typeText();
    size_t end = f + 1;
    while (end < fields.size() && fields[end].typeText() == type) ++end;
    if (!text.empty()) text += "; ";
    for (size_t g = f; g < end; ++g) text += (g > f ? ", " : "") + fields[g].name;
    text += ": " + type;
    f = end;
  }
  return text;
}

std::string poseText(const Pose& pose) {
  if (!pose.hasRotation && !pose.hasTranslation) return "none (scan coordinates are the file's)";
  std::string text;
  if (pose.hasRotation) {
    const glm::dquat& q = pose.rotation;
    text += "rotation (w, x, y, z) (" + number(q.w) + ", " + number(q.x) + ", " + number(q.y) +
            ", " + number(q.z) + ")";
  }
  if (pose.hasTranslation) {
    text += std::string(text.empty() ? "" : ", ") + "translation " + coordinates(pose.translation);
  }
  return text;
}

std::string plural(uint64_t count, const char* word) {
  return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

}  // namespace

std::string describeFile(const FileHeader& header, const XmlSection& section,
                         std::optional<uint32_t> pickedScan) {
  std::string text =
      std::to_string(header.majorVersion) + "." + std::to_string(header.minorVersion) + ", ";
  if (pickedScan) {
    text += "scan " + std::to_string(*pickedScan) + " of " + std::to_string(section.scans.size());
  } else {
    uint64_t points = 0;
    for (const ScanDescription& scan : section.scans) points += scan.recordCount;
    text += plural(section.scans.size(), "scan") + ", " + plural(points, "record");
  }
  if (section.imageCount > 0) {
    text += ", " + plural(section.imageCount, "image") + " (not shown)";
  }
  return text;
}

std::vector<std::string> describeScans(const XmlSection& section,
                                       std::optional<uint32_t> pickedScan) {
  std::vector<std::string> lines;
  const std::string indent = "            ";  // lines up with the values of `pcv info`
  for (size_t s = 0; s < section.scans.size(); ++s) {
    const ScanDescription& scan = section.scans[s];
    std::string title = "scan " + std::to_string(s) + ":";
    title.resize(indent.size(), ' ');
    title += (scan.name.empty() ? std::string("(unnamed)") : "\"" + scan.name + "\"") + ", " +
             plural(scan.recordCount, "record");
    if (!scan.guid.empty()) title += ", guid " + scan.guid;
    if (pickedScan && *pickedScan == s) title += "  <- read (--scan " + std::to_string(s) + ")";
    lines.push_back(title);
    lines.push_back(indent + "fields " + fieldList(scan.prototype));
    lines.push_back(indent + "pose " + poseText(scan.pose));
    if (scan.cartesianBounds) {
      lines.push_back(indent + "bounds " + coordinates(scan.cartesianBounds->min) + " .. " +
                      coordinates(scan.cartesianBounds->max) + " (as stated, scan coordinates)");
    }
  }
  return lines;
}

}  // namespace pcv::io::e57
