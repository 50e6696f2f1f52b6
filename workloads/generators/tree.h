// NCCL's double binary tree over nodes (src/graph/trees.cc) and the flows of
// tree all-reduce.
#pragma once

#include <array>
#include <cstdint>

#include "workloads/generators/job.h"

namespace ecmpsim::workloads {

struct TreeLinks {
  int up = -1;
  int down0 = -1;
  int down1 = -1;
  friend constexpr bool operator==(TreeLinks, TreeLinks) = default;
};

// ncclGetBtree: node r's parent and children in the binary tree over n nodes rooted at 0.
TreeLinks btree(int n, int r) noexcept;
// ncclGetDtree: tree 0 is btree; tree 1 shifts it by one (n odd) or mirrors it (n even).
std::array<TreeLinks, 2> dtree(int n, int r) noexcept;

// Channel c runs tree (c / P) mod 2, P = search_channels: ncclTopoPreset gives
// channel c < P tree 0 and its copy c+P tree 1 (connectTrees), and the copies
// NCCL makes after (copyChannels) repeat that pattern every 2P channels. It
// uses NIC (c mod P) mod K on both ends of an edge (tree graphs are
// symmetric; K counts the NICs of search_nic_order, locality.h). Each edge carries the channel's share of S, S/C, up (reduce)
// and the same down (broadcast), split over the QPs of a connection.
void tree_flows(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out);

}  // namespace ecmpsim::workloads
