#include "pcv/session/camera_path_file.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "pcv/core/number_text.hpp"
#include "pcv/core/partial_file.hpp"

namespace pcv {
namespace {

using Json = nlohmann::json;

/// Paths are written by people and by the viewer: tens or hundreds of keys. The limit keeps a
/// hostile file from asking for memory out of proportion to its size (each key is far larger
/// in memory than the few bytes of JSON it takes).
constexpr size_t kMaxKeys = 1'000'000;

/// The document; a syntax error names the source, the byte and what was expected.
Json parseDocument(std::string_view text, const std::string& sourceName) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& error) {
    // The library's message starts with a tag ("[json.exception.parse_error.101] ") that says
    // nothing to a user; the byte is given separately.
    std::string what = error.what();
    if (const size_t tag = what.find("] ");
        what.starts_with("[json.") && tag != std::string::npos) {
      what.erase(0, tag + 2);
    }
    // The library counts bytes read, up to the offending one.
    const size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    throw CameraPathError(sourceName + ": byte " + std::to_string(offset) + ": " + what,
                          std::nullopt, "", offset);
  } catch (const Json::exception& error) {
    // A number too large for a double ("1e999"): the library says which.
    throw CameraPathError(sourceName + ": " + error.what(), std::nullopt, "");
  }
}

/// Reads one key object; `where` names it in errors.
CameraKey keyFrom(const Json& value, size_t index, const std::string& where) {
  if (!value.is_object()) {
    throw CameraPathError(where +
                              ": expected an object {\"eye\": [x, y, z], \"yaw\": degrees, "
                              "\"pitch\": degrees}, got " +
                              value.type_name(),
                          index, "");
  }
  for (const auto& [name, member] : value.items()) {
    if (name != "eye" && name != "yaw" && name != "pitch" && name != "time") {
      throw CameraPathError(where + ": unknown field \"" + name +
                                "\"; expected \"eye\", \"yaw\", \"pitch\" and optionally \"time\"",
                            index, name);
    }
  }
  const auto number = [&](const char* field, const char* unit) {
    const auto member = value.find(field);
    if (member == value.end()) {
      throw CameraPathError(where + ": missing \"" + field + "\" (" + unit + ")", index, field);
    }
    if (!member->is_number()) {
      throw CameraPathError(
          where + ": \"" + field + "\" must be a number (" + unit + "), got " + member->type_name(),
          index, field);
    }
    return member->get<double>();
  };
  CameraKey key;
  const auto eye = value.find("eye");
  if (eye == value.end() || !eye->is_array() || eye->size() != 3) {
    throw CameraPathError(where + ": expected \"eye\" as [x, y, z]", index, "eye");
  }
  for (size_t axis = 0; axis < 3; ++axis) {
    if (!(*eye)[axis].is_number()) {
      throw CameraPathError(where + ": expected \"eye\" as [x, y, z] of numbers", index, "eye");
    }
    key.eye[int(axis)] = (*eye)[axis].get<double>();
  }
  key.yawDegrees = number("yaw", "degrees");
  key.pitchDegrees = number("pitch", "degrees");
  if (value.contains("time")) key.timeSeconds = number("time", "seconds");
  return key;
}

}  // namespace

std::vector<CameraKey> parseCameraPath(std::string_view text, const std::string& sourceName) {
  const Json root = parseDocument(text, sourceName);
  if (!root.is_array()) {
    throw CameraPathError(sourceName +
                              ": expected a JSON array of keys [{\"eye\": [x, y, z], "
                              "\"yaw\": degrees, \"pitch\": degrees}, ...], got " +
                              std::string(root.type_name()),
                          std::nullopt, "");
  }
  if (root.size() > kMaxKeys) {
    throw CameraPathError(sourceName + ": " + std::to_string(root.size()) + " keys; at most " +
                              std::to_string(kMaxKeys) + " are read",
                          std::nullopt, "");
  }
  std::vector<CameraKey> keys;
  keys.reserve(root.size());
  for (size_t i = 0; i < root.size(); ++i) {
    keys.push_back(keyFrom(root[i], i, sourceName + ": key " + std::to_string(i)));
  }
  try {
    CameraPath{keys};  // the checks a path makes (times, finite numbers, pitch range)
  } catch (const CameraPathError& error) {
    throw CameraPathError(sourceName + ": " + error.what(), error.key(), error.field());
  }
  return keys;
}

std::vector<CameraKey> readCameraPath(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open the camera path file '" + path.string() + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parseCameraPath(text.str(), path.string());
}

std::string cameraPathJson(const std::vector<CameraKey>& keys) {
  std::string json = "[";
  for (size_t i = 0; i < keys.size(); ++i) {
    const CameraKey& k = keys[i];
    json += std::string(i ? ",\n  " : "\n  ") + "{\"eye\": [" + exactText(k.eye.x) + ", " +
            exactText(k.eye.y) + ", " + exactText(k.eye.z) +
            "], \"yaw\": " + exactText(k.yawDegrees) + ", \"pitch\": " + exactText(k.pitchDegrees);
    if (k.timeSeconds) json += ", \"time\": " + exactText(*k.timeSeconds);
    json += "}";
  }
  json += keys.empty() ? "]\n" : "\n]\n";
  return json;
}

void writeCameraPath(const std::filesystem::path& path, const std::vector<CameraKey>& keys) {
  // A path being edited is saved again and again: replaced, but never left half written.
  PartialFile partial(path, {.existing = ExistingOutput::Replace});
  {
    std::ofstream out(partial.path());
    out << cameraPathJson(keys);
    if (!out) throw Error("cannot write the camera path to '" + path.string() + "'");
  }
  partial.commit();
}

}  // namespace pcv
