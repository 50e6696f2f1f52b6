#include "workloads/gpu.h"

namespace ecmpsim::workloads {

std::optional<Gpu> parse_gpu(std::string_view name) noexcept {
  for (const GpuProfile& g : kGpus) {
    if (g.name == name) return g.value;
    for (const std::string_view smi : g.smi_names)
      if (!smi.empty() && smi == name) return g.value;
  }
  return std::nullopt;
}

std::string gpu_names() {
  std::string out;
  for (const GpuProfile& g : kGpus) out += (out.empty() ? "" : ", ") + std::string(g.name);
  return out;
}

}  // namespace ecmpsim::workloads
