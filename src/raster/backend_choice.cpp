#include "pcv/raster/backend_choice.hpp"

namespace pcv {
namespace {

constexpr NamedValue<BackendChoice> kBackendRows[] = {
    {"auto", BackendChoice::Auto},
    {"cuda", BackendChoice::Cuda},
    {"vulkan", BackendChoice::Vulkan},
    {"cpu", BackendChoice::Cpu}};

}  // namespace

const NameTable<BackendChoice>& backendTable() {
  static const NameTable<BackendChoice> table{"backend", kBackendRows};
  return table;
}

std::vector<std::string> backendNames() {
  return backendTable().names();
}

BackendChoice parseBackend(std::string_view name) {
  return backendTable().parse(name);
}

const char* backendChoiceName(BackendChoice backend) {
  return backendTable().name(backend);
}

}  // namespace pcv
