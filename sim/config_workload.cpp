#include "sim/config_sections.h"

namespace ecmpsim::config {
namespace {

std::optional<Collective> parse_collective(std::string_view s) {
  if (s == "ring-allreduce") return Collective::RingAllReduce;
  return std::nullopt;
}
std::string_view collective_name(Collective) { return "ring-allreduce"; }
std::optional<SportModel> parse_sport(std::string_view s) {
  if (s == "kernel") return SportModel::Kernel;
  if (s == "range") return SportModel::Range;
  return std::nullopt;
}
std::string_view sport_name(SportModel m) { return m == SportModel::Kernel ? "kernel" : "range"; }
}  // namespace

const std::vector<Knob<WorkloadSpec>>& workload_knobs() {
  static const std::vector<Knob<WorkloadSpec>> k{
      enum_knob<WorkloadSpec, Collective>("collective", "\"ring-allreduce\"",
                                          "The NCCL collective the job runs.",
                                          [](auto& s) -> auto& { return s.collective; }, parse_collective,
                                          collective_name),
      uint_knob<WorkloadSpec>("nodes", "Nodes (one NIC each) in the job; 0 = every endpoint of the fabric.", 0,
                              1u << 24, [](auto& s) -> auto& { return s.nodes; }),
      enum_knob<WorkloadSpec, workloads::Placement>(
          "placement", "\"contiguous\" | \"strided\" | \"random\"",
          "Rank order over endpoints: fill each leaf in turn, round-robin across leaves, or a seeded shuffle.",
          [](auto& s) -> auto& { return s.placement; }, workloads::parse_placement, workloads::placement_name),
      uint_knob<WorkloadSpec>("placement_seed", "Seed of the \"random\" placement's shuffle (SplitMix64).", 0,
                              ~0ULL >> 1, [](auto& s) -> auto& { return s.placement_seed; }),
      bytes_knob<WorkloadSpec>("message_bytes", "All-reduce buffer size S (bytes, or \"256MiB\", \"1GiB\").",
                               [](auto& s) -> auto& { return s.message; }),
      uint_knob<WorkloadSpec>("channels", "NCCL channels (rings); each has its own connections.", 1, 1024,
                              [](auto& s) -> auto& { return s.channels; }),
      uint_knob<WorkloadSpec>("qps_per_connection", "NCCL_IB_QPS_PER_CONNECTION: RC QPs per connection.", 1,
                              128, [](auto& s) -> auto& { return s.qps_per_connection; }),
      uint_knob<WorkloadSpec>("qpn_base", "First QP number each NIC allocates (24-bit).", 0, 0xFFFFFF,
                              [](auto& s) -> auto& { return s.qpn_base; }),
      uint_knob<WorkloadSpec>("qpn_stride", "Step between QP numbers allocated on one NIC.", 1, 0xFFFFFF,
                              [](auto& s) -> auto& { return s.qpn_stride; }),
      enum_knob<WorkloadSpec, SportModel>(
          "sport", "\"kernel\" | \"range\"",
          "UDP source port: the Linux/mlx5 formula from the QP pair, or sport_base + the flow's index among "
          "its source NIC's flows.",
          [](auto& s) -> auto& { return s.sport; }, parse_sport, sport_name),
      uint_knob<WorkloadSpec>("sport_base", "First source port of the \"range\" model.", 0, 0xFFFF,
                              [](auto& s) -> auto& { return s.sport_base; }),
  };
  return k;
}

}  // namespace ecmpsim::config
