// RoCEv2 flows from the QP tables of the hosts of a job: the JSON that
// `rdma resource show qp -j` (iproute2, rdma/res-qp.c) prints on each host,
// plus a map from (host, RDMA device) to the device's IP address.
//
// The map is CSV with a header line `host,ifname,ip`: `host` names a dump (its
// name as given, its file name, or its file name without the extension:
// "dumps/node7.json", "node7.json" or "node7"), `ifname` the RDMA device as
// rdma prints it ("mlx5_0"), `ip` its IPv4 address.
//
// Each RC QP in state RTS is one flow from its device's address to its
// partner's: the QP on another dump, or another device, whose lqpn is this
// QP's rqpn and whose rqpn is this QP's lqpn. The source port is the kernel's
// for the pair (linux_roce_sport(lqpn, rqpn)), the destination port 4791,
// and the bytes `flow_bytes` (rdma shows no traffic counts). Other QPs (UD,
// GSI, not yet or no longer in RTS) are skipped and counted in a note.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "workloads/import.h"

namespace ecmpsim::workloads {

struct RdmaDump {
  std::string name;       // for messages and for matching the map's `host`
  std::string_view text;  // the JSON
};

struct RdmaOptions {
  std::uint64_t flow_bytes = 1;
  // Skip a QP whose partner is in none of the dumps (counted in a note)
  // instead of failing.
  bool allow_unpaired = false;
};

ImportResult parse_rdma(std::span<const RdmaDump> dumps, std::string_view map, const std::string& map_name,
                        const RdmaOptions& options);

}  // namespace ecmpsim::workloads
