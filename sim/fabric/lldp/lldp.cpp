// The table of LLDP forms and what their parsers share: pasted prompts,
// port names, speeds, management rows.
#include "sim/fabric/lldp/lldp.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "sim/base/csv_reader.h"
#include "sim/fabric/lldp/lldp_formats.h"

namespace ecmpsim::lldp {
namespace {

constexpr std::array<FormatRow, 7> kFormats{{
    {Format::EosJson, "eos-json", "Arista EOS `show lldp neighbors | json` (or `detail | json`)", &parse_eos_json,
     &detect_eos_json, true},
    {Format::NvueJson, "nvue-json", "Cumulus Linux NVUE `nv show interface -o json`", &parse_nvue_json,
     &detect_nvue_json, true},
    {Format::LldpdJson0, "lldpd-json0", "lldpd `lldpcli -f json0 show neighbors` (Linux hosts, SONiC's lldpctl)",
     &parse_lldpd_json0, &detect_lldpd_json0, false},
    {Format::LldpdJson, "lldpd-json", "lldpd `lldpcli -f json show neighbors`", &parse_lldpd_json,
     &detect_lldpd_json, false},
    {Format::LldpdKeyvalue, "lldpd-keyvalue", "lldpd `lldpcli -f keyvalue show neighbors`", &parse_lldpd_keyvalue,
     &detect_lldpd_keyvalue, false},
    {Format::SonicText, "sonic-text", "SONiC `show lldp table`", &parse_sonic_text, &detect_sonic_text, true},
    {Format::EosText, "eos-text", "Arista EOS `show lldp neighbors`", &parse_eos_text, &detect_eos_text, true},
}};

// EOS's short interface names, as its tables print them.
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kAbbreviations{
    {{"Et", "Ethernet"}, {"Ma", "Management"}, {"Po", "Port-Channel"}, {"Lo", "Loopback"}, {"Vl", "Vlan"}}};

bool prompt_end(char c) noexcept { return c == '#' || c == '$' || c == '>'; }

// The host a prompt names: "user@HOST:~$", "[user@HOST dir]#", "HOST#", "HOST(config)#".
std::string prompt_host(std::string_view prompt) {
  std::size_t at = prompt.find('@');
  std::string_view host = at == std::string_view::npos ? prompt : prompt.substr(at + 1);
  if (!host.empty() && host.front() == '[') host.remove_prefix(1);
  const std::size_t end = host.find_first_of(":] #$>(");
  return std::string(host.substr(0, end));
}

// A line that is a prompt: words ending in #, $ or >, then (when `command`)
// a command that shows LLDP, else nothing.
bool prompt_line(std::string_view line, std::string& prompt, bool& command) {
  const std::size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) return false;
  line.remove_prefix(start);
  static constexpr std::array<std::string_view, 5> kCommands{"show ", "lldpcli", "lldpctl", "nv ", "sudo "};
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (!prompt_end(line[i])) continue;
    std::string_view rest = line.substr(i + 1);
    rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t\r")));
    const bool runs = std::any_of(kCommands.begin(), kCommands.end(),
                                  [&](std::string_view c) { return rest.starts_with(c); });
    if (!rest.empty() && !runs) continue;
    prompt = std::string(line.substr(0, i));
    command = runs;
    return i > 0 || runs;
  }
  return false;
}

}  // namespace

std::span<const FormatRow> formats() noexcept { return kFormats; }

const FormatRow* find_format(std::string_view name) noexcept {
  for (const FormatRow& f : kFormats)
    if (f.name == name) return &f;
  return nullptr;
}

const FormatRow* detect_format(std::string_view text) noexcept {
  for (const FormatRow& f : kFormats)
    if (f.detect(text)) return &f;
  return nullptr;
}

std::string normalise_port(std::string_view port) {
  for (const auto& [short_name, long_name] : kAbbreviations)
    if (port.size() > short_name.size() && port.starts_with(short_name) &&
        std::isdigit(static_cast<unsigned char>(port[short_name.size()])))
      return std::string(long_name) + std::string(port.substr(short_name.size()));
  return std::string(port);
}

bool management_port(std::string_view p) {
  return p.starts_with("Management") || p.starts_with("mgmt") ||
         (p.starts_with("Ma") && p.size() > 2 && std::isdigit(static_cast<unsigned char>(p[2])));
}

namespace detail {

std::string blank_prompts(std::string_view text, std::string& device) {
  std::string out(text);
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto begin = static_cast<std::size_t>(rest.data() - text.data());
    const std::string_view line = take_line(rest);
    std::string prompt;
    bool command = false;
    if (!prompt_line(line, prompt, command)) continue;
    if (command && device.empty()) device = prompt_host(prompt);
    std::fill_n(out.begin() + static_cast<std::ptrdiff_t>(begin), line.size(), ' ');
  }
  return out;
}

double speed_of(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i])) || (i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1]))))
      continue;
    std::size_t j = i;
    double v = 0;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) v = v * 10 + (text[j++] - '0');
    if (j < text.size() && (text[j] == 'G' || text[j] == 'M')) return text[j] == 'G' ? v : v / 1000;
    i = j;
  }
  return 0;
}

void add_neighbor(Table& t, Neighbor n, bool eth0_is_management) {
  n.local_port = normalise_port(n.local_port);
  n.port = normalise_port(n.port);
  if (management_port(n.local_port) || management_port(n.port) || (eth0_is_management && n.local_port == "eth0")) {
    ++t.management_rows;
    return;
  }
  t.neighbors.push_back(std::move(n));
}

}  // namespace detail

}  // namespace ecmpsim::lldp
