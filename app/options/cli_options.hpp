/// @brief Parsers for the command line's compound values ("-3,0,0"; "1280x720" is the
/// library's parseImageSize).
#pragma once

#include <string>

#include <glm/glm.hpp>

#include "pcv/core/image_size.hpp"

namespace pcv::app {

/// "x,y,z" of finite numbers; throws InputError otherwise.
glm::dvec3 parseVector3(const std::string& text);

}  // namespace pcv::app
