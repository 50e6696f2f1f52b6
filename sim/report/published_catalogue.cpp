// The catalogue's rows: one per published figure. Each row's inputs and
// assumptions are stated, with their sources, in its config's comments
// (configs/published/); the row holds only what the run needs.
#include "sim/report/published.h"

namespace ecmpsim {
namespace {

constexpr std::uint8_t kHash =
    axis_bit(UnknownAxis::SeedMode) | axis_bit(UnknownAxis::HashAlgo) | axis_bit(UnknownAxis::HashSeed);
constexpr std::uint8_t kQpn = axis_bit(UnknownAxis::QpnBase);
constexpr std::uint8_t kPlace = axis_bit(UnknownAxis::Placement);
constexpr std::uint8_t kChannels = axis_bit(UnknownAxis::Channels);
constexpr std::uint64_t k16G = 16ULL << 30;

constexpr std::string_view kFlowTracer = "FlowTracer, arXiv 2410.17078 (IEEE ICC 2025), abstract";
constexpr std::string_view kTolly =
    "Tolly report 225112, \"64 GPU AI Performance Comparison Test ... H3C RoCE Network AD-DC Path Navigation "
    "Solution vs. Traditional ECMP Solution\" (vendor-commissioned), reports.tolly.com/publications/225112";
constexpr std::string_view kBaidu =
    "Baidu Intelligent Cloud article on its AI fabric (read in a third-party translation; details unverified)";
constexpr std::string_view kMeta =
    "\"RDMA over Ethernet for Distributed AI Training at Meta Scale\", SIGCOMM 2024; Meta engineering blog "
    "2024-08-05, \"A RoCE network for distributed AI training at scale\"";
constexpr std::string_view kC4 =
    "\"Enhancing Large-Scale AI Training Efficiency: The C4 Solution ...\", Alibaba, arXiv 2406.04594 (HPCA 2025)";
constexpr std::string_view kIssue169 =
    "nccl-tests issue 169, \"if the bandwidth results of the Nccl test are related to the number of nodes?\", "
    "github.com/NVIDIA/nccl-tests/issues/169";

constexpr std::string_view kLacksFlow =
    "packet-level effects (PFC pauses, queueing, retransmission) and host limits (PCIe, GPU): it models routing "
    "and max-min fair sharing only";

constexpr std::array<PublishedExperiment, 11> kPublished{{
    {"flowtracer", kFlowTracer, "a static routing table reduced the flow imbalance metric by 30% against ECMP", 30,
     Precision::Stated, 0,
     PublishedMetric::FimReduction, "configs/published/flowtracer.toml", "ecmp", "static", 0, 0, 0, 0,
     kPlace | kQpn | kChannels | kHash, 8,
     "FlowTracer's own fabric, workload and FIM definition beyond its abstract"},
    {"tolly-avg", kTolly,
     "average bus bandwidth 212.644 GB/s with ECMP, 233.262 GB/s with AD-DC path navigation: +9.70%", 9.70,
     Precision::Stated, 2,
     PublishedMetric::BusbwGain, "configs/published/tolly-225112.toml", "ecmp", "planned", 0, 0, 0, 0,
     kQpn | kChannels | kHash, 4, kLacksFlow},
    {"tolly-16g", kTolly, "AD-DC over ECMP at 16GB: +22.76% bus bandwidth", 22.76,
     Precision::Stated, 2, PublishedMetric::BusbwGain,
     "configs/published/tolly-225112.toml", "ecmp", "planned", 0, 0, 0, k16G, kQpn | kChannels | kHash, 4,
     kLacksFlow},
    {"baidu-2qp", kBaidu, "hash collisions: ~70 Gb/s effective on a 100G link (2 QPs per connection)", 70,
     Precision::About, 0,
     PublishedMetric::EffectiveGbps, "configs/published/baidu-qps.toml", "ecmp", "", 2, 0, 0, 0,
     kPlace | kQpn | kHash, 4, kLacksFlow},
    {"baidu-16qp", kBaidu,
     "16 QPs per connection (+ placement affinity, dynamic load balancing): ~95% of the 100G link", 95,
     Precision::About, 0,
     PublishedMetric::EffectiveGbps, "configs/published/baidu-qps.toml", "ecmp", "", 16, 0, 0, 0,
     kPlace | kQpn | kHash, 4,
     "the placement affinity and dynamic load balancing Baidu applied with the QPs (only the QPs are modeled); "
     "packet-level effects"},
    {"meta-eecmp", kMeta, "E-ECMP (hash on the destination QP) with QP scaling: up to +40% AllReduce vs baseline ECMP",
     40, Precision::UpTo, 0, PublishedMetric::CompletionGain, "configs/published/meta-roce.toml", "ecmp", "e-ecmp",
     1, 4, 0, 0,
     kPlace | kQpn | kHash, 4,
     "Meta's job placement, QP count and message pattern; \"up to\" is a maximum over Meta's runs, not a typical run"},
    {"alibaba-c4", kC4, "ECMP: ~30% gap between achieved and ideal throughput, 22B model on 512 GPUs", 30,
     Precision::About, 0,
     PublishedMetric::IdealGap, "configs/published/alibaba-c4.toml", "ecmp", "", 0, 0, 0, 0, kPlace | kHash, 4,
     "the dual-port bond (each 400G NIC is two 200G ports hashed by the bond), other tenants' traffic, and a "
     "training step's mix of collectives"},
    {"nccl169-2n", kIssue169, "~100 GB/s all-reduce busbw on 2 nodes", 100, Precision::About, 0, PublishedMetric::Busbw,
     "configs/published/nccl-tests-169.toml", "ecmp", "", 0, 0, 2, 0, kPlace | kQpn | kHash, 8,
     "NCCL's default algorithm on exactly 2 nodes, which can exceed the network's ring bound (the maintainers in "
     "nccl-tests#169); its best case stays just under the NICs' 100 GB/s by NCCL's latency terms"},
    {"nccl169-3n", kIssue169, "~70 GB/s all-reduce busbw on 3 nodes "
     "(\"decreases to 70 GB/s\", among \"around\" and \"also about\" figures)", 70,
     Precision::About, 0, PublishedMetric::Busbw,
     "configs/published/nccl-tests-169.toml", "ecmp", "", 0, 0, 3, 0, kPlace | kQpn | kHash, 8, kLacksFlow},
    {"nccl169-4n", kIssue169, "~58 GB/s all-reduce busbw on 4 or 5 nodes (4 here)", 58,
     Precision::About, 0, PublishedMetric::Busbw,
     "configs/published/nccl-tests-169.toml", "ecmp", "", 0, 0, 4, 0, kPlace | kQpn | kHash, 8, kLacksFlow},
    {"nccl169-6n", kIssue169, "~40 GB/s all-reduce busbw on 6 nodes "
     "(\"decreases to 40 GB/s\", among \"around\" and \"also about\" figures)", 40,
     Precision::About, 0, PublishedMetric::Busbw,
     "configs/published/nccl-tests-169.toml", "ecmp", "", 0, 0, 6, 0, kPlace | kQpn | kHash, 8, kLacksFlow},
}};

}  // namespace

std::span<const PublishedExperiment> published_experiments() noexcept { return kPublished; }

const PublishedExperiment* find_published(std::string_view name) noexcept {
  for (const PublishedExperiment& e : kPublished)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace ecmpsim
