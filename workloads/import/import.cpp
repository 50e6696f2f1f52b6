#include "workloads/import/import.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "sim/base/csv_reader.h"
#include "workloads/import/import_rdma_text.h"

namespace ecmpsim::workloads {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) noexcept {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The text `rdma resource show qp` prints: its first line that is not blank
// starts "link DEV/PORT" (a CSV flows file starts with its header,
// src_ip,...), or is the shell prompt that ran rdma, as pasted
// ("root@host:~# rdma res show qp"; rdma_prompt).
bool rdma_text(std::string_view head) noexcept {
  while (!head.empty()) {
    std::string_view line = take_line(head);
    line.remove_prefix(std::min(line.size(), line.find_first_not_of(" \t\r")));
    if (line.empty()) continue;
    return line.starts_with("link ") || rdma_prompt(line);
  }
  return false;
}

}  // namespace

FlowsFormat detect_flows_format(std::string_view head, std::string_view name) noexcept {
  if (head.size() >= 4) {
    // pcap magic 0xa1b2c3d4 (µs) or 0xa1b23c4d (ns), written in either byte
    // order; pcapng's Section Header Block type 0x0a0d0d0a is a palindrome.
    static constexpr std::array<std::array<unsigned char, 4>, 5> kMagics{{{0xa1, 0xb2, 0xc3, 0xd4},
                                                                          {0xd4, 0xc3, 0xb2, 0xa1},
                                                                          {0xa1, 0xb2, 0x3c, 0x4d},
                                                                          {0x4d, 0x3c, 0xb2, 0xa1},
                                                                          {0x0a, 0x0d, 0x0d, 0x0a}}};
    for (const auto& m : kMagics)
      if (std::memcmp(head.data(), m.data(), 4) == 0) return FlowsFormat::Pcap;
  }
  if (rdma_text(head)) return FlowsFormat::Rdma;
  for (char c : head) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (c == '[' || c == '{') return FlowsFormat::Rdma;
    break;
  }
  if (ends_with(name, ".pcap") || ends_with(name, ".pcapng") || ends_with(name, ".cap")) return FlowsFormat::Pcap;
  if (ends_with(name, ".json")) return FlowsFormat::Rdma;
  return FlowsFormat::Csv;
}

}  // namespace ecmpsim::workloads
