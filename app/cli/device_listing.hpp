/// @brief `pcv info --devices`: the GPUs pcv can draw on (CUDA, each Vulkan device with the
/// reason it cannot where it cannot) and the backend `--backend auto` takes.
#pragma once

namespace pcv::app {

/// Prints the devices (unless the report goes to standard output) and adds them to the report.
void describeDevices();

}  // namespace pcv::app
