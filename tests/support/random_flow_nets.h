// Random inputs for the flow model's comparisons (tests/model/): networks of
// random links and paths, and multi-job mix configs like
// bench/configs/scale-ft16-jobs.toml, scaled down. Shared by the reference,
// grouping-free and local re-solve comparisons so each draws the same kind of
// case from its own seed.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sim/model/flow_model.h"

namespace ecmpsim::test_support {

// A network of up to `max_links` links (one case in ten with dead ones when
// `dead`) and up to `max_flows` flows of 1..`max_hops` distinct links each;
// `size(f)` gives flow f's bytes; a third of the cases (trial % 3 == 2) split
// flows with fractions k/8.
struct RandomFlowNet {
  std::vector<Gbps> cap;
  std::vector<std::uint64_t> bytes;
  std::vector<std::uint32_t> begin{0};
  std::vector<LinkId> path;
  std::vector<double> fraction;
  FlowNetwork view() const { return {cap, bytes, begin, path, fraction}; }
};

template <typename Size>
RandomFlowNet random_flow_net(std::mt19937& rng, int trial, std::size_t max_links, std::size_t max_flows,
                              std::size_t max_hops, Size size) {
  RandomFlowNet n;
  const std::size_t links = 3 + rng() % max_links, flows = 1 + rng() % max_flows;
  const bool dead = trial % 10 == 0;
  for (std::size_t l = 0; l < links; ++l)
    n.cap.push_back(Gbps{std::array{10.0, 25.0, 40.0, 100.0, 400.0, 0.0}[rng() % (dead ? 6 : 5)]});
  for (std::size_t f = 0; f < flows; ++f) {
    n.bytes.push_back(size(rng));
    const std::size_t hops = 1 + rng() % max_hops;
    for (std::size_t h = 0; h < hops; ++h) {
      const auto l = static_cast<LinkId>(rng() % links);
      if (std::find(n.path.begin() + n.begin.back(), n.path.end(), l) == n.path.end()) n.path.push_back(l);
    }
    n.begin.push_back(static_cast<std::uint32_t>(n.path.size()));
  }
  if (trial % 3 == 2)
    for (std::size_t i = 0; i < n.path.size(); ++i) n.fraction.push_back(static_cast<double>(1 + rng() % 8) / 8);
  return n;
}

// A ring all-reduce and an all-to-all always, then up to two more jobs, each
// placed at random with its own message size and channel count, on a fat-tree
// of one of `ks`; jobs after the first take up to `more_nodes` nodes; ECMP,
// and spraying as well in one case in `spray_one_in`.
inline std::string mix_config(std::mt19937& rng, std::initializer_list<unsigned> ks, std::size_t more_nodes,
                              unsigned spray_one_in) {
  std::ostringstream c;
  const unsigned k = *(ks.begin() + rng() % ks.size());
  c << "[fabric]\nkind = \"fat-tree\"\nk = " << k << "\nhost_speed_gbps = 400\nfabric_speed_gbps = "
    << std::array{100, 200, 400}[rng() % 3] << "\n";
  std::size_t left = k * k * k / 4;
  const std::array<const char*, 5> more{"ring-allreduce", "tree-allreduce", "allgather", "alltoall", "sendrecv"};
  const std::size_t jobs = 2 + rng() % 3;
  for (std::size_t j = 0; j < jobs && left >= 2; ++j) {
    const char* collective = j == 0 ? "ring-allreduce" : j == 1 ? "alltoall" : more[rng() % more.size()];
    const std::size_t nodes = 2 + rng() % std::min<std::size_t>(left - 1, j == 0 ? left / 2 : more_nodes);
    left -= nodes;
    c << "[[job]]\ncollective = \"" << collective << "\"\nnodes = " << nodes << "\nplacement = \"random\"\nseed = "
      << rng() % 1000 << "\nmessage_bytes = " << (1 + rng() % 256) * 250'000 << "\nchannels = " << 1 + rng() % 4 << "\n";
  }
  c << "[[scenario]]\nname = \"ecmp\"\n[scenario.hash]\nalgo = \"crc16-ccitt\"\nseed = " << rng() % 100 << "\n";
  if (rng() % spray_one_in == 0) c << "[[scenario]]\nname = \"spray\"\nrouting = \"spray\"\n";
  return c.str();
}

}  // namespace ecmpsim::test_support
