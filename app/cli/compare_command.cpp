#include "compare_command.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "pcv/core/error.hpp"
#include "pcv/io/png_writer.hpp"

namespace pcv::app {
namespace {

struct CompareOptions {
  std::string first, second;
  int threshold = 16;  ///< a pixel "changes visibly" when a channel moves by more than this
};

void runCompare(const CompareOptions& o) {
  const Image a = readPng(o.first), b = readPng(o.second);
  if (a.width != b.width || a.height != b.height) {
    throw InputError("the images differ in size: " + std::to_string(a.width) + "x" +
                     std::to_string(a.height) + " and " + std::to_string(b.width) + "x" +
                     std::to_string(b.height));
  }
  uint64_t different = 0, visible = 0, channelSum = 0;
  for (size_t i = 0; i < a.pixels.size(); ++i) {
    int largest = 0;
    for (int shift = 0; shift < 24; shift += 8) {
      const int d =
          std::abs(int((a.pixels[i] >> shift) & 0xffu) - int((b.pixels[i] >> shift) & 0xffu));
      largest = std::max(largest, d);
      channelSum += uint64_t(d);
    }
    different += a.pixels[i] != b.pixels[i];
    visible += largest > o.threshold;
  }
  const double count = double(std::max<size_t>(1, a.pixels.size()));
  std::printf(
      "%llu of %zu pixels differ (%.2f %%); %llu by more than %d in a channel (%.2f %%); "
      "mean channel difference %.3f\n",
      (unsigned long long)different, a.pixels.size(), 100.0 * different / count,
      (unsigned long long)visible, o.threshold, 100.0 * visible / count,
      double(channelSum) / (3.0 * count));
}

}  // namespace

void addCompareCommand(CLI::App& cli) {
  auto o = std::make_shared<CompareOptions>();
  CLI::App* compare =
      cli.add_subcommand("compare", "Count the pixels that differ between two PNGs of one size");
  compare->add_option("first", o->first, "First PNG")->required();
  compare->add_option("second", o->second, "Second PNG")->required();
  compare
      ->add_option("--threshold", o->threshold,
                   "A channel difference above this counts as a visible change")
      ->capture_default_str();
  compare->callback([o] { runCompare(*o); });
}

}  // namespace pcv::app
