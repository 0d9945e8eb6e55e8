/// @brief The tools every viewer window has, in the order they see input and show their
/// sections. A new tool is one line here.
#pragma once

#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/tool_list.hpp"

namespace pcv::app {

void addStandardTools(ToolList& tools, ToolHost& host);

}  // namespace pcv::app
