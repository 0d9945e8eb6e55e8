/// @brief One STAC item of a VPC as a VpcTile, with every field checked; shared by the reader
/// (which hands it one feature at a time) and nothing else, so its checks live in one place.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "pcv/io/virtual_point_cloud.hpp"

namespace pcv {

/// One item: its tile (crsIndex not set yet) and the CRS it declares.
struct FeatureFields {
  VpcTile tile;
  CoordinateSystem crs;
};

/// The tile of `feature`, found at JSON pointer `pointer` of the VPC `name`; relative hrefs are
/// resolved against `base` under `rules` (resolveVpcHref). Throws InputError naming the pointer
/// of the first bad field.
FeatureFields readFeature(const nlohmann::json& feature, const std::string& pointer,
                          const std::string& name, const std::string& base,
                          const VpcHrefRules& rules);

}  // namespace pcv
