/// @brief Timed input for tests and demos (`pcv view --script FILE`): one event per line,
///   <seconds> <command> <arguments...>
/// Times are seconds since the first frame after the cylinder scene is laid out (at once with
/// files), non-decreasing; '#' starts a comment. The parser knows no command: the window
/// registers its own (window_commands.hpp lists them) and each tool registers those it
/// understands, with their parsing, so a new tool's commands are written beside the tool (its
/// header in tools/ lists them).
#pragma once

#include <functional>
#include <istream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace pcv::app {

/// The arguments after a command's name on one script line; every error names the line.
class ScriptLine {
 public:
  /// `where` is "file:line", `text` the line without its comment.
  ScriptLine(std::string where, std::string text, std::istringstream& fields);

  /// The next word; fails with "expected `expected`" when there is none.
  std::string word(const std::string& expected);
  /// The next word when there is one, else empty.
  std::string optionalWord();
  /// The next word, which must be one of `choices`.
  std::string oneOf(const std::vector<std::string>& choices, const std::string& expected);
  double number(const std::string& expected);

  /// Throws InputError "<file>:<line>: <what> in '<line>'".
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string where_;
  std::string text_;
  std::istringstream& fields_;
};

/// What a parsed line does when its time comes; false when it cannot yet (wait_load while files
/// load): it is run again the next frame, and later lines wait.
using ScriptStep = std::function<bool()>;

/// A step that always completes.
ScriptStep stepOf(std::function<void()> action);

/// The commands a script may use, each with its parser.
class ScriptCommands {
 public:
  /// Reads a command's arguments from the line and binds what it does.
  using Parser = std::function<ScriptStep(ScriptLine& arguments)>;
  /// Registers `name`; a name registered twice is a programming error (std::logic_error).
  void add(const std::string& name, Parser parser);
  const Parser* find(const std::string& name) const;

 private:
  std::map<std::string, Parser> parsers_;
};

struct ScriptEvent {
  double timeSeconds = 0.0;
  std::string command;  ///< its name, as written
  ScriptStep run;
};

/// Parses a script; throws InputError naming `sourceName`, the line and what was expected (an
/// unknown command too).
std::vector<ScriptEvent> parseInputScript(std::istream& input, const std::string& sourceName,
                                          const ScriptCommands& commands);
std::vector<ScriptEvent> loadInputScript(const std::string& path, const ScriptCommands& commands);

/// Runs a script's events as its clock reaches them.
class ScriptPlayer {
 public:
  ScriptPlayer() = default;
  explicit ScriptPlayer(std::vector<ScriptEvent> events) : events_(std::move(events)) {}
  /// Runs every event due at `nowSeconds`, in order, stopping at one that cannot run yet.
  void advance(double nowSeconds);

 private:
  std::vector<ScriptEvent> events_;
  size_t next_ = 0;
};

/// GLFW key code for a name ("W", "Escape", "F12", "LeftShift", "Home", "Delete" ...), or -1.
int keyFromName(const std::string& name);
/// GLFW mouse button for left, right or middle, or -1.
int buttonFromName(const std::string& name);

}  // namespace pcv::app
