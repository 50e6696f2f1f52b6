// One collective's flows from the generators alone, with no fabric or config:
// `nodes` nodes of `nics` NICs each, node n's NIC k being endpoint n*nics + k,
// every endpoint at one placeholder address. The workload tests (collectives,
// trees, GPU-NIC locality) work their expected flows by hand on this layout.
#pragma once

#include <cstdint>
#include <vector>

#include "workloads/generators/job.h"

namespace ecmpsim::test_support {

inline workloads::Flows synthetic_flows(const workloads::CollectiveParams& p, std::uint32_t nodes,
                                        std::uint32_t gpus, std::uint32_t nics,
                                        const workloads::GpuNicMap& map = {}, std::uint16_t job = 0) {
  workloads::JobLayout layout{gpus, nics, {}, map};
  for (std::uint32_t e = 0; e < nodes * nics; ++e) layout.nics.push_back(e);
  const std::vector<hashing::IpAddr> ips(nodes * nics, hashing::IpAddr(1u));
  const workloads::RoceParams roce;
  workloads::QpnAllocator qpns(ips.size(), roce);
  workloads::FlowMaker maker(roce, qpns, ips, job, p.collective);
  workloads::Flows out;
  workloads::generate(p, layout, maker, out);
  return out;
}

}  // namespace ecmpsim::test_support
