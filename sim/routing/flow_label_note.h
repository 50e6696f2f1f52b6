// The small print on generated IPv6 flow labels (issue 34 item 8). A
// generated IPv6 flow carries rdma_calc_flow_label(lqpn, rqpn) as its flow
// label (workloads/roce.cpp), as if its host set that label on the QP. NCCL
// leaves the GRH flow label 0; mlx5 then derives only the UDP source port
// from the QP pair and its packets carry label 0 (docs/ipv6.md). A hash that
// reads the label (the flow-label field, or linux-l3, whose IPv6 key holds
// it) depends on that assumption, so every output routing such flows says so.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "hashing/address.h"
#include "sim/config/spec.h"

namespace ecmpsim {

// The note, or nullopt when no hashing scenario reads the flow label of these
// flows (IPv4; no such hash; planned ports, whose hosts do set the label).
// `algos`, when not empty, replaces each scenario's algorithm as a sweep's
// algorithm axis does (per-tier and per-switch overrides keep theirs).
std::optional<std::string> flow_label_note(const Spec& spec, hashing::Family family,
                                           std::span<const std::string> algos = {});

}  // namespace ecmpsim
