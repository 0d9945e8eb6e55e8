#include "viewer/tools/standard_tools.hpp"

#include <memory>

#include "viewer/tools/clip/clip_tool.hpp"
#include "viewer/tools/edit/edit_tool.hpp"
#include "viewer/tools/filter/filter_tool.hpp"
#include "viewer/tools/measure/measure_tool.hpp"
#include "viewer/tools/path/path_tool.hpp"
#include "viewer/tools/polygon/polygon_tool.hpp"
#include "viewer/tools/profile/profile_tool.hpp"
#include "viewer/tools/views/views_tool.hpp"

namespace pcv::app {

void addStandardTools(ToolList& tools, ToolHost& host) {
  tools.add(std::make_unique<ViewsTool>(host));
  tools.add(std::make_unique<MeasureTool>(host));
  tools.add(std::make_unique<ClipTool>(host));
  tools.add(std::make_unique<PolygonTool>(host));
  tools.add(std::make_unique<PathTool>(host));
  tools.add(std::make_unique<FilterTool>(host));
  tools.add(std::make_unique<ProfileTool>(host));
  tools.add(std::make_unique<EditTool>(host));
}

}  // namespace pcv::app
