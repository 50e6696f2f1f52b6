// Resource limits: an input past one of these is refused with an error naming
// the flag that raises it, instead of exhausting the machine's memory.
#pragma once

#include <cstdint>
#include <string>

namespace ecmpsim {

struct Limits {
  std::uint64_t max_hosts = 1'000'000;          // --max-hosts: NIC endpoints of the fabric
  std::uint64_t max_flows = 100'000'000;        // --max-flows: flows generated or imported
  std::uint64_t max_capture_bytes = 4ULL << 30;  // --max-capture-bytes: one --flows file (capture, CSV, dump)
};

// "N WHAT, more than the limit of L": the cause in every limit's error.
inline std::string over_limit(std::uint64_t n, const std::string& what, std::uint64_t limit) {
  return std::to_string(n) + " " + what + ", more than the limit of " + std::to_string(limit);
}

// The flags, their defaults and their help, for every command that loads a config.
struct LimitFlag {
  const char* flag;
  std::uint64_t Limits::*field;
  const char* doc;
  const char* default_text;  // as --help shows it
};
inline constexpr LimitFlag kLimitFlags[] = {
    {"--max-hosts", &Limits::max_hosts, "Refuse fabrics with more NIC endpoints", "1000000"},
    {"--max-flows", &Limits::max_flows, "Refuse workloads or imports with more flows", "100000000"},
    {"--max-capture-bytes", &Limits::max_capture_bytes, "Refuse a larger --flows file (pcap/pcapng capture, CSV, rdma dump)",
     "4G"},
};

}  // namespace ecmpsim
