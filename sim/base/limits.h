// Resource limits: an input past one of these is refused with an error naming
// the option that raises it, instead of exhausting the machine's memory.
#pragma once

#include <cstdint>
#include <string>

namespace ecmpsim {

// Half of this machine's physical memory (sysconf), the default of
// --max-memory; 8 GiB where the system does not say.
std::uint64_t half_physical_memory() noexcept;

struct Limits {
  std::uint64_t max_hosts = 1'000'000;          // --max-hosts: NIC endpoints of the fabric
  std::uint64_t max_flows = 100'000'000;        // --max-flows: flows generated or imported
  std::uint64_t max_capture_bytes = 4ULL << 30;  // --max-capture-bytes: one measurement file (--flows, fit's, ...)
  std::uint64_t max_switches = 1'000'000;       // --max-switches: switches of the fabric
  std::uint64_t max_links = 10'000'000;         // --max-links: cables of the fabric (each two directed links)
  std::uint64_t max_scenarios = 100'000;        // --max-scenarios: [[scenario]] tables of a config
  std::uint64_t max_config_bytes = 64ULL << 20;  // --max-config-bytes: the config file
  std::uint64_t max_memory = half_physical_memory();  // --max-memory: the estimated peak (sim/model/memory.h)
};

// "N WHAT, more than the limit of L": the cause in every limit's error.
inline std::string over_limit(std::uint64_t n, const std::string& what, std::uint64_t limit) {
  return std::to_string(n) + " " + what + ", more than the limit of " + std::to_string(limit);
}

// The flags and their help, for every command that loads a config; --help
// shows each default (from Limits) with its unit.
struct LimitFlag {
  const char* key;  // the option key (max_hosts); the command line's --max-hosts
  std::uint64_t Limits::*field;
  const char* doc;
  const char* unit;    // what the number counts ("switches"); "bytes" for a byte size
  bool bytes = false;  // takes a byte size (64M, 4G) rather than a count
};
inline constexpr LimitFlag kLimitFlags[] = {
    {"max_hosts", &Limits::max_hosts, "Refuse fabrics with more NIC endpoints", "NIC endpoints"},
    {"max_flows", &Limits::max_flows, "Refuse workloads or imports with more flows", "flows"},
    {"max_capture_bytes", &Limits::max_capture_bytes,
     "Refuse a larger measurement file (a --flows capture, CSV or rdma dump; fit's observations, hash --tuples, "
     "calibrate's nccl-tests output, report --emulation), a pipe or device stopped there",
     "bytes", true},
    {"max_switches", &Limits::max_switches, "Refuse fabrics with more switches", "switches"},
    {"max_links", &Limits::max_links, "Refuse fabrics with more cables (each two directed links)", "cables"},
    {"max_scenarios", &Limits::max_scenarios, "Refuse configs with more [[scenario]] tables", "[[scenario]] tables"},
    {"max_config_bytes", &Limits::max_config_bytes,
     "Refuse a larger config file (or topology or routes file it names), a pipe or device stopped there", "bytes",
     true},
    {"max_memory", &Limits::max_memory,
     "Refuse, before any allocation, a run or sweep whose estimated peak memory is larger (docs/performance.md); "
     "default half of physical memory",
     "bytes", true},
};

}  // namespace ecmpsim
