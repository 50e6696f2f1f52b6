// The TOML config loader and validator, then the simulation on small fabrics.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/config/config.h"
#include "sim/model/simulation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    ecmpsim::Spec spec = ecmpsim::parse_config(text, "fuzz.toml");
    const auto& ls = spec.fabric.leaf_spine;
    // Large but valid fabrics are legitimate inputs; only the small ones are run.
    if (std::uint64_t{ls.leaves} * ls.hosts_per_leaf > 256 || ls.spines * ls.links_per_pair > 64 ||
        spec.fabric.gpus_per_node > 16 || spec.jobs.size() > 4)
      return 0;
    for (const auto& job : spec.jobs)
      if (std::uint64_t{job.channels} * job.qps_per_connection > 64) return 0;
    const ecmpsim::Simulation sim(std::move(spec));
    for (const auto& s : sim.spec().scenarios) sim.run(s);
  } catch (const ecmpsim::InputError&) {
  }
  return 0;
}
