// NCCL's choices derived from the hardware (issue 44 item 2): for every job
// of a spec whose [hosts] gpu names the GPU, the node NCCL's topology search
// sees (the GPU's NVLinks and PCIe link, the NICs' speed, PCIe link and
// locality, the job's NCCL_* settings), the graphs that search finds and the
// channels the communicator runs (workloads/generators/nccl_search.h). The
// simulation resolves them once, before it generates the flows; a channel
// count the config gives still wins. docs/prediction.md, "Channels from the
// hardware".
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/config/spec.h"
#include "sim/fabric/fabric.h"
#include "workloads/generators/job.h"
#include "workloads/generators/nccl_search.h"

namespace ecmpsim {

// Fabric nodes per multi-node NVLink domain (nvlink_domain / gpus_per_node;
// 1 without domains): domain d holds nodes d x that to (d + 1) x that - 1.
std::uint32_t domain_servers(const FabricSpec& f) noexcept;

// The GPUs NCCL treats as one node of job `job`: a node's, or (MNNVL) the
// job's GPUs in one NVLink domain.
std::uint32_t nccl_node_gpus(const FabricSpec& f, const JobSpec& job) noexcept;

// How many of the job's nodes share each NVLink domain (1 without domains).
// InputError when the job's nodes of a domain are not consecutive ranks or
// its domains do not hold alike numbers of them (NCCL's nodes, the MNNVL
// cliques, must be alike).
std::uint32_t servers_per_nccl_node(const Spec& spec, const JobSpec& job, const Fabric& fabric,
                                    std::span<const std::uint32_t> servers);

// The node of job `job` as NCCL's search sees it: `nic_gbps` is its NICs'
// line rate. Meaningful only with spec.hosts.gpu set.
workloads::NcclNode nccl_node(const Spec& spec, const JobSpec& job, double nic_gbps);

// Sets every job's node_servers and, with spec.hosts.gpu, derives its graphs,
// channels, search channels and ring crossNic (those the config gives are
// kept) for jobs on `servers[j]` (rank order). InputError at the job for a
// release before the search model (2.18.3).
void derive_nccl(Spec& spec, const Fabric& fabric, std::span<const std::vector<std::uint32_t>> servers);

// One line per job whose channels were derived: "job 'x' (H100, NCCL
// 2.23.4): 16 channels: 8 search channels of 400 Gb/s NICs ..., doubled".
std::vector<std::string> nccl_notes(const Spec& spec);

// The generator's parameters of job `job` run as collective `shape` (its
// own, or another whose traffic the size table prices).
workloads::CollectiveParams collective_params(const JobSpec& job, workloads::Collective shape);

// The job's layout on its servers: each server a node, or with nvlink_domain
// the job's servers in each domain one node holding their GPUs and NICs
// (MNNVL); then only traffic between domains makes flows. InputError as
// servers_per_nccl_node.
workloads::JobLayout job_layout(const Spec& spec, const JobSpec& job, const Fabric& fabric,
                                std::span<const std::uint32_t> servers);

}  // namespace ecmpsim
