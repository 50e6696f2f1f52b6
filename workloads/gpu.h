// The GPUs a node can hold, one row each: the names `nvidia-smi` prints and
// the short ones, and what NCCL reads off such a node to make its choices
// (its compute capability, NVLinks and NVSwitch, the PCIe link, Grace's C2C).
// Every number is a vendor figure with its source in the row; what NCCL makes
// of them (bandwidth per NVLink by release, speed arrays, tuning rows) is in
// workloads/generators/nccl_topo.h and sim/model/nccl_tuning.h. The page is
// docs/prediction.md, "Hardware profiles".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/base/named.h"

namespace ecmpsim::workloads {

// NCCL's rows of per-architecture constants (tuning.cc's compCapIndex).
enum class GpuArch : std::uint8_t { Volta, Ampere, Hopper, Blackwell };
inline constexpr std::array<Named<GpuArch>, 4> kGpuArchs{{{GpuArch::Volta, "Volta"},
                                                          {GpuArch::Ampere, "Ampere"},
                                                          {GpuArch::Hopper, "Hopper"},
                                                          {GpuArch::Blackwell, "Blackwell"}}};

// The host CPU as NCCL's tuner reads it (ncclTopoCpuType): its netOverhead
// (x86 Intel 1.0 us, x86 AMD 2.0, other 1.0: getNetOverhead) and the llMaxBws
// row across nodes (AMD's, else Intel's).
enum class Cpu : std::uint8_t { Intel, Amd, Arm };
struct CpuRow : Named<Cpu> {
  double net_overhead_us;
};
inline constexpr std::array<CpuRow, 3> kCpus{{{{Cpu::Intel, "intel", "x86 Intel"}, 1.0},
                                             {{Cpu::Amd, "amd", "x86 AMD"}, 2.0},
                                             {{Cpu::Arm, "arm", "Arm (Grace)"}, 1.0}}};

enum class Gpu : std::uint8_t { V100, A100, A800, H100, H800, H200, H20, B200, B300, GB200, GB300 };

struct GpuProfile {
  Gpu value;
  std::string_view name;                     // the short name ("H100")
  std::array<std::string_view, 4> smi_names;  // as `nvidia-smi --query-gpu=name` prints them
  std::uint16_t sm;                           // compute capability x 10 (NCCL's cudaCompCap)
  std::uint8_t nvlinks;                       // NVLinks per GPU (nvidia-smi topo: NV<n>)
  std::uint8_t nvlink_gen;
  std::uint8_t nvswitch_gen;                  // 0: no NVSwitch (GPUs joined pairwise or by PCIe)
  std::uint8_t pcie_gen;                      // the GPU's PCIe x16 host link
  double c2c_gbs;                             // NVLink-C2C to Grace, GB/s per direction; 0: none
  std::uint16_t nvlink_domain;                // GPUs per NVLink domain as sold (NVL72: 72; HGX: 8)
  std::string_view source;
};

inline constexpr std::array<GpuProfile, 11> kGpus{{
    {Gpu::V100, "V100", {"Tesla V100-SXM2-16GB", "Tesla V100-SXM2-32GB", "Tesla V100-SXM3-32GB", ""}, 70, 6, 2, 1, 3,
     0, 16, "V100 datasheet: NVLink 300 GB/s (6 NVLink 2 links), PCIe Gen3; DGX-2: NVSwitch gen 1"},
    {Gpu::A100, "A100", {"NVIDIA A100-SXM4-40GB", "NVIDIA A100-SXM4-80GB", "", ""}, 80, 12, 3, 2, 4, 0, 8,
     "A100 datasheet: NVLink 600 GB/s, PCIe Gen4 64 GB/s; A100 whitepaper: 12 NVLink 3 links; HGX A100: 6 NVSwitch gen 2"},
    {Gpu::A800, "A800", {"NVIDIA A800-SXM4-80GB", "NVIDIA A800-SXM4-40GB", "", ""}, 80, 8, 3, 2, 4, 0, 8,
     "A800 datasheet: NVLink 400 GB/s (8 of A100's 12 links), PCIe Gen4"},
    {Gpu::H100, "H100", {"NVIDIA H100 80GB HBM3", "", "", ""}, 90, 18, 4, 3, 5, 0, 8,
     "H100 datasheet: SXM NVLink 900 GB/s, PCIe Gen5 128 GB/s; H100 whitepaper: 18 NVLink 4 links; HGX H100: 4 NVSwitch "
     "gen 3 (NVLink SHARP)"},
    {Gpu::H800, "H800", {"NVIDIA H800", "NVIDIA H800 80GB HBM3", "", ""}, 90, 8, 4, 3, 5, 0, 8,
     "H800 SXM: NVLink 400 GB/s (8 NVLink 4 links), PCIe Gen5"},
    {Gpu::H200, "H200", {"NVIDIA H200", "NVIDIA H200 141GB HBM3e", "", ""}, 90, 18, 4, 3, 5, 0, 8,
     "H200 datasheet: SXM NVLink 900 GB/s, PCIe Gen5 128 GB/s"},
    {Gpu::H20, "H20", {"NVIDIA H20", "NVIDIA H20 96GB HBM3", "", ""}, 90, 18, 4, 3, 5, 0, 8,
     "HGX H20: NVLink 900 GB/s, PCIe Gen5; NVIDIA/nccl#1189's H20 log: NVL[370.8] = 18 x 20.6, PCI[48.0] (Gen5 x16)"},
    {Gpu::B200, "B200", {"NVIDIA B200", "", "", ""}, 100, 18, 5, 4, 6, 0, 8,
     "HGX B200: NVLink 5 1.8 TB/s (nvidia-smi topo NV18), NVSwitch; B200: PCIe Gen6 host link"},
    {Gpu::B300, "B300", {"NVIDIA B300 SXM6 AC", "NVIDIA B300", "", ""}, 103, 18, 5, 4, 6, 0, 8,
     "HGX B300: NVLink 5 1.8 TB/s, PCIe Gen6"},
    {Gpu::GB200, "GB200", {"NVIDIA GB200", "", "", ""}, 100, 18, 5, 4, 6, 450, 72,
     "GB200 NVL72: 72 GPUs in one NVLink 5 domain (1.8 TB/s per GPU), NVLink-C2C 900 GB/s to Grace"},
    {Gpu::GB300, "GB300", {"NVIDIA GB300", "", "", ""}, 103, 18, 5, 4, 6, 450, 72,
     "GB300 NVL72: 72 GPUs in one NVLink 5 domain, NVLink-C2C 900 GB/s to Grace"},
}};

constexpr const GpuProfile& gpu_profile(Gpu g) noexcept { return kGpus[static_cast<std::size_t>(g)]; }
static_assert([] {
  for (std::size_t i = 0; i < kGpus.size(); ++i)
    if (static_cast<std::size_t>(kGpus[i].value) != i) return false;
  return true;
}());

// NCCL's compCapIndex: Volta below sm80, Ampere below sm90, Hopper below sm100.
constexpr GpuArch gpu_arch(std::uint16_t sm) noexcept {
  return sm >= 100 ? GpuArch::Blackwell : sm >= 90 ? GpuArch::Hopper : sm >= 80 ? GpuArch::Ampere : GpuArch::Volta;
}

// The row of a short name or an nvidia-smi name (exact, case-sensitive as
// nvidia-smi prints it); nullopt for anything else.
std::optional<Gpu> parse_gpu(std::string_view name) noexcept;
// "V100, A100, ..., GB300", for the error that lists them.
std::string gpu_names();

}  // namespace ecmpsim::workloads
