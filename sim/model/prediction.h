// From flow finish times to what users feel: per job (collective) the
// predicted completion time, the ideal time of a perfectly balanced fabric
// with the same capacities, the slowdown and nccl-tests' bus bandwidth.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/model/flow_model.h"
#include "sim/base/units.h"
#include "workloads/flow.h"

namespace ecmpsim {

// The collective patterns nccl-tests reports, each with its bus-bandwidth factor.
enum class BusPattern : std::uint8_t { AllReduce, ReduceScatter, AllGather, AllToAll, SendRecv, Broadcast, Reduce };

// nccl-tests doc/PERFORMANCE.md: busbw = algbw * factor, with n ranks:
// all-reduce 2(n-1)/n; reduce-scatter, all-gather, all-to-all (n-1)/n;
// send/recv, broadcast, reduce 1.
double bus_factor(BusPattern pattern, std::uint32_t ranks);

// What a job (the flows sharing a `job` id) is, for its bus bandwidth.
struct JobInfo {
  std::string name;        // the job's name, for output
  std::string collective;  // as written in output, e.g. "ring-allreduce"
  BusPattern pattern = BusPattern::AllReduce;
  std::uint32_t ranks = 0;
  Bytes message;  // S: the size nccl-tests divides by the time (algbw = S / t)
};

// The ideal time: a lower bound on the completion time that no routing of
// the same flows over the same link capacities can beat, met exactly by a
// perfectly balanced routing.
//
// Cuts come from the node tiers: for every tier k below the top, each
// connected component of the sub-fabric made of the nodes of tier <= k is a
// block (k = host: one NIC; k = leaf: a ToR with its hosts; k = spine in a
// three-tier fabric: a pod). Every byte from inside a block to outside must
// cross the block's outgoing links, every byte from outside to inside its
// incoming links, whatever the routing. So for each block B and direction,
//   time(B) = bytes that must cross / total capacity of the working links crossing,
// and ideal = max over all blocks and both directions (+inf when bytes must
// cross a cut of capacity 0). The NIC links are the k = host cuts.
// A routing that spreads every block's crossing bytes over its boundary in
// proportion to capacity completes in exactly this time when the bottleneck
// cut stays busy to the end (a symmetric collective, all flows finishing
// together), so slowdown = predicted / ideal is >= 1 and is 1 for a
// collective on a perfectly balanced fabric.
class CutBounds {
 public:
  explicit CutBounds(const Fabric& fabric);

  // The ideal time of the flows of one job, or of all flows (job = kAllJobs).
  static constexpr std::uint32_t kAllJobs = ~0u;
  Seconds ideal(const workloads::Flows& flows, std::uint32_t job = kAllJobs) const;

  std::size_t levels() const noexcept { return levels_.size(); }

 private:
  struct Level {
    std::vector<std::uint32_t> block_of;  // per endpoint
    std::vector<double> out_gbps, in_gbps;  // per block
  };
  std::vector<Level> levels_;
};

struct JobPrediction {
  std::uint32_t job = 0;
  Seconds completion;    // the job's last flow finishes
  Seconds ideal;
  double slowdown = 0;   // completion / ideal (1 for a job with nothing to send)
  Gbps algbw;            // S / completion
  Gbps busbw;            // algbw * bus_factor
};

struct Prediction {
  // All flows together: completion is the last finish, ideal the bound of all
  // flows, slowdown their ratio; algbw and busbw are those of the job with the
  // lowest bus bandwidth (the only job when there is one).
  JobPrediction all;
  std::vector<JobPrediction> jobs;  // indexed by job id
  // With several jobs, each job's prediction includes the other jobs'
  // contention on shared links. `alone` (indexed by job id) is each job run
  // alone: its flows on the same paths, the other jobs' flows removed. Empty
  // with one job, where alone and shared are the same run.
  std::vector<JobPrediction> alone;
};

// completion / ideal on a 1e-12 grid (docs/prediction.md), and 1 when there
// is nothing to send (completion 0).
double slowdown_of(Seconds completion, Seconds ideal) noexcept;

// nccl-tests' algbw = S / t and busbw = algbw * bus_factor of a job that
// completes in `completion` (0 for a job that sends nothing). The one formula
// of run's prediction and of every sweep variant.
Gbps algbw_of(const JobInfo& job, Seconds completion) noexcept;
Gbps busbw_of(const JobInfo& job, Seconds completion) noexcept;

// jobs and job_ideal are indexed by job id; all_ideal is the bound of all flows.
Prediction predict(const workloads::Flows& flows, const FlowTimes& times, std::span<const JobInfo> jobs,
                   std::span<const Seconds> job_ideal, Seconds all_ideal);

// Each job alone (Prediction::alone): the flow model on the flows of one job
// at a time, each on its path in `net` (which holds every flow).
std::vector<JobPrediction> predict_alone(const workloads::Flows& flows, const FlowNetwork& net,
                                         std::span<const JobInfo> jobs, std::span<const Seconds> job_ideal);

}  // namespace ecmpsim
