// The size-table options (see sizes.h).
#include "sim/app/sizes.h"

#include <algorithm>
#include <utility>

#include "sim/base/error.h"
#include "workloads/nccl.h"

namespace ecmpsim::app {

namespace {

// A name of `table` or nothing; the command line checks its flags' values before, Python's keywords here.
template <class Table>
void check_name(const Table& table, const std::string& name, const char* flag, const char* what) {
  if (!name.empty() && !parse_name(table, name))
    throw InputError(option_at(flag), "unknown " + std::string(what) + " '" + name + "'; one of " + quoted_choices(table));
}

}  // namespace

void apply_size_flags(Spec& spec, const SizeFlags& f) {
  check_name(workloads::kNcclAlgos, f.algo, "nccl_algo", "NCCL algorithm");
  check_name(workloads::kNcclProtos, f.proto, "nccl_proto", "NCCL protocol");
  check_name(workloads::kChannelCouplings, f.coupling, "size_coupling", "channel coupling");
  const SourcePos min_at = option_at("minbytes"), max_at = option_at("maxbytes");
  if (f.minbytes.has_value() != f.maxbytes.has_value())
    throw InputError(f.minbytes ? max_at : min_at, "needed with " + option_ref(f.minbytes ? "minbytes" : "maxbytes"));
  if (f.minbytes && *f.minbytes > *f.maxbytes)
    throw InputError(min_at, std::to_string(*f.minbytes) + " is larger than " + option_ref("maxbytes") + " " + std::to_string(*f.maxbytes));
  const bool any_sweep = f.minbytes || std::any_of(spec.jobs.begin(), spec.jobs.end(), [](const JobSpec& j) {
                           return j.nccl.sweep.enabled();
                         });
  if (!any_sweep)
    for (const auto& [set, flag] : {std::pair{f.stepfactor.has_value(), "stepfactor"},
                                    std::pair{!f.algo.empty(), "nccl_algo"}, std::pair{!f.proto.empty(), "nccl_proto"},
                                    std::pair{!f.coupling.empty(), "size_coupling"}})
      if (set) throw InputError(option_at(flag), "only used with a size table (" + option_ref("minbytes") + " and " + option_ref("maxbytes") +
                              ", or sizes)");
  for (JobSpec& job : spec.jobs) {
    if (f.minbytes) job.nccl.sweep = {*f.minbytes, *f.maxbytes, job.nccl.sweep.factor};
    if (f.stepfactor) job.nccl.sweep.factor = *f.stepfactor;
    if (!f.algo.empty()) job.nccl.algo = parse_name(workloads::kNcclAlgos, f.algo);
    if (!f.proto.empty()) job.nccl.proto = parse_name(workloads::kNcclProtos, f.proto);
    if (!f.coupling.empty()) job.nccl.coupling = *parse_name(workloads::kChannelCouplings, f.coupling);
  }
}

}  // namespace ecmpsim::app
