// The sidebar's Streaming section, while a COPC file is streamed: what the frame draws against
// what it wants, what is cached and on its way, the decode and upload rates, and the point
// budget (the detail shown), on a logarithmic slider.
#include <imgui.h>

#include <algorithm>

#include "pcv/core/number_text.hpp"
#include "viewer/panels/panels.hpp"

namespace pcv::app {

void drawStreamingSection(StreamPart& streamed) {
  StreamedCloud& cloud = streamed.cloud();
  const StreamingStats& stats = cloud.stats();
  ImGui::Text("%s", cloud.converged() ? "Converged: every wanted node is drawn"
                                      : "Loading the nodes this view wants...");
  ImGui::Text("Drawn: %s points, %zu of %zu nodes", countText(stats.pointsDrawn).c_str(),
              stats.nodesResident, stats.nodesWanted);
  ImGui::Text("Pending: %zu nodes", stats.nodesPending);
  ImGui::Text("Resident: %s points in %zu nodes", countText(stats.residentPoints).c_str(),
              stats.nodesCached);
  ImGui::Text("Evicted: %llu nodes; repacked %llu times",
              static_cast<unsigned long long>(stats.evictedNodes),
              static_cast<unsigned long long>(stats.repacks));
  const StreamRates& rates = streamed.rates();
  ImGui::Text("Decoding: %s points/s", countText(uint64_t(rates.decodedPerSecond)).c_str());
  ImGui::Text("Uploading: %s points/s", countText(uint64_t(rates.uploadedPerSecond)).c_str());
  // Up to what the GPU budget holds; setPointBudget raises too little to the root's points (a
  // frame draws the root whole).
  uint64_t budget = cloud.pointBudget();
  const uint64_t most = cloud.maxPointBudget();
  const uint64_t least = std::min<uint64_t>(budget, 100'000);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
  if (ImGui::SliderScalar("Point budget", ImGuiDataType_U64, &budget, &least, &most, "%llu",
                          ImGuiSliderFlags_Logarithmic)) {
    cloud.setPointBudget(budget);
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("Points drawn per frame, at most (--point-budget)");
  ImGui::PopStyleColor();
}

}  // namespace pcv::app
