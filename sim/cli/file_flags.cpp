#include "sim/cli/file_flags.h"

#include <CLI/CLI.hpp>
#include <array>
#include <optional>
#include <string_view>

#include "sim/app/files.h"
#include "sim/cli/cli.h"

namespace ecmpsim::cli {
namespace {

// The validators' names, one per role: how check_file_flags finds an option's role.
constexpr std::array<std::string_view, 5> kRoleNames{"file-input", "file-input-list", "file-output",
                                                      "file-checkpoint", "file-resume"};

std::optional<FileRole> role_of(const CLI::Option& opt) {
  for (std::size_t i = 0; i < kRoleNames.size(); ++i) {
    try {
      const_cast<CLI::Option&>(opt).get_validator(std::string(kRoleNames[i]));
      return static_cast<FileRole>(i);
    } catch (const CLI::OptionNotFound&) {
    }
  }
  return std::nullopt;
}

bool writes(FileRole r) { return r == FileRole::Output || r == FileRole::Checkpoint; }

// What the option names: its values, else its default (`report --out`'s report.html).
std::vector<std::string> named_files(const CLI::Option& opt, FileRole role) {
  std::vector<std::string> values = opt.results();
  if (values.empty() && !opt.get_default_str().empty()) values.push_back(opt.get_default_str());
  if (role != FileRole::InputList) return values;
  std::vector<std::string> split;
  for (const std::string& v : values) {
    std::string_view rest = v;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      split.emplace_back(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  return split;
}

std::string flag_name(const CLI::Option& opt) {
  const auto& l = opt.get_lnames();
  if (!l.empty()) return "--" + l.front();
  const auto& s = opt.get_snames();
  return s.empty() ? opt.get_name() : "-" + s.front();
}

}  // namespace

CLI::Validator file_role(FileRole role) {
  const bool output = writes(role);
  return CLI::Validator(
      [output](std::string& v) -> std::string {
        if (output && v.empty()) return "no file given ('-' is standard output)";
        return {};
      },
      "", std::string(kRoleNames[static_cast<std::size_t>(role)]));
}

void check_file_flags(const CLI::App& sub) {
  std::vector<app::NamedFile> inputs, outputs;
  for (const CLI::Option* opt : sub.get_options())
    if (const auto role = role_of(*opt))
      for (std::string& path : named_files(*opt, *role))
        (writes(*role) ? outputs : inputs)
            .push_back({flag_name(*opt), std::move(path), role == FileRole::Checkpoint, role == FileRole::Resume});
  app::check_named_files(inputs, outputs);
}

std::vector<FileFlag> file_flags() {
  CLI::App app;
  std::vector<FileFlag> out;
  for (const auto& [sub, action] : add_commands(app))
    for (const CLI::Option* opt : sub->get_options())
      if (const auto role = role_of(*opt))
        out.push_back({sub->get_name(), opt->get_lnames().empty() && opt->get_snames().empty() ? opt->get_name()
                                                                                              : flag_name(*opt),
                       *role, opt->get_lnames().empty() && opt->get_snames().empty(), opt->get_required()});
  return out;
}

}  // namespace ecmpsim::cli
