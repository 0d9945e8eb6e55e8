// The sections' text field over a std::string.
#include <imgui.h>

#include <algorithm>

#include "viewer/tools/text_field.hpp"

namespace pcv::app {

bool inputString(const char* label, std::string& text) {
  char buffer[4096];
  const size_t length = std::min(text.size(), sizeof buffer - 1);
  std::copy_n(text.data(), length, buffer);
  buffer[length] = '\0';
  const bool entered =
      ImGui::InputText(label, buffer, sizeof buffer, ImGuiInputTextFlags_EnterReturnsTrue);
  text = buffer;
  return entered;
}

}  // namespace pcv::app
