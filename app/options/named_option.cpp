#include "options/named_option.hpp"

namespace pcv::app {

CLI::Validator checkedBy(std::function<void(const std::string&)> parse, std::string description) {
  return CLI::Validator(
      [parse = std::move(parse)](std::string& text) -> std::string {
        try {
          parse(text);
          return {};
        } catch (const InputError& error) {
          return error.what();
        }
      },
      std::move(description));
}

}  // namespace pcv::app
