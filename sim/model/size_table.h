// nccl-tests' table per message size for each job of a routed scenario:
// the routed fabric gives each job its network bus bandwidth once (its
// channels' max-min fair rates on their traced paths), and every size is
// NCCL's cost arithmetic on it (sim/model/nccl_cost.h). The same arithmetic on
// the job's ideal time gives the ideal fabric's row, hence the slowdown.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "sim/model/flow_model.h"
#include "sim/model/nccl_cost.h"
#include "sim/model/prediction.h"
#include "sim/model/simulation.h"
#include "sim/base/units.h"
#include "workloads/nccl.h"

namespace ecmpsim {

// Lockstep coupling: the flows of one channel of one job (same `job` and
// `channel`) advance together, each at the rate that makes them all finish
// at once, so the channel runs at its slowest connection's pace. Each
// channel is one flow of the max-min model whose path is the union of its
// flows' links, flow f crossing its links with weight bytes_f / (the
// channel's largest flow); channels re-share as others finish, as flows do
// in FlowModel. Returns per job the time its last channel finishes (0 for a
// job with nothing to send, +inf for one cut off). `jobs` sizes the result.
std::vector<Seconds> lockstep_times(const FlowNetwork& net, std::span<const std::uint16_t> job,
                                    std::span<const std::uint16_t> channel, std::size_t jobs);

// lockstep_times for many routings of one flow set (a sweep's variants):
// the flows are grouped into channels once, and the solve reuses its
// buffers, so a solve allocates nothing once the first has sized them.
class LockstepSolver {
 public:
  LockstepSolver() = default;
  LockstepSolver(std::span<const std::uint16_t> job, std::span<const std::uint16_t> channel, std::size_t jobs);
  // lockstep_times(net, job, channel, jobs) for the flows given at construction.
  std::span<const Seconds> solve(const FlowNetwork& net);

 private:
  void append_channel_path(const FlowNetwork& net, std::uint64_t largest);

  std::vector<std::uint32_t> order_;        // flows by (job, channel), each channel in flow order
  std::vector<std::uint32_t> group_begin_;  // per channel + 1, into order_
  std::vector<std::uint16_t> group_job_;    // per channel
  std::vector<std::uint32_t> flows_;
  std::vector<std::uint64_t> bytes_;
  std::vector<std::uint32_t> begin_;
  std::vector<LinkId> links_;
  std::vector<double> weights_;
  std::vector<std::uint32_t> stamp_, slot_;  // per link: the channel that last listed it, and where
  std::uint32_t epoch_ = 0;
  std::vector<std::uint16_t> owner_;
  FlowModel model_;
  FlowTimes times_;
  std::vector<Seconds> out_;
};

// nccl-tests' element type: float, 4 bytes (its default -d float).
inline constexpr std::uint64_t kElementBytes = 4;
inline constexpr const char* kElementType = "float";

// One line of nccl-tests' table, plus NCCL's choice and the slowdown.
struct SizeRow {
  std::uint32_t job = 0;
  Bytes size;                 // as nccl-tests prints it (whole elements, per-rank counts aligned)
  std::uint64_t count = 0;    // elements per rank's buffer, nccl-tests' count column
  double time_us = 0;
  double algbw_gbs = 0;       // size / time, GB/s (1e9 B/s)
  double busbw_gbs = 0;       // algbw x bus factor
  workloads::NcclAlgo algo = workloads::NcclAlgo::Ring;
  workloads::NcclProto proto = workloads::NcclProto::Simple;
  double slowdown = 1;        // time / the same size's time on the ideal fabric
  bool p2p = false;           // send/recv or all-to-all: no NCCL algorithm (printed "p2p")
};

// The algorithm column of a row: NCCL's name, or "p2p".
std::string_view size_algo_name(const SizeRow& row) noexcept;

// nccl-tests' size and count for a requested size: count = size / 4 for
// all-reduce, broadcast, reduce and send/recv; for all-gather,
// reduce-scatter and all-to-all the per-rank count, rounded down to 16 bytes
// (getCollByteCount), and size = count x 4 x ranks.
struct SizeCount {
  Bytes size;
  std::uint64_t count = 0;
};
SizeCount nccl_tests_size(NcclColl coll, std::uint32_t ranks, Bytes requested) noexcept;

// nccl-tests' busbw (GB/s) for `requested` bytes on `comm`, as size_rows
// prints it (NCCL's choice, or the forced algorithm and protocol); nullopt
// when the forced algorithm does not run the collective.
std::optional<double> size_busbw(const NcclComm& comm, BusPattern pattern, Bytes requested,
                                 const workloads::NcclSizes& how) noexcept;

// The communicator size_table prices job `j` with (the hosts' parameters
// in), its net_busbw left 0: size_table sets it to host_goodput(spec) *
// job_net_busbw(...); nullopt when the job asks for no sizes or has no peer.
// InputError at the job's config for a collective NCCL's tuner does not price.
std::optional<NcclComm> size_comm(const Simulation& sim, std::uint32_t j);
// The busbw the network sustains for a job whose network part takes `t`
// (NcclComm::net_busbw): +inf for t = 0.
double job_net_busbw(const JobInfo& info, Seconds t) noexcept;

// The rows of one job: `routed` and `ideal` differ only in net_busbw.
std::vector<SizeRow> size_rows(std::uint32_t job, const NcclComm& routed, const NcclComm& ideal,
                               BusPattern pattern, std::span<const Bytes> sizes, const workloads::NcclSizes& how);

// The hosts as NCCL's tuner sees them ([hosts] with [calibration] over it):
// the intra-node link, its busbw cap (intra_busbw_gbs; else the GPU's NVLinks
// at the release's bandwidth per link, or its PCIe link; without a GPU the
// link's row), the latencies and the CPU's netOverhead.
NcclHost nccl_host(const HostSpec& h, workloads::NcclVersion version = workloads::kDefaultNcclVersion) noexcept;
// The share of the routed line rate that reaches nccl-tests' busbw: the
// RoCEv2 goodput at the path MTU (the fabric's address family picks the IP
// header) times the hosts' nic_efficiency.
double host_goodput(const Spec& spec) noexcept;

// One job as NCCL's tuner sees it on a routed scenario and on the ideal
// fabric (net_busbw already the hosts' goodput), for jobs of two or more
// ranks whose collective the cost model prices.
struct JobComm {
  std::uint32_t job = 0;
  NcclComm routed, ideal;
  BusPattern pattern = BusPattern::AllReduce;
};
std::vector<JobComm> job_comms(const Simulation& sim, const ScenarioResult& r);

// Every job's rows for one scenario, in job order, each job with its own
// sweep (jobs without one have no rows). InputError at the job's config for
// a collective NCCL's tuner does not price (all-to-all, send/recv).
std::vector<SizeRow> size_table(const Simulation& sim, const ScenarioResult& r);

// Whether any job of the spec asks for a size table.
bool wants_sizes(const Spec& spec) noexcept;

}  // namespace ecmpsim
