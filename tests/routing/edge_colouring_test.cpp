#include <doctest/doctest.h>

#include <map>
#include <random>

#include "sim/routing/edge_colouring.h"

namespace edge_colouring_test {

using namespace ecmpsim;

namespace {

using Edges = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Whether every vertex of degree d carries each of the k colours on
// floor(d/k) or ceil(d/k) of its edges (and every colour is below k).
bool equitable(std::uint32_t left, const Edges& edges, const std::vector<std::uint32_t>& colour, std::uint32_t k) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> uses;  // (vertex, colour) -> edges
  std::map<std::uint32_t, std::uint32_t> degree;
  for (std::size_t e = 0; e < edges.size(); ++e) {
    if (colour[e] >= k) return false;
    for (std::uint32_t v : {edges[e].first, left + edges[e].second}) {
      ++uses[{v, colour[e]}];
      ++degree[v];
    }
  }
  for (const auto& [v, d] : degree)
    for (std::uint32_t c = 0; c < k; ++c) {
      const auto it = uses.find({v, c});
      const std::uint32_t n = it == uses.end() ? 0 : it->second;
      if (n < d / k || n > (d + k - 1) / k) return false;
    }
  return true;
}

}  // namespace

TEST_CASE("the checker refuses a colouring that is not equitable (negative control)") {
  // One vertex with 4 edges and 2 colours must carry 2 of each.
  const Edges edges{{0, 0}, {0, 1}, {0, 2}, {0, 3}};
  CHECK(equitable(1, edges, {0, 1, 0, 1}, 2));
  CHECK_FALSE(equitable(1, edges, {0, 0, 0, 1}, 2));
  CHECK_FALSE(equitable(1, edges, {0, 1, 0, 2}, 2));
}

TEST_CASE("a 4-regular bipartite multigraph splits into 4 perfect matchings (König)") {
  // paper16's leaves: each of 4 sources sends to each of 2 destinations twice.
  Edges edges;
  for (std::uint32_t u = 0; u < 4; ++u)
    for (std::uint32_t v : {u % 4, (u + 1) % 4}) edges.insert(edges.end(), 2, {u, v});
  const auto colour = equitable_edge_colouring(4, 4, edges, 4);
  CHECK(equitable(4, edges, colour, 4));
  // Proper: no vertex sees a colour twice.
  for (std::uint32_t c = 0; c < 4; ++c) {
    std::map<std::uint32_t, int> left, right;
    for (std::size_t e = 0; e < edges.size(); ++e)
      if (colour[e] == c) {
        CHECK(++left[edges[e].first] == 1);
        CHECK(++right[edges[e].second] == 1);
      }
  }
}

TEST_CASE("an edge order that needs a three-edge alternating-path swap, worked by hand") {
  // Left a=0, b=1, c=2; right x=0, y=1; k = 2; each end takes its lowest free colour.
  // (a,x): 0. (b,y): 0. (b,x): b and x both free at 1 -> 1. (c,y): c is free
  // at 0 but y holds 0 (edge b-y), so the 0,1,0 path from y swaps: b-y 0->1,
  // b-x 1->0, a-x 0->1 (a has no colour-1 edge: the path ends); then c-y takes 0.
  const Edges edges{{0, 0}, {1, 1}, {1, 0}, {2, 1}};
  const auto colour = equitable_edge_colouring(3, 2, edges, 2);
  CHECK(colour == std::vector<std::uint32_t>{1, 1, 0, 0});
  CHECK(equitable(3, edges, colour, 2));
}

TEST_CASE("random multigraphs: every vertex floor/ceil of each colour (de Werra)") {
  std::mt19937 rng(20);
  for (int round = 0; round < 200; ++round) {
    const std::uint32_t left = 1 + rng() % 6, right = 1 + rng() % 6, k = 1 + rng() % 5;
    Edges edges(rng() % 60);
    for (auto& e : edges) e = {static_cast<std::uint32_t>(rng() % left), static_cast<std::uint32_t>(rng() % right)};
    CAPTURE(round);
    CHECK(equitable(left, edges, equitable_edge_colouring(left, right, edges, k), k));
  }
}
}  // namespace edge_colouring_test
