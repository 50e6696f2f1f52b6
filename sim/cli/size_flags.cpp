// The size-table flags of `ecmpsim run` (see size_flags.h).
#include "sim/cli/size_flags.h"

#include <algorithm>
#include <utility>

#include "workloads/nccl.h"

namespace ecmpsim::cli {

void add_size_flags(CLI::App* sub, SizeFlags& f) {
  sub->add_option("-b,--minbytes", f.minbytes,
                  "Size table from this message size (nccl-tests' -b; bytes or 8, 1K, 16G)")
      ->transform(byte_size());
  sub->add_option("-e,--maxbytes", f.maxbytes, "Size table up to this message size (nccl-tests' -e)")
      ->transform(byte_size());
  sub->add_option("--stepfactor", f.stepfactor, "Multiply the size by this between rows (nccl-tests' -f; default 2)")
      ->check(integer_in(2, 1024));
  sub->add_option("--nccl-algo", f.algo, "NCCL_ALGO of the size table: Ring or Tree (default: per size, as NCCL picks)")
      ->check(one_of(workloads::kNcclAlgos));
  sub->add_option("--nccl-proto", f.proto,
                  "NCCL_PROTO of the size table: LL, LL128 or Simple (default: per size, as NCCL picks)")
      ->check(one_of(workloads::kNcclProtos));
  sub->add_option("--size-coupling", f.coupling,
                  "Channel bandwidth of the size table: lockstep (a ring at its slowest connection) or independent")
      ->check(one_of(workloads::kChannelCouplings));
}

std::string size_flags_text(const SizeFlags& f) {
  std::string out;
  for (const auto& [flag, v] : {std::pair{" -b ", f.minbytes}, std::pair{" -e ", f.maxbytes},
                                std::pair{" --stepfactor ", f.stepfactor}})
    if (v) out += flag + std::to_string(*v);
  for (const auto& [flag, v] : {std::pair{" --nccl-algo ", &f.algo}, std::pair{" --nccl-proto ", &f.proto},
                                std::pair{" --size-coupling ", &f.coupling}})
    if (!v->empty()) out += flag + *v;
  return out;
}

}  // namespace ecmpsim::cli
