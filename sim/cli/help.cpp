// `--help` text: each option shows a short value name (N, X, FILE, or its
// choices) and, after its description, its accepted range and default, e.g.
//   -j,--threads N      Threads (in [1, 4096], default: all cores)
// CLI11's own formatter prints the C++ type and the validator glued together
// ("UINT:INTEGER >= 1=4294967296"), which tells a user nothing they can type.
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cli/cli.h"

namespace ecmpsim::cli {
namespace {

// What a user types for an option: CLI11's number types as N or X, its
// string type by what the option takes (a file, a range, names, numbers the
// command parses itself).
std::string value_name(const CLI::Option* opt, const std::string& type) {
  if (type == "UINT" || type == "INT" || type == "INTEGER") return "N";
  if (type == "FLOAT" || type == "NUMBER") return "X";
  if (type != "TEXT") return type;
  static const std::map<std::string, std::string, std::less<>> kByName{
      {"config", "FILE"},          {"out", "FILE"},
      {"flows", "FILE"},           {"rdma-map", "FILE"},
      {"tuples", "FILE"},          {"predict", "FILE"},
      {"observations", "FILE"},    {"emulation", "FILE"},
      {"seeds", "A:B[:STEP]"},     {"sport-base", "A:B[:STEP]"},
      {"qpn-base", "A:B[:STEP]"},  {"placement-seeds", "A:B[:STEP]"},
      {"scenario", "NAME"},        {"algo", "NAME"},
      {"algos", "NAME"},           {"switch", "NAME"},
      {"congestion", "NAME"},      {"hash", "NAME"},
      {"predict-scenario", "NAME"}, {"fields", "FIELD"},
      {"down", "LINK|SWITCH"},     {"src", "IPV4"},
      {"dst", "IPV4"},             {"rss-key", "HEX"},
      {"scale", "1/N|X"},          {"qps", "N"},
      {"select", "MODE"},          {"flows-format", "FORMAT"},
      {"flow-bytes", "SIZE"},      {"metric", "METRIC"},
      {"seed-mode", "MODE"},       {"calibration", "FILE"},
      {"fit-on", "FILE"},          {"fit-config", "FILE"},
      {"fit-sizes", "MIN:MAX"},    {"tables", "FILE"},
      {"job", "NAME"}};
  const std::vector<std::string> names = opt->get_lnames();
  const std::string name = names.empty() ? opt->get_name() : names.front();
  const auto it = kByName.find(name);
  // The rest are numbers hash parses itself (--proto, --sport, --members, ...).
  return it != kByName.end() ? it->second : "N";
}

// The validators' descriptions ("INTEGER >= 1", "NUMBER in [0, 10]",
// "{json,csv}"): CLI11 appends each to the type name after a ':'.
std::vector<std::string> validator_texts(const CLI::Option* opt) {
  std::vector<std::string> out;
  std::istringstream in(opt->get_type_name());
  std::string part;
  for (bool first = true; std::getline(in, part, ':'); first = false)
    if (!first && !part.empty()) out.push_back(part);
  return out;
}

// "INTEGER >= 1" -> ">= 1"; "NUMBER in [0, 10]" -> "in [0, 10]"; a choice set stays as it is.
std::string range_text(const std::string& v) {
  for (const char* type : {"INTEGER ", "NUMBER ", "SIZE "})
    if (v.rfind(type, 0) == 0) return v.substr(std::string(type).size());
  return v;
}

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* opt) const override {
    if (opt->get_type_size() == 0) return {};
    std::string out;
    const std::string full = opt->get_type_name();
    const std::vector<std::string> checks = validator_texts(opt);
    std::string name = value_name(opt, full.substr(0, full.find(':')));
    for (const std::string& c : checks)
      if (!c.empty() && c.front() == '{') name = c;  // the choices say more than "TEXT"
    for (const std::string& c : checks)
      if (c.rfind("SIZE", 0) == 0) name = "SIZE";
    if (!name.empty()) out += " " + name;
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out += " ...";
    if (opt->get_required()) out += " (required)";
    return out;
  }

  std::string make_option_desc(const CLI::Option* opt) const override {
    std::string desc = opt->get_description();
    if (opt->get_type_size() == 0) return desc;
    std::vector<std::string> notes;
    for (const std::string& c : validator_texts(opt))
      if (!c.empty() && c.front() != '{' && c != "SIZE") notes.push_back(range_text(c));  // SIZE is the value name
    const std::string def = opt->get_default_str();
    if (!def.empty() && desc.find("default") == std::string::npos) notes.push_back("default: " + def);
    if (notes.empty()) return desc;
    std::string joined;
    for (const std::string& n : notes) joined += (joined.empty() ? "" : ", ") + n;
    return desc + " (" + joined + ")";
  }
};

}  // namespace

std::shared_ptr<CLI::FormatterBase> help_formatter() {
  auto f = std::make_shared<HelpFormatter>();
  f->column_width(34);
  return f;
}

}  // namespace ecmpsim::cli
