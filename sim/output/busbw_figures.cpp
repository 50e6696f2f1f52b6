// The help's paragraph on the two busbw figures (busbw_figures.h). Its
// numbers are `ecmpsim run configs/paper16.toml -b 16G -e 16G`'s, pinned by
// tests/output/busbw_figures_test.cpp.
#include "sim/output/busbw_figures.h"

namespace ecmpsim {

std::string busbw_help_text() {
  const std::string fabric(busbw_label(BusbwFigure::FabricBound));
  const std::string nccl(busbw_label(BusbwFigure::NcclTests));
  return "Two busbw figures (docs/prediction.md):\n"
         "  " + fabric + " (the predicted block, sweep's per-job busbw): the flow model at line rate, no\n"
         "    overheads; compare with the NICs' line rate. configs/paper16.toml: 400.0 Gb/s (50.00 GB/s) static,\n"
         "    320.0 Gb/s (40.00 GB/s) ecmp, against each node's 400 Gb/s NIC.\n"
         "  " + nccl + " (the size table's busbw column, sweep's busbw_at and busbw_avg): nccl-tests'\n"
         "    busBw = algBw x factor, with RoCEv2 goodput, protocol factors and latency; compare with a\n"
         "    measurement. configs/paper16.toml -b 16G -e 16G: 48.97 GB/s static, 39.19 GB/s ecmp, against\n"
         "    all_reduce_perf's busbw at 17179869184 B (at most 50 x 4096/4178 = 49.02 GB/s at MTU 4096).\n\n";
}

}  // namespace ecmpsim
