#include "sim/config/config_sections.h"

namespace ecmpsim::config {

const std::vector<Knob<JobSpec>>& job_knobs() {
  using namespace workloads;
  static const std::vector<Knob<JobSpec>> k{
      {"name", "string", "Job name, unique; shown with each flow. Default \"jobI\" for the I-th job.",
       [](const toml::node& n, JobSpec& s, const SourcePos& at) {
         s.name = expect_name(n, at);
       },
       nullptr},
      enum_knob<JobSpec>("collective", "The NCCL collective the job runs.", kCollectives,
                         [](auto& s) -> auto& { return s.collective; }),
      enum_knob<JobSpec>("kind", "What the job runs: one collective, or one training step's collectives.", kJobKinds,
                         [](auto& s) -> auto& { return s.kind; }),
      uint_knob<JobSpec>("tp", "Training: tensor-parallel size.", 1, 1u << 20,
                         [](auto& s) -> auto& { return s.training.tp; }),
      uint_knob<JobSpec>("pp", "Training: pipeline-parallel stages.", 1, 1u << 20,
                         [](auto& s) -> auto& { return s.training.pp; }),
      uint_knob<JobSpec>("dp", "Training: data-parallel size (tp x pp x dp ranks).", 1, 1u << 20,
                         [](auto& s) -> auto& { return s.training.dp; }),
      uint_knob<JobSpec>("ep", "Training: expert-parallel size (divides dp; with experts).", 1, 1u << 20,
                         [](auto& s) -> auto& { return s.training.ep; }),
      uint_knob<JobSpec>("layers", "Training: transformer layers (a multiple of pp).", 1, 1u << 20,
                         [](auto& s) -> auto& { return s.training.layers; }),
      uint_knob<JobSpec>("hidden", "Training: hidden size h.", 1, 1u << 24,
                         [](auto& s) -> auto& { return s.training.hidden; }),
      uint_knob<JobSpec>("seq_len", "Training: tokens per microbatch (one sequence).", 1, 1u << 24,
                         [](auto& s) -> auto& { return s.training.seq_len; }),
      uint_knob<JobSpec>("microbatches", "Training: microbatches per step and pipeline.", 1, 1u << 20,
                         [](auto& s) -> auto& { return s.training.microbatches; }),
      enum_knob<JobSpec>("dtype", "Training: the element type of activations and gradients.", kTrainingDtypes,
                         [](auto& s) -> auto& { return s.training.dtype; }),
      uint_knob<JobSpec>("experts", "Training: experts per MoE layer (0: dense; every layer's MLP, top-1 routed).",
                         0, 1u << 20, [](auto& s) -> auto& { return s.training.experts; }),
      uint_knob<JobSpec>("nodes", "Nodes in the job; 0 = every node no earlier job took (or the hosts list).", 0,
                         1u << 24, [](auto& s) -> auto& { return s.nodes; }),
      enum_knob<JobSpec>("placement",
                         "Node order: fabric order, round-robin across leaves, a seeded shuffle, or the hosts list.",
                         kPlacements, [](auto& s) -> auto& { return s.placement; }),
      {"hosts", "array of strings", "Explicit node names in rank order (\"host3\", or \"node3\" with several NICs per node); implies placement \"list\".",
       [](const toml::node& n, JobSpec& s, const SourcePos& at) {
         const auto* arr = n.as_array();
         if (!arr || arr->empty()) throw InputError(at, "expected a non-empty array of node names");
         for (const auto& e : *arr) {
           const auto v = e.value<std::string>();
           if (!e.is_string() || !v) throw InputError(at, "expected node names (strings)");
           s.hosts.push_back(*v);
         }
       },
       nullptr},
      uint_knob<JobSpec>("seed", "Seed of the job's random placement, QP numbers and source ports.", 0,
                         0x7FFFFFFFFFFFFFFFull, [](auto& s) -> auto& { return s.seed; }),
      bytes_knob<JobSpec>("message_bytes",
                          "Message size S (bytes, or \"512M\", \"1G\", \"256MiB\"; K/M/G/T binary as in "
                          "nccl-tests): the all-reduce buffer; for all-gather, reduce-scatter and all-to-all all "
                          "ranks' data; for send/recv what each rank sends.",
                          [](auto& s) -> auto& { return s.message; }),
      uint_knob<JobSpec>("channels",
                         "NCCL channels (rings/trees), each with its own connections; for all-to-all and send/recv "
                         "the channels per peer pair (NCCL_NCHANNELS_PER_NET_PEER).",
                         1, 1024, [](auto& s) -> auto& { return s.channels; }),
      uint_knob<JobSpec>("search_channels",
                         "The P channels NCCL's search handed on (they decide the NICs): NCCL doubles them, channel "
                         "c+P copying channel c's ring and running tree 1; 0 = ceil(channels/2).",
                         0, 1024, [](auto& s) -> auto& { return s.search_channels; }),
      uint_knob<JobSpec>("qps_per_connection", "NCCL_IB_QPS_PER_CONNECTION: RC QPs per connection.", 1, 128,
                         [](auto& s) -> auto& { return s.qps_per_connection; }),
      uint_knob<JobSpec>("cross_nic",
                         "NCCL_CROSS_NIC, a permission: 0 rings never change NIC inside a node, 1 they may, 2 "
                         "(NCCL's default) only if the search without crossing falls short (see ring_cross_nic).",
                         0, 2, [](auto& s) -> auto& { return s.cross_nic; }),
      enum_knob<JobSpec>(
          "ring_cross_nic",
          "The crossNic of the ring graph NCCL ends with (its log: \"Pattern 4, crossNic N\"). \"auto\": 1 for "
          "cross_nic 1; for cross_nic 2, 0 (each channel enters and leaves a node by one NIC) unless PXN is off "
          "with more than one and fewer than 2 x nics_per_node GPUs per node, where the ring must cross and ends "
          "with nccl_version's fallback; \"off\" forces 0; \"on\" forces crossing (cross_nic 2: the version's "
          "fallback).",
          kCrossNicOutcomes, [](auto& s) -> auto& { return s.ring_cross_nic; }),
      bool_knob<JobSpec>("pxn",
                         "PXN (NCCL >= 2.12, NCCL_PXN_DISABLE=0): all-to-all and send/recv leave the sender's node "
                         "by the NIC of the destination GPU's rail, reached over NVLink; false = the sender's own NIC.",
                         [](auto& s) -> auto& { return s.pxn; }),
      {"nccl_version", "string",
       "NCCL release whose ring-graph rules apply (\"2.22.3\", \"2.22.3-1\", \"v2.22.3-1\" or \"2.22\"): the "
       "crossNic a crossing search ends with and when odd nodes swap channel pairs (docs/nccl-fidelity.md, \"NCCL "
       "versions\"). Default \"2.30.7\".",
       [](const toml::node& n, JobSpec& s, const SourcePos& at) {
         const auto v = n.value<std::string>();
         const auto parsed = v ? parse_nccl_version(*v) : std::nullopt;
         if (!n.is_string() || !parsed)
           throw InputError(at, "expected an NCCL version such as \"2.22.3\", \"2.22.3-1\" or \"2.22\"");
         if (*parsed < kNcclRingRules.front().from || parsed->major != 2)
           throw InputError(at, "NCCL " + nccl_version_text(*parsed) + " is not modelled: rings follow releases from " +
                                    nccl_version_text(kNcclRingRules.front().from) + " on (PXN came with 2.12)");
         s.nccl_version = *parsed;
       },
       nullptr},
      uint_knob<JobSpec>("peer_offset", "Send/recv: rank r sends to rank (r + peer_offset) mod ranks.", 1, 1u << 24,
                         [](auto& s) -> auto& { return s.peer_offset; }),
      enum_knob<JobSpec>("sport_model",
                         "UDP source port of each QP: kernel/mlx5 formula, ConnectX-3 fold, sport_base, "
                         "sport_base + QP index mod sport_range, or seeded random in that range.",
                         kSportModels, [](auto& s) -> auto& { return s.roce.sport; }),
      uint_knob<JobSpec>("sport_base", "First source port of the fixed, range and random models.", 0, 65535,
                         [](auto& s) -> auto& { return s.roce.sport_base; }),
      uint_knob<JobSpec>("sport_range", "Ports in the range and random models (sport_base + sport_range <= 65536).",
                         1, 65536, [](auto& s) -> auto& { return s.roce.sport_range; }),
      enum_knob<JobSpec>("qpn_model",
                         "QP numbers per NIC: qpn_base + i*qpn_stride, or seeded random 24-bit unique per NIC.",
                         kQpnModels, [](auto& s) -> auto& { return s.roce.qpn; }),
      uint_knob<JobSpec>("qpn_base", "First QP number each NIC allocates (24-bit).", 0, 0xFFFFFF,
                         [](auto& s) -> auto& { return s.roce.qpn_base; }),
      uint_knob<JobSpec>("qpn_stride", "Step between QP numbers allocated on one NIC.", 1, 0xFFFFFF,
                         [](auto& s) -> auto& { return s.roce.qpn_stride; }),
      sizes_knob(),
      nccl_algo_knob(),
      nccl_proto_knob(),
      size_coupling_knob(),
  };
  return k;
}

void check_training(JobSpec& job, std::uint32_t gpus_per_node) {
  const workloads::TrainingShape& t = job.training;
  const std::uint64_t ranks = std::uint64_t{t.tp} * t.pp * t.dp;
  const auto refuse = [&](const std::string& why) { throw InputError(job.where, "training job '" + job.name + "': " + why); };
  if (t.layers % t.pp != 0) refuse("layers (" + std::to_string(t.layers) + ") is not a multiple of pp (" + std::to_string(t.pp) + ")");
  if (t.dp % t.ep != 0) refuse("ep (" + std::to_string(t.ep) + ") does not divide dp (" + std::to_string(t.dp) + ")");
  if (t.experts > 0 && t.experts % t.ep != 0)
    refuse("ep (" + std::to_string(t.ep) + ") does not divide experts (" + std::to_string(t.experts) + ")");
  if (ranks % gpus_per_node != 0)
    refuse("tp x pp x dp = " + std::to_string(ranks) + " ranks do not fill nodes of gpus_per_node = " +
           std::to_string(gpus_per_node) + " GPUs");
  const std::uint64_t nodes = ranks / gpus_per_node;
  if (job.nodes == 0 && job.hosts.empty()) job.nodes = static_cast<std::uint32_t>(nodes);
  const std::uint64_t given = job.hosts.empty() ? job.nodes : job.hosts.size();
  if (given != nodes)
    refuse("tp x pp x dp = " + std::to_string(ranks) + " ranks need " + std::to_string(nodes) + " nodes of " +
           std::to_string(gpus_per_node) + " GPUs, not " + std::to_string(given));
}

}  // namespace ecmpsim::config
