// The size table: one routed bandwidth per job, then NCCL's arithmetic per size.
#include "sim/model/size_table.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "sim/base/error.h"
#include "sim/model/nccl_derive.h"
#include "sim/model/nccl_tuning.h"
#include "workloads/generators/job.h"
#include "workloads/generators/nccl_topo.h"
#include "workloads/gpu.h"
#include "workloads/roce.h"

namespace ecmpsim {

namespace {

// nccl-tests' algbw: size / time, GB/s.
double algbw_gbs(Bytes size, const NcclChoice& c) noexcept {
  return c.time_us > 0 ? static_cast<double>(size.value) / (c.time_us * 1e3) : 0;
}

std::optional<NcclColl> nccl_coll(workloads::Collective c) noexcept {
  switch (workloads::collective_info(c).op) {
    case workloads::CollectiveOp::AllReduce: return NcclColl::AllReduce;
    case workloads::CollectiveOp::AllGather: return NcclColl::AllGather;
    case workloads::CollectiveOp::ReduceScatter: return NcclColl::ReduceScatter;
    case workloads::CollectiveOp::Broadcast: return NcclColl::Broadcast;
    case workloads::CollectiveOp::Reduce: return NcclColl::Reduce;
    case workloads::CollectiveOp::AllToAll: return NcclColl::AllToAll;
    case workloads::CollectiveOp::SendRecv: return NcclColl::SendRecv;
  }
  return std::nullopt;
}

}  // namespace

std::string_view size_algo_name(const SizeRow& row) noexcept {
  return row.p2p ? std::string_view("p2p") : name_of(workloads::kNcclAlgos, row.algo);
}

double job_net_busbw(const JobInfo& info, Seconds t) noexcept {
  if (t.value <= 0) return std::numeric_limits<double>::infinity();
  return static_cast<double>(info.message.value) * bus_factor(info.pattern, info.ranks) / t.value * 1e-9;
}

std::vector<Seconds> lockstep_times(const FlowNetwork& net, std::span<const std::uint16_t> job,
                                    std::span<const std::uint16_t> channel, std::size_t jobs) {
  LockstepSolver solver(job, channel, jobs);
  const auto t = solver.solve(net);
  return {t.begin(), t.end()};
}

LockstepSolver::LockstepSolver(std::span<const std::uint16_t> job, std::span<const std::uint16_t> channel,
                               std::size_t jobs)
    : out_(jobs) {
  order_.resize(job.size());
  for (std::uint32_t f = 0; f < order_.size(); ++f) order_[f] = f;
  std::stable_sort(order_.begin(), order_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return std::pair{job[a], channel[a]} < std::pair{job[b], channel[b]};
  });
  for (std::uint32_t i = 0; i < order_.size(); ++i) {
    const std::uint32_t f = order_[i];
    if (i == 0 || job[f] != job[order_[i - 1]] || channel[f] != channel[order_[i - 1]]) {
      group_begin_.push_back(i);
      group_job_.push_back(job[f]);
    }
  }
  group_begin_.push_back(static_cast<std::uint32_t>(order_.size()));
}

// The links one channel (flows_) crosses, each once, in first-crossed order,
// with its flows' weights summed: a stamp per link marks the links this
// channel has already listed, so a channel costs one pass over its hops (a
// sort of the hops cost as much again as routing them, bench/RESULTS.md).
void LockstepSolver::append_channel_path(const FlowNetwork& net, std::uint64_t largest) {
  if (++epoch_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    epoch_ = 1;
  }
  for (const std::uint32_t f : flows_) {
    const double w = static_cast<double>(net.bytes[f]) / static_cast<double>(largest);
    for (std::uint32_t i = net.path_begin[f]; i < net.path_begin[f + 1]; ++i) {
      const LinkId l = net.path_links[i];
      const double x = w * (net.fraction.empty() ? 1.0 : net.fraction[i]);
      if (stamp_[l] == epoch_) {
        weights_[slot_[l]] += x;
        continue;
      }
      stamp_[l] = epoch_;
      slot_[l] = static_cast<std::uint32_t>(links_.size());
      links_.push_back(l);
      weights_.push_back(x);
    }
  }
}

std::span<const Seconds> LockstepSolver::solve(const FlowNetwork& net) {
  if (stamp_.size() < net.capacity.size()) {
    stamp_.assign(net.capacity.size(), 0u);
    slot_.resize(net.capacity.size());
    epoch_ = 0;
  }
  bytes_.clear();
  begin_.assign(1, 0);
  links_.clear();
  weights_.clear();
  owner_.clear();
  for (std::size_t g = 0; g + 1 < group_begin_.size(); ++g) {
    flows_.clear();
    for (std::uint32_t i = group_begin_[g]; i < group_begin_[g + 1]; ++i) {
      const std::uint32_t f = order_[i];
      if (net.bytes[f] > 0 && net.path_begin[f + 1] > net.path_begin[f]) flows_.push_back(f);
    }
    if (flows_.empty()) continue;
    std::uint64_t largest = 0;
    for (const std::uint32_t f : flows_) largest = std::max(largest, net.bytes[f]);
    append_channel_path(net, largest);
    bytes_.push_back(largest);
    begin_.push_back(static_cast<std::uint32_t>(links_.size()));
    owner_.push_back(group_job_[g]);
  }
  model_.run({net.capacity, bytes_, begin_, links_, weights_}, times_);
  std::fill(out_.begin(), out_.end(), Seconds{0});
  for (std::size_t c = 0; c < owner_.size(); ++c)
    if (owner_[c] < out_.size()) out_[owner_[c]] = std::max(out_[owner_[c]], times_.finish[c]);
  return out_;
}

SizeCount nccl_tests_size(NcclColl coll, std::uint32_t ranks, Bytes requested) noexcept {
  const std::uint64_t count = requested.value / kElementBytes;
  if ((coll != NcclColl::AllGather && coll != NcclColl::ReduceScatter && coll != NcclColl::AllToAll) || ranks == 0)
    return {Bytes{count * kElementBytes}, count};
  const std::uint64_t per_rank = (count / ranks) & ~(16 / kElementBytes - 1);
  return {Bytes{per_rank * kElementBytes * ranks}, per_rank};
}

std::optional<double> size_busbw(const NcclComm& comm, BusPattern pattern, Bytes requested,
                                 const workloads::NcclSizes& how) noexcept {
  const SizeCount sc = nccl_tests_size(comm.coll, comm.ranks, requested);
  const auto got = nccl_choose(comm, sc.size.value, how.algo, how.proto);
  if (!got) return std::nullopt;
  return algbw_gbs(sc.size, *got) * bus_factor(pattern, comm.ranks);
}

std::vector<SizeRow> size_rows(std::uint32_t job, const NcclComm& routed, const NcclComm& ideal, BusPattern pattern,
                               std::span<const Bytes> sizes, const workloads::NcclSizes& how) {
  std::vector<SizeRow> out;
  for (const Bytes requested : sizes) {
    const SizeCount sc = nccl_tests_size(routed.coll, routed.ranks, requested);
    const auto got = nccl_choose(routed, sc.size.value, how.algo, how.proto);
    const auto best = nccl_choose(ideal, sc.size.value, how.algo, how.proto);
    if (!got || !best) continue;
    SizeRow row{job, sc.size, sc.count, got->time_us, 0, 0, got->algo, got->proto, 1, nccl_p2p(routed.coll)};
    row.algbw_gbs = algbw_gbs(sc.size, *got);
    row.busbw_gbs = row.algbw_gbs * bus_factor(pattern, routed.ranks);
    row.slowdown = slowdown_of(Seconds{got->time_us * 1e-6}, Seconds{best->time_us * 1e-6});
    out.push_back(row);
  }
  return out;
}

bool wants_sizes(const Spec& spec) noexcept {
  return std::any_of(spec.jobs.begin(), spec.jobs.end(), [](const JobSpec& j) { return j.nccl.sweep.enabled(); });
}

NcclHost nccl_host(const HostSpec& h, workloads::NcclVersion version) noexcept {
  double cap = workloads::kIntraLinks[static_cast<std::size_t>(h.intra)].busbw;
  if (h.gpu) {
    // The GPU's NVLinks at NCCL's bandwidth per link for the release, or its PCIe link.
    const workloads::GpuProfile& g = workloads::gpu_profile(*h.gpu);
    cap = h.intra == workloads::IntraLink::NVLink && g.nvlinks > 0
              ? g.nvlinks * workloads::nccl_nvlink_bw(g.sm, version)
              : workloads::nccl_pcie_bw(h.pcie_gen ? h.pcie_gen : g.pcie_gen);
  }
  if (h.intra_busbw > 0) cap = h.intra_busbw;
  const workloads::Cpu cpu =
      h.cpu ? *h.cpu : h.gpu && workloads::gpu_profile(*h.gpu).c2c_gbs > 0 ? workloads::Cpu::Arm : workloads::Cpu::Intel;
  const double overhead =
      h.net_overhead_us >= 0 ? h.net_overhead_us : workloads::kCpus[static_cast<std::size_t>(cpu)].net_overhead_us;
  return {h.intra, cap, overhead, h.net_latency_us, cpu == workloads::Cpu::Amd, cpu != workloads::Cpu::Arm};
}

double host_goodput(const Spec& spec) noexcept {
  const bool v6 = !spec.fabric.address_base.is_v4();
  return workloads::roce_goodput_fraction(spec.hosts.roce_mtu, v6) * spec.hosts.nic_efficiency;
}

namespace {

// A job that asks for sizes must name a release the tuner tables cover.
void require_priced(const JobSpec& js) {
  if (js.nccl.sweep.enabled() && !nccl_tuning(js.nccl_version))
    throw InputError(js.where, "sizes: NCCL's tuner is modelled from release 2.18.1 on, not " +
                                   workloads::nccl_version_text(js.nccl_version));
}

// What the GPU adds (NcclHardware), its networks still unset.
std::optional<NcclHardware> hardware_of(const Spec& spec, const JobSpec& js) {
  if (!spec.hosts.gpu || !js.graphs) return std::nullopt;
  const workloads::GpuProfile& g = workloads::gpu_profile(*spec.hosts.gpu);
  const bool nvlink = spec.hosts.intra == workloads::IntraLink::NVLink;
  const std::uint32_t gpus = nccl_node_gpus(spec.fabric, js);
  NcclHardware hw;
  hw.sm = g.sm;
  hw.nvswitch = nvlink && g.nvswitch_gen > 0;
  // NVLS: NVSwitch gen 3 (multicast) on Hopper or later, more than 2 GPUs (2 from 2.28).
  const std::uint32_t min_gpus = js.nccl_version >= workloads::NcclVersion{2, 28, 0} ? 2 : 3;
  hw.nvls = js.nvls && nvlink && g.nvswitch_gen >= 3 && g.sm >= 90 && gpus >= min_gpus;
  hw.collnet = js.collnet && spec.fabric.sharp;
  hw.pat = js.pat;
  hw.ring_pxn = js.graphs->ring.pxn;
  hw.nvls_channels = js.graphs->nvls.channels;
  hw.nvls_bw_intra = js.graphs->nvls.bw_intra;
  const auto order = workloads::search_nic_order(spec.fabric.gpu_nics, spec.fabric.gpus_per_node, spec.fabric.nics_per_node);
  hw.heads = std::max<std::uint32_t>(1, std::min<std::uint32_t>(static_cast<std::uint32_t>(order.size()) * js.node_servers, gpus));
  return hw;
}

// The communicator NCCL's tuner sees for job `js`, its networks left 0.
NcclComm comm_of(const Spec& spec, const JobSpec& js, const JobInfo& info, NcclColl coll) {
  NcclComm c{coll, info.ranks, info.ranks / std::max(1u, nccl_node_gpus(spec.fabric, js)),
             js.search_channels != 0 ? js.search_channels : workloads::default_search_channels(js.channels),
             js.channels, 0, nccl_host(spec.hosts, js.nccl_version)};
  c.version = js.nccl_version;
  c.hw = hardware_of(spec, js);
  return c;
}

// The NICs' aggregate rate of a node under SHARP (GB/s, goodput in): its
// CollNet heads at line rate, reduced in the switches, hashed nowhere.
double sharp_rate(const JobSpec& js, const NcclHardware& hw, double goodput) {
  return goodput * hw.heads * js.graphs->nic_gbps / 8.0;
}

// The rates of the networks the tuner's algorithms run on: rings on the
// job's ring flows, trees on its tree flows (whichever of the two the job
// does not run is routed here, beside the other jobs), SHARP on the NICs.
void set_networks(const Simulation& sim, const ScenarioResult& r, const JobSpec& js, std::uint32_t j, NcclComm& c,
                  double goodput) {
  if (!c.hw) return;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  c.hw->sharp_net = c.nodes > 1 ? sharp_rate(js, *c.hw, goodput) : kInf;
  if (c.nodes <= 1 || c.coll != NcclColl::AllReduce) return;
  const bool lock = js.nccl.coupling == workloads::ChannelCoupling::Lockstep;
  const auto rate = [&](const Simulation::ShapeTime& t) {
    return t.time.value > 0 ? goodput * static_cast<double>(t.node_bytes) / t.time.value * 1e-9 : kInf;
  };
  if (workloads::collective_info(js.collective).shape == workloads::CollectiveShape::Tree) {
    const auto ring = sim.job_shape_time(j, workloads::Collective::RingAllReduce, *r.spec, lock);
    c.hw->tree_net = rate(sim.job_shape_time(j, workloads::Collective::TreeAllReduce, *r.spec, lock));
    c.net_busbw = ring.time.value > 0 ? goodput * job_net_busbw(sim.jobs()[j], ring.time) : kInf;
    return;
  }
  c.hw->tree_net = rate(sim.job_shape_time(j, workloads::Collective::TreeAllReduce, *r.spec, lock));
}

}  // namespace

std::optional<NcclComm> size_comm(const Simulation& sim, std::uint32_t j) {
  const Spec& spec = sim.spec();
  const JobSpec& js = spec.jobs[j];
  if (!js.nccl.sweep.enabled()) return std::nullopt;
  require_priced(js);
  const JobInfo& info = sim.jobs()[j];
  if (info.ranks < 2) return std::nullopt;  // no peer: nothing for NCCL to time
  NcclComm c = comm_of(spec, js, info, *nccl_coll(js.collective));
  if (c.hw && c.nodes > 1) c.hw->sharp_net = sharp_rate(js, *c.hw, host_goodput(spec));
  return c;
}

std::vector<JobComm> job_comms(const Simulation& sim, const ScenarioResult& r) {
  const Spec& spec = sim.spec();
  std::vector<Gbps> capacity = sim.capacity();
  for (LinkId l = 0; l < capacity.size(); ++l)
    if (r.is_down(l)) capacity[l] = Gbps{0};
  const FlowNetwork net{capacity, sim.flows().bytes, r.trace.path_begin, r.trace.path_links, r.trace.split_fraction};
  const std::vector<Seconds> lockstep = lockstep_times(net, sim.flows().job, sim.flows().channel, sim.jobs().size());
  const double goodput = host_goodput(spec);
  std::vector<JobComm> out;
  for (std::uint32_t j = 0; j < spec.jobs.size() && j < sim.jobs().size(); ++j) {
    const JobSpec& js = spec.jobs[j];
    const auto coll = nccl_coll(js.collective);
    const JobInfo& info = sim.jobs()[j];
    if (!coll || info.ranks < 2) continue;  // no peer: nothing for NCCL to time
    const bool lock = js.nccl.coupling == workloads::ChannelCoupling::Lockstep;
    NcclComm routed = comm_of(spec, js, info, *coll);
    NcclComm ideal = routed;
    const Seconds own = lock ? lockstep[j] : r.predicted.jobs[j].completion;
    routed.net_busbw = goodput * job_net_busbw(info, own);
    ideal.net_busbw = goodput * job_net_busbw(info, sim.job_ideal()[j]);
    JobComm jc{j, routed, ideal, info.pattern};
    if (jc.routed.hw && js.nccl.sweep.enabled()) {
      set_networks(sim, r, js, j, jc.routed, goodput);
      // The ideal fabric (the job's cut bound) gives every shape the ring's rate there.
      jc.ideal.hw->sharp_net = jc.routed.hw->sharp_net;
      jc.ideal.hw->tree_net = jc.routed.nodes > 1 ? ideal.net_busbw : jc.routed.hw->tree_net;
    }
    out.push_back(jc);
  }
  return out;
}

std::vector<SizeRow> size_table(const Simulation& sim, const ScenarioResult& r) {
  const Spec& spec = sim.spec();
  for (const JobSpec& js : spec.jobs) require_priced(js);
  std::vector<SizeRow> out;
  for (const JobComm& jc : job_comms(sim, r)) {
    const JobSpec& js = spec.jobs[jc.job];
    if (!js.nccl.sweep.enabled()) continue;
    std::vector<Bytes> sizes;
    for (const std::uint64_t b : workloads::sweep_sizes(js.nccl.sweep)) sizes.push_back(Bytes{b});
    const auto rows = size_rows(jc.job, jc.routed, jc.ideal, jc.pattern, sizes, js.nccl);
    if (rows.empty() && !sizes.empty() && (js.nccl.algo || js.nccl.proto))
      throw InputError(js.where, "NCCL offers no " +
                                     (js.nccl.algo ? std::string(name_of(workloads::kNcclAlgos, *js.nccl.algo)) : "") +
                                     (js.nccl.algo && js.nccl.proto ? "/" : "") +
                                     (js.nccl.proto ? std::string(name_of(workloads::kNcclProtos, *js.nccl.proto)) : "") +
                                     " for " + std::string(workloads::collective_name(js.collective)) +
                                     " on this job's GPU, nodes and release (docs/prediction.md, \"Every algorithm "
                                     "and its network\")");
    out.insert(out.end(), rows.begin(), rows.end());
  }
  return out;
}

}  // namespace ecmpsim
