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

}  // namespace

const std::vector<Knob<HostSpec>>& host_knobs() {
  static const std::vector<Knob<HostSpec>> k{
      enum_knob<HostSpec>("intra", "How a node's GPUs reach each other: NCCL's intra-node latency row and link.",
                          workloads::kIntraLinks, [](auto& s) -> auto& { return s.intra; }),
      number_knob<HostSpec>("intra_busbw_gbs",
                            "The busbw (GB/s) the intra-node ring hops allow; 0 = NCCL's figure for the link "
                            "(nvlink 370.8, pci 48).",
                            0, 1e5, false, [](auto& s) -> auto& { return s.intra_busbw; }),
      mtu_knob(),
      number_knob<HostSpec>("nic_efficiency",
                            "Fraction of the RoCEv2 goodput the hosts reach (PCIe, DMA, proxy); 1 = the wire's "
                            "header overhead only. `ecmpsim calibrate` fits it.",
                            0, 1, true, [](auto& s) -> auto& { return s.nic_efficiency; }),
      number_knob<HostSpec>("net_overhead_us",
                            "NCCL's netOverhead (us): the least an intra-node ring step costs across nodes, x3 "
                            "for Simple (x86 Intel 1.0, AMD 2.0).",
                            0, 1000, false, [](auto& s) -> auto& { return s.net_overhead_us; }),
      number_knob<HostSpec>("net_latency_us",
                            "NCCL's latencyInter (us): added to each network step (twice for Simple); NCCL's IB "
                            "plugin leaves it 0. `ecmpsim calibrate` fits it.",
                            0, 1e4, false, [](auto& s) -> auto& { return s.net_latency_us; }),
  };
  return k;
}

}  // namespace ecmpsim::config
