// The [workload] / [[job]] keys of the size table (issue 32): `sizes`, the
// nccl-tests sweep as an inline table, and NCCL_ALGO / NCCL_PROTO overrides.
// Declared here, added to the job's knob table in config_workload.cpp.
#include "sim/config/config_sections.h"

namespace ecmpsim::config {

namespace {

Bytes read_size(const toml::node& n, const SourcePos& at) {
  if (const auto v = n.value<std::int64_t>(); n.is_integer() && v) {
    if (*v <= 0) throw InputError(at, "size must be positive");
    return Bytes{static_cast<std::uint64_t>(*v)};
  }
  if (const auto str = n.value<std::string>(); n.is_string() && str) {
    const auto b = parse_size(*str);
    if (!b || b->value == 0) throw InputError(at, "invalid size '" + *str + "' (" + std::string(kSizeExamples) + ")");
    return *b;
  }
  throw InputError(at, "expected a size (integer bytes or a string such as \"16G\")");
}

SourcePos sub_pos(const toml::node& n, const SourcePos& table, std::string_view key) {
  const auto& src = n.source();
  return {table.file, src.begin.line, src.begin.column, table.field + "." + std::string(key)};
}

void read_sweep(const toml::node& n, JobSpec& s, const SourcePos& at) {
  const toml::table& t = expect_table(n, at);
  workloads::SizeSweep sweep;
  for (const auto& [k, v] : t) {
    const SourcePos pos = sub_pos(v, at, k.str());
    if (k.str() == "min") {
      sweep.min_bytes = read_size(v, pos).value;
    } else if (k.str() == "max") {
      sweep.max_bytes = read_size(v, pos).value;
    } else if (k.str() == "factor") {
      const auto f = v.value<std::int64_t>();
      if (!v.is_integer() || !f || *f < 2 || *f > 1024)
        throw InputError(pos, "expected an integer step factor in [2, 1024]");
      sweep.factor = static_cast<std::uint64_t>(*f);
    } else {
      throw InputError(pos, "unknown key" + did_you_mean(k.str(), {"min", "max", "factor"}, 0));
    }
  }
  if (sweep.min_bytes == 0 || sweep.max_bytes == 0) throw InputError(at, "needs both min and max");
  if (sweep.min_bytes > sweep.max_bytes)
    throw InputError(at, "min (" + std::to_string(sweep.min_bytes) + ") is larger than max (" +
                             std::to_string(sweep.max_bytes) + ")");
  s.nccl.sweep = sweep;
}

// NCCL_ALGO / NCCL_PROTO: one value of the table, as NCCL spells it.
template <class Table, class Get>
Knob<JobSpec> nccl_name_knob(std::string_view key, std::string_view doc, const Table& table, Get get) {
  const std::string choices = quoted_choices(table);
  return {key, choices, doc,
          [=, &table](const toml::node& n, JobSpec& s, const SourcePos& at) {
            const auto str = n.value<std::string>();
            const auto v = str ? parse_name(table, *str) : std::nullopt;
            if (!n.is_string() || !v) throw InputError(at, "expected one of " + choices);
            get(s) = *v;
          },
          nullptr};
}

}  // namespace

Knob<JobSpec> sizes_knob() {
  return {"sizes", "inline table { min, max, factor }",
          "nccl-tests' message-size sweep (run's -b, -e, --stepfactor): sizes min, min x factor, ... up to max (bytes or \"8\", "
          "\"16G\"; factor an integer >= 2, default 2). Adds the size table (time, algbw, busbw, NCCL's algorithm "
          "and protocol, slowdown per size) to run's outputs; absent: no table.",
          read_sweep, nullptr};
}

Knob<JobSpec> nccl_algo_knob() {
  return nccl_name_knob("nccl_algo", "NCCL_ALGO for the size table; absent: chosen per size by minimum predicted time.",
                        workloads::kNcclAlgos, [](JobSpec& s) -> auto& { return s.nccl.algo; });
}

Knob<JobSpec> nccl_proto_knob() {
  return nccl_name_knob("nccl_proto", "NCCL_PROTO for the size table; absent: chosen per size by minimum predicted time.",
                        workloads::kNcclProtos, [](JobSpec& s) -> auto& { return s.nccl.proto; });
}

Knob<JobSpec> size_coupling_knob() {
  return enum_knob<JobSpec>("size_coupling",
                            "How the size table takes a channel's network bandwidth from the routed paths: "
                            "lockstep (a ring channel at its slowest connection) or independent (the flows' own "
                            "completion, as in `predicted`).",
                            workloads::kChannelCouplings, [](auto& s) -> auto& { return s.nccl.coupling; });
}

}  // namespace ecmpsim::config
