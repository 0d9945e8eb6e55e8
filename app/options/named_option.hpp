/// @brief Options whose values the library parses (an enum's names, an image size, a camera):
/// the command line checks them with the library's own parser, so it accepts what every front
/// end accepts and refuses the rest with the library's message, as an option error.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "pcv/core/error.hpp"
#include "pcv/core/named_values.hpp"

namespace pcv::app {

/// A CLI11 check that runs `parse` on the typed value and fails with the InputError's message.
/// `description` is shown after the type in --help ("{off,on,auto}"); empty shows nothing.
CLI::Validator checkedBy(std::function<void(const std::string&)> parse,
                         std::string description = {});

/// The check of an option that takes one of `table`'s names (aliases too).
template <typename Enum>
CLI::Validator knownNameOf(const NameTable<Enum>& table) {
  std::string description;
  for (const std::string& name : table.names())
    description += (description.empty() ? "" : ",") + name;
  return checkedBy([&table](const std::string& text) { table.parse(text); },
                   "{" + description + "}");
}

/// Adds `flag`, one of `table`'s names, read into `target` (which must outlive the parse; its
/// value is the default shown in --help).
template <typename Enum>
CLI::Option* addNamedOption(CLI::App& command, const std::string& flag, Enum& target,
                            const NameTable<Enum>& table, const std::string& help) {
  return command
      .add_option_function<std::string>(
          flag, [&target, &table](const std::string& text) { target = table.parse(text); }, help)
      ->check(knownNameOf(table))
      ->default_str(table.name(target));
}

/// Runs `convert`, which turns options as typed into the library's values; an InputError from
/// it becomes a CLI11 validation error: a bad option value is a usage mistake, said with the
/// library's message, not bad data.
template <typename Convert>
auto checkedOptionValue(Convert&& convert) -> decltype(convert()) {
  try {
    return convert();
  } catch (const InputError& error) {
    throw CLI::ValidationError(std::string(error.what()));
  }
}

}  // namespace pcv::app
