// The [hosts] keys (issue 32 item 3) and [calibration], which reads the same
// table over them: what the hosts add to a collective's time per message
// size. The formulas these feed are in sim/model/size_table.cpp and
// sim/model/nccl_cost.cpp; defaults and sources in docs/prediction.md, "Hosts".
#include "sim/config/config_sections.h"

namespace ecmpsim::config {

namespace {

// The IB path MTUs a RoCE NIC negotiates (IBTA: 256 .. 4096 bytes).
Knob<HostSpec> mtu_knob() {
  return {"roce_mtu", "integer (a power of 2)",
          "RoCE path MTU: payload bytes per packet (256, 512, 1024, 2048 or 4096; 4096 needs a jumbo Ethernet MTU). "
          "Sets the RoCEv2 goodput fraction of line rate, MTU / (MTU + the wire's per-packet bytes).",
          [](const toml::node& n, HostSpec& s, const SourcePos& at) {
            const auto v = n.value<std::int64_t>();
            if (!n.is_integer() || !v || *v < 256 || *v > 4096 || (*v & (*v - 1)) != 0)
              throw InputError(at, "expected one of 256, 512, 1024, 2048, 4096");
            s.roce_mtu = static_cast<std::uint32_t>(*v);
          },
          [](const HostSpec& s) { return std::to_string(s.roce_mtu); }, "[256, 4096]"};
}

// The host CPU; absent, Grace (Arm) beside a Grace-Blackwell GPU, else x86 Intel.
Knob<HostSpec> cpu_knob() {
  const std::string choices = quoted_choices(workloads::kCpus);
  return {"cpu", choices,
          "The host CPU (ncclTopoCpuType): NCCL's llMaxBws row across nodes (AMD's or Intel's), the default "
          "net_overhead_us and whether 2.29's NVLSTree correction applies (x86 only); default Grace (\"arm\") "
          "beside a GB200 or GB300, else \"intel\".",
          [choices](const toml::node& n, HostSpec& s, const SourcePos& at) {
            const auto str = n.value<std::string>();
            const auto v = str ? parse_name(workloads::kCpus, *str) : std::nullopt;
            if (!n.is_string() || !v) throw InputError(at, "expected one of " + choices);
            s.cpu = *v;
          },
          [](const HostSpec& s) { return s.cpu ? "\"" + std::string(name_of(workloads::kCpus, *s.cpu)) + "\"" : "the gpu's host"; }};
}

// netOverhead: a number, or (absent) the cpu's.
Knob<HostSpec> overhead_knob() {
  Knob<HostSpec> k = number_knob<HostSpec>(
      "net_overhead_us",
      "NCCL's netOverhead (us): the least an intra-node ring step costs across nodes, x3 for Simple; default the "
      "cpu's (getNetOverhead: x86 Intel 1.0, x86 AMD 2.0, other 1.0).",
      0, 1000, false, [](auto& s) -> auto& { return s.net_overhead_us; });
  k.show_default = [](const HostSpec& s) { return s.net_overhead_us < 0 ? std::string("the cpu's") : format_number(s.net_overhead_us); };
  return k;
}

// `gpu`: a short name or the name nvidia-smi prints; anything else lists the known ones.
Knob<HostSpec> gpu_knob() {
  return {"gpu", "string",
          "The GPU, by its short name (\"A100\", \"H100\", \"H200\", \"H20\", \"B200\", \"GB200\", ...) or as "
          "nvidia-smi names it (\"NVIDIA H100 80GB HBM3\"). Sets the NVLinks, NVSwitch and PCIe link NCCL's search "
          "spends, NCCL's architecture row and the algorithms it offers (docs/prediction.md, \"Hardware "
          "profiles\"); without it, channels are not derived and the tuner keeps Hopper's row with Ring and Tree.",
          [](const toml::node& n, HostSpec& s, const SourcePos& at) {
            const auto v = n.value<std::string>();
            const auto g = v ? workloads::parse_gpu(*v) : std::nullopt;
            if (!n.is_string() || !g)
              throw InputError(at, (v ? "unknown GPU '" + *v + "'" : std::string("expected a GPU name")) +
                                       ", expected one of " + workloads::gpu_names() +
                                       " or the name nvidia-smi prints for one of them");
            s.gpu = *g;
          },
          nullptr};
}

// A PCIe generation, 1 to 6 (NCCL's kvDictPciGen); 0 leaves it to the profile.
Knob<HostSpec> pcie_knob(std::string_view key, std::string_view doc, std::uint8_t HostSpec::*field) {
  return {key, "integer", doc,
          [=](const toml::node& n, HostSpec& s, const SourcePos& at) {
            const auto v = n.value<std::int64_t>();
            if (!n.is_integer() || !v || *v < 0 || *v > 6)
              throw InputError(at, "expected a PCIe generation, 1 to 6 (0: the default)");
            s.*field = static_cast<std::uint8_t>(*v);
          },
          [=](const HostSpec& s) { return std::to_string(s.*field); }, "[0, 6]"};
}

}  // namespace

const std::vector<Knob<HostSpec>>& host_knobs() {
  static const std::vector<Knob<HostSpec>> k{
      gpu_knob(),
      pcie_knob("pcie_gen", "The GPUs' PCIe generation (x16): 4 gives NCCL 24 GB/s, 5 48, 6 96; 0 = the gpu's.",
                &HostSpec::pcie_gen),
      pcie_knob("nic_pcie_gen",
                "The NICs' PCIe generation (x16); 0 = the one that ships at their speed (up to 200 Gb/s Gen4, "
                "400 Gen5, 800 Gen6).",
                &HostSpec::nic_pcie_gen),
      cpu_knob(),
      enum_knob<HostSpec>("intra", "How a node's GPUs reach each other: NCCL's intra-node latency row and link.",
                          workloads::kIntraLinks, [](auto& s) -> auto& { return s.intra; }),
      number_knob<HostSpec>("intra_busbw_gbs",
                            "The busbw (GB/s) the intra-node ring hops allow; 0 = NCCL's figure for the link "
                            "(nvlink 370.8, pci 48). `ecmpsim calibrate` fits it where a table shows it.",
                            0, 1e5, false, [](auto& s) -> auto& { return s.intra_busbw; }),
      mtu_knob(),
      number_knob<HostSpec>("nic_efficiency",
                            "Fraction of the RoCEv2 goodput the hosts reach (PCIe, DMA, proxy); 1 = the wire's "
                            "header overhead only. `ecmpsim calibrate` fits it.",
                            0, 1, true, [](auto& s) -> auto& { return s.nic_efficiency; }),
      overhead_knob(),
      number_knob<HostSpec>("net_latency_us",
                            "NCCL's latencyInter (us): added to each network step (twice for Simple); NCCL's IB "
                            "plugin leaves it 0. `ecmpsim calibrate` fits it.",
                            0, 1e4, false, [](auto& s) -> auto& { return s.net_latency_us; }),
  };
  return k;
}

}  // namespace ecmpsim::config
