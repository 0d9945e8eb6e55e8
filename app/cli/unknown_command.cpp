#include "unknown_command.hpp"

#include <algorithm>
#include <filesystem>

namespace pcv::app {

size_t editDistance(const std::string& from, const std::string& to) {
  // Optimal string alignment: rows of the previous two prefixes of `from` suffice.
  std::vector<size_t> before(to.size() + 1), previous(to.size() + 1), current(to.size() + 1);
  for (size_t j = 0; j <= to.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= from.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= to.size(); ++j) {
      const size_t substitution = previous[j - 1] + (from[i - 1] == to[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && from[i - 1] == to[j - 2] && from[i - 2] == to[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    before.swap(previous);
    previous.swap(current);
  }
  return previous[to.size()];
}

std::optional<std::string> closestName(const std::string& word,
                                       const std::vector<std::string>& names) {
  const size_t allowed = word.size() <= 4 ? 1 : 2;
  std::optional<std::string> best;
  size_t bestDistance = allowed + 1;
  for (const std::string& name : names) {
    const size_t distance = editDistance(word, name);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = name;
    }
  }
  return best;
}

bool looksLikeCommand(const std::string& word) {
  if (word.empty() || word[0] == '-') return false;
  if (word.find_first_of("./\\:") != std::string::npos) return false;
  std::error_code error;
  return !std::filesystem::exists(word, error);
}

std::string unknownCommandMessage(const std::string& word, const std::vector<std::string>& names) {
  std::string message = "unknown command '" + word + "'";
  if (const std::optional<std::string> close = closestName(word, names)) {
    return message + ", did you mean '" + *close + "'?";
  }
  message += ", and no file of that name; the commands are";
  for (size_t i = 0; i < names.size(); ++i) message += (i == 0 ? " " : ", ") + names[i];
  return message + " (pcv --help)";
}

}  // namespace pcv::app
