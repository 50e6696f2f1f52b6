// The flow model with arrivals (FlowNetwork::start): a hand-worked pair of
// flows on one link, a network whose starts are all 0 given explicitly, and
// random networks against a naive reference written here (max-min by
// progressive filling from scratch at every arrival and finish).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "sim/model/flow_model.h"

namespace flow_arrivals_test {

using namespace ecmpsim;

namespace {

// Max-min rates of the active flows: the link with the least equal share
// fixes its unfixed flows at that share, until every active flow is fixed.
std::vector<double> max_min(const std::vector<double>& cap, const std::vector<std::vector<LinkId>>& paths,
                            const std::vector<char>& active) {
  std::vector<double> rate(paths.size(), 0), rem = cap;
  std::vector<char> fixed(paths.size());
  for (std::size_t f = 0; f < paths.size(); ++f) fixed[f] = !active[f];
  while (true) {
    std::vector<int> count(cap.size(), 0);
    for (std::size_t f = 0; f < paths.size(); ++f)
      if (!fixed[f])
        for (LinkId l : paths[f]) ++count[l];
    double best = std::numeric_limits<double>::infinity();
    LinkId at = 0;
    for (LinkId l = 0; l < cap.size(); ++l)
      if (count[l] > 0 && rem[l] / count[l] < best) {
        best = rem[l] / count[l];
        at = l;
      }
    if (std::isinf(best)) return rate;
    for (std::size_t f = 0; f < paths.size(); ++f) {
      if (fixed[f] || std::find(paths[f].begin(), paths[f].end(), at) == paths[f].end()) continue;
      fixed[f] = 1;
      rate[f] = best;
      for (LinkId l : paths[f]) rem[l] -= best;
    }
  }
}

std::vector<double> reference(const std::vector<double>& cap, const std::vector<std::vector<LinkId>>& paths,
                              const std::vector<double>& bits, const std::vector<double>& start) {
  const std::size_t n = paths.size();
  std::vector<double> left = bits, finish(n, -1);
  double now = 0;
  for (std::size_t done = 0; done < n;) {
    std::vector<char> active(n);
    for (std::size_t f = 0; f < n; ++f) active[f] = finish[f] < 0 && start[f] <= now;
    const std::vector<double> rate = max_min(cap, paths, active);
    double next = std::numeric_limits<double>::infinity();
    for (std::size_t f = 0; f < n; ++f) {
      if (finish[f] < 0 && start[f] > now) next = std::min(next, start[f]);
      if (active[f] && rate[f] > 0) next = std::min(next, now + left[f] / rate[f]);
    }
    for (std::size_t f = 0; f < n; ++f)
      if (active[f]) left[f] -= rate[f] * (next - now);
    now = next;
    for (std::size_t f = 0; f < n; ++f)
      if (active[f] && left[f] <= 1e-9 * bits[f]) {
        finish[f] = now;
        ++done;
      }
  }
  return finish;
}

}  // namespace

TEST_CASE("two flows on one link, the second arriving halfway through the first's time alone") {
  // 100 Gb/s; each flow 10 Gbit. A alone for 0.05 s sends 5 Gbit; then both
  // at 50 Gb/s: A's other 5 Gbit take 0.1 s (A ends at 0.15), by when B sent
  // 5 Gbit; B alone sends its last 5 Gbit in 0.05 s (ends at 0.2).
  const std::vector<Gbps> cap{Gbps{100}};
  const std::vector<std::uint64_t> bytes{1'250'000'000, 1'250'000'000};
  const std::vector<std::uint32_t> begin{0, 1, 2};
  const std::vector<LinkId> links{0, 0};
  const std::vector<double> start{0, 0.05};
  FlowModel model;
  FlowTimes t;
  model.run({cap, bytes, begin, links, {}, start}, t);
  CHECK(t.finish[0].value == doctest::Approx(0.15).epsilon(1e-12));
  CHECK(t.finish[1].value == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(t.start_rate[0].value == doctest::Approx(100));
  CHECK(t.start_rate[1].value == doctest::Approx(50));
  // Negative control: both from 0 share the link throughout and end together at 0.2.
  model.run({cap, bytes, begin, links}, t);
  CHECK(t.finish[0].value == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(t.finish[1].value == doctest::Approx(0.2).epsilon(1e-12));
}

TEST_CASE("random networks with arrivals match the naive reference") {
  std::mt19937_64 rng(48);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    const std::size_t links = 2 + rng() % 12, flows = 1 + rng() % 30;
    std::vector<Gbps> cap;
    std::vector<double> capd;
    for (std::size_t l = 0; l < links; ++l) {
      capd.push_back(static_cast<double>(1 + rng() % 8) * 50);
      cap.push_back(Gbps{capd.back()});
    }
    std::vector<std::vector<LinkId>> paths(flows);
    std::vector<std::uint64_t> bytes;
    std::vector<double> bits, start;
    std::vector<std::uint32_t> begin{0};
    std::vector<LinkId> flat;
    for (std::size_t f = 0; f < flows; ++f) {
      const std::size_t hops = 1 + rng() % 3;
      for (std::size_t h = 0; h < hops; ++h) {
        const auto l = static_cast<LinkId>(rng() % links);
        if (std::find(paths[f].begin(), paths[f].end(), l) == paths[f].end()) paths[f].push_back(l);
      }
      // Some flows share a path and a start: one group of the model.
      if (f > 0 && rng() % 4 == 0) paths[f] = paths[f - 1];
      flat.insert(flat.end(), paths[f].begin(), paths[f].end());
      begin.push_back(static_cast<std::uint32_t>(flat.size()));
      bytes.push_back((1 + rng() % 1000) * 1'000'000);
      bits.push_back(static_cast<double>(bytes.back()) * 8e-9);
      start.push_back(rng() % 3 == 0 ? 0.0 : static_cast<double>(rng() % 100) * 1e-3);
      if (f > 0 && paths[f] == paths[f - 1] && rng() % 2 == 0) start[f] = start[f - 1];
    }
    FlowModel model;
    FlowTimes t;
    model.run({cap, bytes, begin, flat, {}, start}, t);
    const std::vector<double> want = reference(capd, paths, bits, start);
    for (std::size_t f = 0; f < flows; ++f) {
      CAPTURE(f);
      CHECK(t.finish[f].value == doctest::Approx(want[f]).epsilon(1e-7));
    }
  }
}

TEST_CASE("starts all 0 given explicitly are the run without starts") {
  std::mt19937_64 rng(7);
  const std::vector<Gbps> cap{Gbps{400}, Gbps{200}, Gbps{100}};
  std::vector<std::uint64_t> bytes;
  std::vector<std::uint32_t> begin{0};
  std::vector<LinkId> flat;
  for (int f = 0; f < 50; ++f) {
    flat.push_back(static_cast<LinkId>(rng() % 3));
    if (rng() % 2) flat.push_back((flat.back() + 1) % 3);
    begin.push_back(static_cast<std::uint32_t>(flat.size()));
    bytes.push_back((1 + rng() % 100) * 1'000'000);
  }
  const std::vector<double> zero(bytes.size(), 0.0);
  FlowModel model;
  FlowTimes a, b;
  model.run({cap, bytes, begin, flat}, a);
  model.run({cap, bytes, begin, flat, {}, zero}, b);
  CHECK(a.finish == b.finish);
  CHECK(a.events == b.events);
}

}  // namespace flow_arrivals_test
