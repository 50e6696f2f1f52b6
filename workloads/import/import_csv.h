// Flows from a CSV file: a header line naming the columns, then one flow per line.
//
//   src_ip,dst_ip,proto,sport,dport,bytes[,lqpn][,rqpn][,job][,channel][,flow_label]
//
// Columns may come in any order; the six first are required, the others
// optional (0 when absent). Addresses are IPv4 or IPv6, one family per file;
// an IPv6 flow without a flow_label column gets the label the kernel derives
// from its QP pair (rdma_calc_flow_label) when both QP numbers are given. proto is a number 0..255 or "udp"/"tcp"; QP numbers
// are 24-bit, decimal or 0x-hex; bytes >= 1. Blank lines and lines starting
// with '#' are skipped; fields are trimmed of blanks; no quoting.
#pragma once

#include <string>
#include <string_view>

#include "workloads/import/import.h"

namespace ecmpsim::workloads {

// `name` is the file name errors carry: "NAME:LINE:COL: COLUMN: cause".
ImportResult parse_flows_csv(std::string_view bytes, const std::string& name);

}  // namespace ecmpsim::workloads
