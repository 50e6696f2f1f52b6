// The bytes of a sample under tests/data/, for the importers' tests (one
// reader: a missing sample fails the test that asked for it).
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace ecmpsim::test_support {

// `name` relative to tests/data/, as "roce_mixed.pcap" or "rdma/host1.json".
inline std::string test_data(const std::string& name) {
  std::ifstream in(std::string(ECMPSIM_SOURCE_DIR "/tests/data/") + name, std::ios::binary);
  REQUIRE_MESSAGE(in, "no tests/data/" << name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace ecmpsim::test_support
