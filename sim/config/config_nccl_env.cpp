// `nccl_env = { NCCL_CROSS_NIC = 1, NCCL_MIN_NCHANNELS = "16", ... }`: a job's
// NCCL settings under the names users export them by, each row the job key
// it sets (one concept, one place: the key's own reader checks the value).
// Values may be written as TOML values or as the strings an environment
// holds ("1", "Ring"). NCCL_MIN_CTAS and NCCL_MAX_CTAS bound the channels
// where NCCL_MIN/MAX_NCHANNELS do (connect.cc takes the larger minimum and
// the smaller maximum), so they fold into the same keys.
#include <algorithm>
#include <array>
#include <cctype>

#include "sim/config/config_sections.h"

namespace ecmpsim::config {

namespace {

// How an environment value becomes the key's: as it is, an integer, a
// boolean (non-zero: on), the opposite boolean, or a NCCL_ALGO / NCCL_PROTO
// name in any case (NCCL compares them with strcasecmp).
enum class EnvValue : std::uint8_t { Integer, Boolean, NotBoolean, Algo, Proto };

// How a row combines with a bound another row set: kept as read, the larger
// (a minimum) or the smaller (a maximum; 0 there is unset).
enum class Fold : std::uint8_t { None, Larger, Smaller };

struct NcclEnvRow {
  std::string_view env;
  std::string_view key;
  EnvValue value;
  Fold fold = Fold::None;
  std::uint32_t JobSpec::* bound = nullptr;  // the field a Fold row combines in
};

constexpr std::array<NcclEnvRow, 12> kNcclEnv{{
    {"NCCL_ALGO", "nccl_algo", EnvValue::Algo},
    {"NCCL_PROTO", "nccl_proto", EnvValue::Proto},
    {"NCCL_CROSS_NIC", "cross_nic", EnvValue::Integer},
    {"NCCL_IB_QPS_PER_CONNECTION", "qps_per_connection", EnvValue::Integer},
    {"NCCL_PXN_DISABLE", "pxn", EnvValue::NotBoolean},
    {"NCCL_MIN_NCHANNELS", "min_channels", EnvValue::Integer, Fold::Larger, &JobSpec::min_channels},
    {"NCCL_MAX_NCHANNELS", "max_channels", EnvValue::Integer, Fold::Smaller, &JobSpec::max_channels},
    {"NCCL_MIN_CTAS", "min_channels", EnvValue::Integer, Fold::Larger, &JobSpec::min_channels},
    {"NCCL_MAX_CTAS", "max_channels", EnvValue::Integer, Fold::Smaller, &JobSpec::max_channels},
    {"NCCL_NVLS_ENABLE", "nvls", EnvValue::Boolean},
    {"NCCL_COLLNET_ENABLE", "collnet", EnvValue::Boolean},
    {"NCCL_PAT_ENABLE", "pat", EnvValue::Boolean},
}};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::int64_t env_integer(const toml::node& v, const SourcePos& at) {
  if (const auto i = v.value<std::int64_t>(); v.is_integer() && i) return *i;
  if (const auto b = v.value<bool>(); v.is_boolean() && b) return *b ? 1 : 0;
  const auto str = v.value<std::string>();
  std::int64_t out = 0;
  if (!v.is_string() || !str || str->empty() || str->size() > 9 ||
      !std::all_of(str->begin(), str->end(), [](char c) { return c >= '0' && c <= '9'; }))
    throw InputError(at, "expected an integer (as a number or a string such as \"1\")");
  for (const char c : *str) out = out * 10 + (c - '0');
  return out;
}

// A NCCL_ALGO or NCCL_PROTO value in NCCL's spelling, whatever its case.
template <class Table>
std::string env_name(const toml::node& v, const SourcePos& at, const Table& table, std::string_view what) {
  const auto str = v.value<std::string>();
  if (!v.is_string() || !str) throw InputError(at, "expected a string, one of " + quoted_choices(table));
  if (str->find_first_of(",^;") != std::string::npos)
    throw InputError(at, "'" + *str + "': one " + std::string(what) + " only (lists, exclusions and per-collective "
                                                                        "settings are not modelled)");
  for (const auto& row : table)
    if (lower(row.name) == lower(*str)) return std::string(row.name);
  throw InputError(at, "unknown " + std::string(what) + " '" + *str + "', expected one of " + quoted_choices(table));
}

// The value a row's key reads, as a one-entry TOML table.
toml::table env_value(const NcclEnvRow& row, const toml::node& v, const SourcePos& at) {
  toml::table out;
  const std::string key(row.key);
  switch (row.value) {
    case EnvValue::Integer: out.insert(key, env_integer(v, at)); break;
    case EnvValue::Boolean: out.insert(key, env_integer(v, at) != 0); break;
    case EnvValue::NotBoolean: out.insert(key, env_integer(v, at) == 0); break;
    case EnvValue::Algo: out.insert(key, env_name(v, at, workloads::kNcclAlgos, "algorithm")); break;
    case EnvValue::Proto: out.insert(key, env_name(v, at, workloads::kNcclProtos, "protocol")); break;
  }
  return out;
}

void read_env(const toml::node& n, JobSpec& s, const SourcePos& at) {
  const toml::table& t = expect_table(n, at);
  std::vector<std::pair<std::uint32_t JobSpec::*, std::uint32_t>> folded;
  for (const auto& [k, v] : t) {
    const SourcePos pos{at.file, v.source().begin.line, v.source().begin.column, at.field + "." + std::string(k.str())};
    const std::string_view env_name = k.str();  // clang 14 cannot capture a structured binding
    const auto row = std::find_if(kNcclEnv.begin(), kNcclEnv.end(), [env_name](const NcclEnvRow& r) { return r.env == env_name; });
    if (row == kNcclEnv.end()) {
      std::vector<std::string_view> names;
      for (const NcclEnvRow& r : kNcclEnv) names.push_back(r.env);
      throw InputError(pos, "NCCL setting not modelled" + did_you_mean(k.str(), names, 0) + " (known: " +
                                [&] {
                                  std::string all;
                                  for (const auto name : names) all += (all.empty() ? "" : ", ") + std::string(name);
                                  return all;
                                }() + ")");
    }
    const toml::table value = env_value(*row, v, pos);
    for (const auto& knob : job_knobs())
      if (knob.key == row->key) knob.read(*value.get(row->key), s, pos);
    if (row->fold == Fold::None) continue;
    // Only bounds of nccl_env combine; the key itself (min_channels = ...) gives way.
    const auto earlier = std::find_if(folded.begin(), folded.end(), [&](const auto& f) { return f.first == row->bound; });
    std::uint32_t& now = s.*(row->bound);
    if (earlier != folded.end())
      now = earlier->second = row->fold == Fold::Larger || now == 0 || earlier->second == 0
                                  ? std::max(earlier->second, now)
                                  : std::min(earlier->second, now);
    else
      folded.emplace_back(row->bound, now);
  }
}

}  // namespace

Knob<JobSpec> nccl_env_knob() {
  std::string doc =
      "NCCL settings by their environment names, as exported for the job: each sets the key it stands for (";
  for (const NcclEnvRow& r : kNcclEnv)
    doc += std::string(r.env) + " -> " + std::string(r.key) + (&r == &kNcclEnv.back() ? "" : ", ");
  doc += "; NCCL_PXN_DISABLE=1 is pxn = false; the larger minimum and the smaller maximum of NCCL_MIN/MAX_NCHANNELS "
         "and NCCL_MIN/MAX_CTAS hold, as in NCCL's connect.cc). Values as numbers or as the strings the environment holds.";
  static const std::string kDoc = doc;
  return {"nccl_env", "inline table", kDoc, read_env, nullptr};
}

}  // namespace ecmpsim::config
