// Thin wrappers over Linux network namespaces and iproute2, for `emulate`:
// run `ip` batches, enter a namespace for a scope, write its sysctls and read
// its interface counters. Everything here needs root.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ecmpsim::netns {

// The result of a child process.
struct ProcessResult {
  int status = -1;  // exit code; 128 + signal when killed
  std::string out;
  std::string err;
};

// Runs argv[0] (searched in PATH) with `input` on its stdin; collects stdout and stderr.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& input);

// `ip [-n ns] [-json] -batch -` over `commands` (one per line). Throws
// std::runtime_error carrying ip's stderr when it fails (unless `force`).
std::string ip_batch(const std::string& ns, const std::string& commands, bool json = false, bool force = false);
// `ip [-n ns] -6 -batch -`: for commands whose family ip cannot read off an
// address (`ip rule` takes IPv4 unless told), failing as ip_batch does.
std::string ip6_batch(const std::string& ns, const std::string& commands);

// `tc [-n ns] [-s] -batch -`, failing as ip_batch does.
std::string tc_batch(const std::string& ns, const std::string& commands, bool stats = false);

// What an HTB class sent, from `tc -s class show` text (tc prints no JSON for HTB classes).
struct ClassStats {
  std::uint64_t bytes = 0, packets = 0, dropped = 0;
};
// Keyed by the class id as tc prints it ("1:1f").
std::map<std::string, ClassStats> parse_class_stats(const std::string& text);

// Names of the namespaces under /run/netns.
std::vector<std::string> list_namespaces();

// Whether the process `pid` exists (a namespace prefix names its creator).
bool process_alive(long pid);

// An open handle to a named namespace (/run/netns/NAME).
class Handle {
 public:
  explicit Handle(const std::string& name);
  Handle(Handle&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  int fd() const noexcept { return fd_; }

 private:
  int fd_ = -1;
};

// Moves the calling thread into `ns` for its lifetime and back afterwards.
// Sockets created inside stay in `ns`; /proc/sys/net and
// /proc/thread-self/net then show `ns`.
class Enter {
 public:
  explicit Enter(const Handle& ns);
  Enter(const Enter&) = delete;
  Enter& operator=(const Enter&) = delete;
  ~Enter();

 private:
  int home_ = -1;
};

// Writes /proc/sys/<key with dots as slashes> in the current namespace.
void write_sysctl(const std::string& key, const std::string& value);
std::string read_sysctl(const std::string& key);

// Transmitted packets per interface in the current namespace (/proc/thread-self/net/dev).
std::map<std::string, std::uint64_t> tx_packets();
// The same parser over the text of a /proc/net/dev file.
std::map<std::string, std::uint64_t> parse_tx_packets(const std::string& proc_net_dev);

// An IPv6 forwarding question: a packet arriving on `iif` (a device name in
// the current namespace) with this five-tuple and flow label.
struct RouteQuery6 {
  std::array<std::uint8_t, 16> src, dst;
  std::string iif;
  std::uint8_t proto = 17;
  std::uint16_t sport = 0, dport = 0;
  std::uint32_t flow_label = 0;
};
// Per query, the device the current namespace's kernel forwards it to (empty
// when it has no route): one RTM_GETROUTE each, with RTA_IIF, RTA_IP_PROTO,
// RTA_SPORT, RTA_DPORT and RTA_FLOWLABEL, as inet6_rtm_getroute reads them —
// `ip -6 route get ... flowlabel L` of iproute2 6.3 and later.
std::vector<std::string> route_get6(const std::vector<RouteQuery6>& queries);

}  // namespace ecmpsim::netns
