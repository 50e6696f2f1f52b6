// LLDP neighbour tables in the forms operators have them, read into one
// shape: for each local port, the neighbour's system name and port. Each
// form is a row of kFormats (name, parser, detector); the parsers are pure
// functions of the bytes (no file system, no printing) returning a Table or an
// InputError naming the file, the line (text) or the JSON path (field), so
// they can be fuzzed. `ecmpsim topology` (sim/fabric/discover.h) builds a
// topology file from the tables of every device.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/base/error.h"

namespace ecmpsim::lldp {

// What the neighbour advertised it is: a bridge or router enabled, or
// neither (a station: a host's NIC), or the table does not say.
enum class Capability : std::uint8_t { Unknown, Switch, Station };

struct Neighbor {
  std::string local_port;  // normalised (normalise_port)
  std::string device;      // the neighbour's system name, else its chassis id
  std::string port;        // the neighbour's port: its interface name when sent, else its port id
  double speed_gbps = 0;   // the link's speed where the table says (MAU type, interface speed); 0 otherwise
  Capability capability = Capability::Unknown;
  std::uint32_t line = 0;  // 1-based line of the row; 0 in JSON (then `path` says where)
  std::string path;        // JSON: the row's path ("lldp.interface.eth0"); "" in text
};

struct Table {
  std::string device;  // the device the table is from when the paste names it (its prompt); "" otherwise
  std::vector<Neighbor> neighbors;
  std::uint32_t management_rows = 0;  // rows on management ports, left out
};

using ParseResult = std::variant<Table, InputError>;

enum class Format : std::uint8_t { LldpdJson, LldpdJson0, LldpdKeyvalue, SonicText, EosText, EosJson, NvueJson };

struct FormatRow {
  Format value;
  std::string_view name;  // as --format names it
  std::string_view doc;   // the command that prints it
  ParseResult (*parse)(std::string_view text, const std::string& file);
  bool (*detect)(std::string_view text);  // recognises its own bytes (a pasted prompt line allowed first)
  bool from_switch;  // only a switch prints it (EOS, SONiC's show, NVUE): its device is a switch
};

// Every form, in the order detection tries them.
std::span<const FormatRow> formats() noexcept;
const FormatRow* find_format(std::string_view name) noexcept;
// The first row whose detector recognises `text`; nullptr when none does.
const FormatRow* detect_format(std::string_view text) noexcept;

// EOS's abbreviations spelt out ("Et1/1" -> "Ethernet1/1", "Ma0" ->
// "Management0", "Po10" -> "Port-Channel10"); other names as they are.
std::string normalise_port(std::string_view port);
// A management port (Management*, Ma*, mgmt*): its neighbours are the
// management network's, not the fabric's.
bool management_port(std::string_view normalised);

// Parser helpers shared by the formats (lldp.cpp).
namespace detail {
// The text with a pasted prompt line that ran the command ("leaf1#show lldp
// neighbors", "admin@sonic:~$ show lldp table") and bare prompts blanked
// (spaces keep lines and columns); the device the first prompt names, if any.
std::string blank_prompts(std::string_view text, std::string& device);
// The first "(\d+)(G|M)" speed in a MAU type or interface speed ("100GbaseCR4",
// "10GBASE-LR", "400G"), in Gb/s; 0 when none.
double speed_of(std::string_view text);
// A neighbour row kept, or counted as a management row and dropped.
void add_neighbor(Table& t, Neighbor n, bool eth0_is_management);
// A parser's body, f(text with prompts blanked, table), run so that its
// InputError becomes the result.
template <class F>
ParseResult guarded(std::string_view text, F&& f) {
  Table t;
  try {
    const std::string body = blank_prompts(text, t.device);
    f(body, t);
  } catch (InputError& e) {
    return std::move(e);
  }
  return t;
}
}  // namespace detail

}  // namespace ecmpsim::lldp
