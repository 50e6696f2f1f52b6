// RoCEv2 flows from the QP tables of the hosts of a job: what `rdma resource
// show qp` (iproute2, rdma/res-qp.c) prints on each host, as JSON (-j) or as
// the text people paste (import_rdma_text.h), plus a map from (host, RDMA
// device) to the device's IP address.
//
// The map is CSV with a header line `host,ifname,ip`: `host` names a dump (its
// name as given, its file name, or its file name without the extension:
// "dumps/node7.json", "node7.json" or "node7"), `ifname` the RDMA device as
// rdma prints it ("mlx5_0"), `ip` its IPv4 or IPv6 address (the address its
// RoCEv2 GID carries; one family per map). IPv6 flows carry the flow label
// the kernel derives from the QP pair (rdma_calc_flow_label).
//
// Each RC QP in state RTS is one flow from its device's address to its
// partner's: the QP on another dump, or another device, whose lqpn is this
// QP's rqpn and whose rqpn is this QP's lqpn. The source port is the kernel's
// for the pair (linux_roce_sport(lqpn, rqpn), the same both ways), the
// destination port 4791. A pair is one RC connection, so its traffic is
// counted once: `flow_bytes` is what the pair carries, split evenly over its
// two directions (each QP's flow carries half). rdma shows no byte counters
// and nothing that tells the QP that sends data from the one that answers (an
// NCCL connection's sender and receiver QPs look alike; their PSNs start at 0
// but wrap every 2^24 packets), so the split cannot follow the data. Other QPs
// (UD, GSI, not yet or no longer in RTS) are skipped and counted in a note.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "workloads/import/import.h"

namespace ecmpsim::workloads {

// `dumps` are the hosts' dumps; `options.map` the map, `options.flow_bytes`
// what each QP pair carries (half each way), `options.allow_unpaired` skips
// (and counts in a note) a QP whose partner is in none of the dumps instead
// of failing.
ImportResult parse_rdma(std::span<const ImportFile> dumps, const ImportOptions& options);

// Whether `head`, the first bytes of a file, is a dump: text whose first line
// that is not blank is `link DEV/PORT ...` or a shell prompt running rdma
// (rdma_text_head), or JSON whose first object, inside arrays only, has the
// keys ifname and lqpn, as every QP rdma -j prints has (one array of QPs, or
// one array per device). Other JSON (an object at the top, an array of
// anything else) is not, whatever the file is called.
bool is_rdma_dump(std::string_view head) noexcept;

}  // namespace ecmpsim::workloads
