// [hosts] and [calibration]: the keys reach the spec, [calibration] wins
// over [hosts] wherever it stands, and bad values are one-line errors at
// the key (file:line:column, the key, the cause).
#include <doctest/doctest.h>

#include "sim/config/config.h"
#include "tests/support/config_error.h"

namespace hosts_config_test {

using namespace ecmpsim;

namespace {
std::string error_of(const std::string& text) { return test_support::config_error(text); }
}  // namespace

TEST_CASE("[hosts] keys, and [calibration] over them in either order") {
  const Spec defaults = parse_config("", "t.toml");
  CHECK(defaults.hosts.intra == workloads::IntraLink::NVLink);
  CHECK(defaults.hosts.intra_busbw == 0);
  CHECK(defaults.hosts.roce_mtu == 4096);
  CHECK(defaults.hosts.nic_efficiency == 1.0);
  CHECK(defaults.hosts.net_overhead_us == -1);  // unset: the cpu's (x86 Intel 1.0, AMD 2.0)
  CHECK(defaults.hosts.net_latency_us == 0);
  const std::string hosts =
      "[hosts]\nintra = \"pci\"\nintra_busbw_gbs = 24\nroce_mtu = 1024\nnic_efficiency = 0.9\n"
      "net_overhead_us = 2\nnet_latency_us = 1.5\n";
  const std::string calibration = "[calibration]\nnic_efficiency = 0.8\nnet_latency_us = 3\n";
  for (const std::string& text : {hosts + calibration, calibration + hosts}) {
    const Spec s = parse_config(text, "t.toml");
    CHECK(s.hosts.intra == workloads::IntraLink::PCI);
    CHECK(s.hosts.intra_busbw == 24);
    CHECK(s.hosts.roce_mtu == 1024);
    CHECK(s.hosts.net_overhead_us == 2);
    CHECK(s.hosts.nic_efficiency == 0.8);  // [calibration]'s
    CHECK(s.hosts.net_latency_us == 3);
  }
  // Negative control: without [calibration] the [hosts] values stand.
  CHECK(parse_config(hosts, "t.toml").hosts.nic_efficiency == 0.9);
}

TEST_CASE("bad host values: the key, its line and column, the cause") {
  CHECK(error_of("[hosts]\nroce_mtu = 1000\n") ==
        "t.toml:2:12: hosts.roce_mtu: expected one of 256, 512, 1024, 2048, 4096");
  CHECK(error_of("[hosts]\nnic_efficiency = 0\n") == "t.toml:2:18: hosts.nic_efficiency: value 0 out of range (0, 1]");
  CHECK(error_of("[calibration]\nnic_efficiency = 1.5\n") ==
        "t.toml:2:18: calibration.nic_efficiency: value 1.5 out of range (0, 1]");
  CHECK(error_of("[hosts]\nintra = \"nvme\"\n") ==
        "t.toml:2:9: hosts.intra: unknown value 'nvme', expected one of \"nvlink\" | \"pci\"");
  CHECK(error_of("[hosts]\nnet_latency_us = -1\n") == "t.toml:2:18: hosts.net_latency_us: value -1 out of range [0, 10000]");
  CHECK(error_of("[calibration]\nnic_eficiency = 0.5\n") ==
        "t.toml:2:17: calibration.nic_eficiency: unknown key (did you mean 'nic_efficiency'?)");
  CHECK(error_of("calibration = 3\n") == "t.toml:1:15: calibration: expected a table");
}

}  // namespace hosts_config_test
