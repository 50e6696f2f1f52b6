// Equitable edge colouring of a bipartite multigraph, the exact step of the
// source-port planner on two tiers (sim/routing/port_plan.h): flows are edges
// from their source ToR to their destination ToR, colours are spines.
//
// König's theorem: a bipartite multigraph of maximum degree D has a proper
// edge colouring with D colours. De Werra's extension: for any k it has a
// k-colouring in which every vertex of degree d carries each colour on
// floor(d/k) or ceil(d/k) of its edges. Construction: split every vertex
// into copies of degree at most k (its edges in order, k per copy, the last
// copy taking the rest), colour the split graph properly with k colours, and
// merge the copies back. The proper colouring adds one edge at a time: with
// colour a free at its left end u and b free at its right end v, it uses a
// if a is also free at v; otherwise it swaps a and b along the path from v
// whose edges alternate a, b, ... — in a bipartite graph that path never
// reaches u (left vertices on it are entered by a-edges, and u has none), so
// afterwards a is free at both ends.
//
// Cost: O(E x (k + L)) time, where L is the longest alternating path (at
// most the number of split vertices, in practice a few), and
// O((E + V x k)) memory.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ecmpsim {

// edges[i] = {left vertex < left, right vertex < right}. Returns each edge's
// colour in [0, k): every vertex of degree d has each colour on floor(d/k)
// or ceil(d/k) of its edges. k >= 1.
std::vector<std::uint32_t> equitable_edge_colouring(std::uint32_t left, std::uint32_t right,
                                                    std::span<const std::pair<std::uint32_t, std::uint32_t>> edges,
                                                    std::uint32_t k);

}  // namespace ecmpsim
