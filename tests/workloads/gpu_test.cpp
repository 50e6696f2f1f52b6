// The GPU profiles: every row's NVLink figure against its data sheet's total
// (links x the generation's bandwidth per link, both directions: NVLink 2-4
// 50 GB/s, NVLink 5 100 GB/s), the names nvidia-smi prints, NCCL's
// architecture rows, and the error that lists the known names.
#include <doctest/doctest.h>

#include <string>

#include "workloads/gpu.h"

namespace gpu_test {

using namespace ecmpsim::workloads;

TEST_CASE("each profile's NVLinks add up to its data sheet's NVLink bandwidth") {
  struct Sheet {
    Gpu gpu;
    double total_gbs;  // "NVLink: ... GB/s" of the data sheet the row cites
  };
  for (const Sheet s : {Sheet{Gpu::V100, 300}, Sheet{Gpu::A100, 600}, Sheet{Gpu::A800, 400}, Sheet{Gpu::H100, 900},
                        Sheet{Gpu::H800, 400}, Sheet{Gpu::H200, 900}, Sheet{Gpu::H20, 900}, Sheet{Gpu::B200, 1800},
                        Sheet{Gpu::B300, 1800}, Sheet{Gpu::GB200, 1800}, Sheet{Gpu::GB300, 1800}}) {
    const GpuProfile& g = gpu_profile(s.gpu);
    const double per_link = g.nvlink_gen >= 5 ? 100 : 50;
    CHECK_MESSAGE(g.nvlinks * per_link == s.total_gbs, g.name);
    CHECK_MESSAGE(!g.source.empty(), g.name);
  }
}

TEST_CASE("compute capabilities pick NCCL's architecture rows") {
  CHECK(gpu_arch(gpu_profile(Gpu::V100).sm) == GpuArch::Volta);
  CHECK(gpu_arch(gpu_profile(Gpu::A100).sm) == GpuArch::Ampere);
  CHECK(gpu_arch(gpu_profile(Gpu::H20).sm) == GpuArch::Hopper);
  CHECK(gpu_arch(gpu_profile(Gpu::B200).sm) == GpuArch::Blackwell);
  CHECK(gpu_arch(gpu_profile(Gpu::GB300).sm) == GpuArch::Blackwell);
  CHECK(gpu_arch(86) == GpuArch::Ampere);
  // NVLS needs NVSwitch gen 3 (Hopper's HGX) or later.
  CHECK(gpu_profile(Gpu::A100).nvswitch_gen == 2);
  CHECK(gpu_profile(Gpu::H100).nvswitch_gen == 3);
  // Grace-Blackwell reaches its NICs over C2C (900 GB/s both ways); NVL72 domains.
  CHECK(gpu_profile(Gpu::GB200).c2c_gbs == 450);
  CHECK(gpu_profile(Gpu::GB200).nvlink_domain == 72);
  CHECK(gpu_profile(Gpu::B200).c2c_gbs == 0);
}

TEST_CASE("GPU names: short, as nvidia-smi prints them, and nothing else") {
  CHECK(parse_gpu("A100") == Gpu::A100);
  CHECK(parse_gpu("NVIDIA A100-SXM4-40GB") == Gpu::A100);
  CHECK(parse_gpu("NVIDIA A100-SXM4-80GB") == Gpu::A100);
  CHECK(parse_gpu("NVIDIA H100 80GB HBM3") == Gpu::H100);
  CHECK(parse_gpu("NVIDIA H200") == Gpu::H200);
  CHECK(parse_gpu("NVIDIA H20") == Gpu::H20);
  CHECK(parse_gpu("NVIDIA B200") == Gpu::B200);
  CHECK(parse_gpu("NVIDIA GB200") == Gpu::GB200);
  CHECK(parse_gpu("GB200") == Gpu::GB200);
  // Negative controls: another case, a PCIe card (no NVSwitch), an empty name.
  CHECK_FALSE(parse_gpu("h100"));
  CHECK_FALSE(parse_gpu("NVIDIA H100 PCIe"));
  CHECK_FALSE(parse_gpu(""));
  CHECK(gpu_names() == "V100, A100, A800, H100, H800, H200, H20, B200, B300, GB200, GB300");
}

}  // namespace gpu_test
