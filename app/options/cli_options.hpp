/// @brief Parsers for the command line's compound values ("1280x720", "-3,0,0").
#pragma once

#include <string>

#include <glm/glm.hpp>

namespace pcv::app {

struct ImageSize {
  int width = 1280;
  int height = 720;
};

/// "WxH" with 1 <= W, H <= 16384; throws InputError otherwise.
ImageSize parseImageSize(const std::string& text);
/// "x,y,z" of finite numbers; throws InputError otherwise.
glm::dvec3 parseVector3(const std::string& text);

}  // namespace pcv::app
