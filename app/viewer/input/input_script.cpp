#include "viewer/input/input_script.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <map>
#include <sstream>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only; nothing here calls GLFW

#include "pcv/core/error.hpp"

namespace pcv::app {

int keyFromName(const std::string& name) {
  if (name.size() == 1 && name[0] >= 'A' && name[0] <= 'Z') return GLFW_KEY_A + (name[0] - 'A');
  if (name.size() == 1 && name[0] >= 'a' && name[0] <= 'z') return GLFW_KEY_A + (name[0] - 'a');
  if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') return GLFW_KEY_0 + (name[0] - '0');
  if (name.size() >= 2 && name[0] == 'F' && name.size() <= 3) {
    const int number = std::atoi(name.c_str() + 1);
    if (number >= 1 && number <= 25) return GLFW_KEY_F1 + number - 1;
  }
  static const std::map<std::string, int> named = {
      {"Escape", GLFW_KEY_ESCAPE},
      {"Space", GLFW_KEY_SPACE},
      {"Enter", GLFW_KEY_ENTER},
      {"Tab", GLFW_KEY_TAB},
      {"LeftShift", GLFW_KEY_LEFT_SHIFT},
      {"RightShift", GLFW_KEY_RIGHT_SHIFT},
      {"LeftControl", GLFW_KEY_LEFT_CONTROL},
      {"RightControl", GLFW_KEY_RIGHT_CONTROL},
      {"Left", GLFW_KEY_LEFT},
      {"Right", GLFW_KEY_RIGHT},
      {"Up", GLFW_KEY_UP},
      {"Down", GLFW_KEY_DOWN},
      {"Home", GLFW_KEY_HOME},
      {"Backspace", GLFW_KEY_BACKSPACE},
      {"Delete", GLFW_KEY_DELETE},
  };
  const auto found = named.find(name);
  return found == named.end() ? -1 : found->second;
}

int buttonFromName(const std::string& name) {
  if (name == "left") return GLFW_MOUSE_BUTTON_LEFT;
  if (name == "right") return GLFW_MOUSE_BUTTON_RIGHT;
  if (name == "middle") return GLFW_MOUSE_BUTTON_MIDDLE;
  return -1;
}

ScriptLine::ScriptLine(std::string where, std::string text, std::istringstream& fields)
    : where_(std::move(where)), text_(std::move(text)), fields_(fields) {}

std::string ScriptLine::word(const std::string& expected) {
  std::string word;
  if (!(fields_ >> word)) fail("expected " + expected);
  return word;
}

std::string ScriptLine::optionalWord() {
  std::string word;
  fields_ >> word;
  return word;
}

std::string ScriptLine::oneOf(const std::vector<std::string>& choices,
                              const std::string& expected) {
  std::string chosen = word(expected);
  if (std::find(choices.begin(), choices.end(), chosen) == choices.end())
    fail("expected " + expected);
  return chosen;
}

double ScriptLine::number(const std::string& expected) {
  double value = 0.0;
  if (!(fields_ >> value)) fail("expected " + expected);
  return value;
}

void ScriptLine::fail(const std::string& what) const {
  throw InputError(where_ + ": " + what + " in '" + text_ + "'");
}

ScriptStep stepOf(std::function<void()> action) {
  return [action = std::move(action)] {
    action();
    return true;
  };
}

void ScriptCommands::add(const std::string& name, Parser parser) {
  if (!parsers_.emplace(name, std::move(parser)).second) {
    throw std::logic_error("the script command '" + name + "' is registered twice");
  }
}

const ScriptCommands::Parser* ScriptCommands::find(const std::string& name) const {
  const auto found = parsers_.find(name);
  return found == parsers_.end() ? nullptr : &found->second;
}

std::vector<ScriptEvent> parseInputScript(std::istream& input, const std::string& sourceName,
                                          const ScriptCommands& commands) {
  std::vector<ScriptEvent> events;
  std::string line;
  for (int lineNumber = 1; std::getline(input, line); ++lineNumber) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    ScriptLine arguments(sourceName + ":" + std::to_string(lineNumber), line, fields);
    ScriptEvent event;
    if (!(fields >> event.timeSeconds)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      arguments.fail("expected a time in seconds");
    }
    if (!(fields >> event.command)) arguments.fail("expected a command after the time");
    const ScriptCommands::Parser* parse = commands.find(event.command);
    if (!parse) arguments.fail("unknown command '" + event.command + "'");
    if (!events.empty() && event.timeSeconds < events.back().timeSeconds) {
      arguments.fail("times must not decrease");
    }
    event.run = (*parse)(arguments);
    if (const std::string extra = arguments.optionalWord(); !extra.empty()) {
      arguments.fail("unexpected '" + extra + "'");
    }
    events.push_back(std::move(event));
  }
  return events;
}

std::vector<ScriptEvent> loadInputScript(const std::string& path, const ScriptCommands& commands) {
  std::ifstream file(path);
  if (!file) throw InputError("cannot open the input script '" + path + "'");
  return parseInputScript(file, path, commands);
}

void ScriptPlayer::advance(double nowSeconds) {
  while (next_ < events_.size() && events_[next_].timeSeconds <= nowSeconds) {
    if (!events_[next_].run()) return;
    ++next_;
  }
}

}  // namespace pcv::app
