#include "hashing/hasher.h"
#include "hashing/suggest.h"
#include "sim/config/config_sections.h"
#include "sim/config/ranges.h"

namespace ecmpsim::config {

namespace {

// A size whose absence (0) means each job's largest: no default to show.
Knob<SweepSpec> busbw_at_knob() {
  Knob<SweepSpec> k = bytes_knob<SweepSpec>(
      "busbw_at",
      "Message size of the busbw_at metric (bytes, or \"16G\"); default each job's largest size. Needs a size "
      "table ([workload] sizes or -b/-e).",
      [](auto& s) -> auto& { return s.busbw_at; });
  k.show_default = nullptr;
  return k;
}

Knob<SweepSpec> range_knob(std::string_view key, std::string_view doc, std::uint64_t max,
                           std::optional<UintRange> SweepSpec::*member) {
  return {key, "string \"A:B[:STEP]\"", doc,
          [=](const toml::node& n, SweepSpec& s, const SourcePos& at) {
            const auto v = n.value<std::string>();
            if (!n.is_string() || !v) throw InputError(at, "expected a range string \"A:B\" or \"A:B:STEP\"");
            s.*member = parse_range(*v, max, at);
          },
          nullptr, "0 <= A < B <= " + std::to_string(max + 1) + ", 1 <= STEP <= " + std::to_string(max)};
}

template <class T, class Read>
Knob<SweepSpec> list_knob(std::string_view key, std::string_view type, std::string_view doc,
                          std::vector<T> SweepSpec::*member, Read read, std::string range = {}) {
  return {key, std::string(type), doc,
          [=](const toml::node& n, SweepSpec& s, const SourcePos& at) {
            const auto* arr = n.as_array();
            if (!arr || arr->empty()) throw InputError(at, "expected a non-empty array");
            (s.*member).clear();
            for (const auto& e : *arr) (s.*member).push_back(read(e, at));
          },
          nullptr, std::move(range)};
}

}  // namespace

const std::vector<Knob<SweepSpec>>& sweep_knobs() {
  static const std::vector<Knob<SweepSpec>> k{
      range_knob("seeds", "ECMP seeds swept (half-open range); --seeds overrides.", 0xFFFFFFFFu, &SweepSpec::seeds),
      enum_knob<SweepSpec>("seed_mode", "How a swept seed reaches the switches (see [scenario.hash] seed_mode).",
                           kSeedModes, [](auto& s) -> auto& { return s.seed_mode; }),
      range_knob("sport_base", "Bases of the \"range\" source-port model swept.", 0xFFFF, &SweepSpec::sport_base),
      range_knob("qpn_base", "First QP numbers swept (24-bit).", 0xFFFFFF, &SweepSpec::qpn_base),
      range_knob("placement_seeds", "Seeds of the \"random\" placement swept.", ~0ULL >> 1,
                 &SweepSpec::placement_seeds),
      list_knob<std::uint32_t>("qps", "array of integers", "QPs per connection swept.", &SweepSpec::qps,
                               [](const toml::node& e, const SourcePos& at) {
                                 const auto v = e.value<std::int64_t>();
                                 if (!e.is_integer() || !v || *v < 1 || *v > 128)
                                   throw InputError(at, "expected integers in [1, 128]");
                                 return static_cast<std::uint32_t>(*v);
                               },
                               "each in [1, 128]"),
      list_knob<std::string>("algos", "array of strings", "Hash algorithms swept (catalogue or SAI names).",
                             &SweepSpec::algos, [](const toml::node& e, const SourcePos& at) {
                               const auto v = e.value<std::string>();
                               if (!e.is_string() || !v) throw InputError(at, "expected algorithm names");
                               const hashing::Algorithm* a = hashing::find(*v);
                               if (!a) throw InputError(at, unknown_algorithm(*v));
                               return std::string(a->name);
                             }),
      list_knob<std::string>("scenarios", "array of strings",
                             "Scenarios swept; default every ECMP scenario, or the first.", &SweepSpec::scenarios,
                             [](const toml::node& e, const SourcePos& at) {
                               const auto v = e.value<std::string>();
                               if (!e.is_string() || !v || v->empty()) throw InputError(at, "expected scenario names");
                               return *v;
                             }),
      enum_knob<SweepSpec>("metric",
                           "The metric that ranks the best and worst variants and that the threshold "
                           "applies to (Jain's index, busbw_at and busbw_avg: highest is best; others: lowest). "
                           "busbw_at and busbw_avg (GB/s) need a size table ([workload] sizes or -b/-e).",
                           kSweepMetricNames, [](auto& s) -> auto& { return s.metric; }),
      {"threshold", "number", "Report the fraction of variants whose metric is above this.",
       [](const toml::node& n, SweepSpec& s, const SourcePos& at) {
         const auto v = n.value<double>();
         if (!(n.is_integer() || n.is_floating_point()) || !v || !(*v >= 0)) throw InputError(at, "expected a number >= 0");
         s.threshold = *v;
       },
       nullptr, ">= 0"},
      bool_knob<SweepSpec>("slowdown",
                           "Run the flow model on every variant for its predicted slowdown; false skips it "
                           "(faster on large fabrics) and leaves the metric out.",
                           [](auto& s) -> auto& { return s.slowdown; }),
      busbw_at_knob(),
      uint_knob<SweepSpec>("max_variants", "Refuse larger sweeps unless --force is given.", 1, ~0ULL >> 1,
                           [](auto& s) -> auto& { return s.max_variants; }),
  };
  return k;
}

}  // namespace ecmpsim::config
