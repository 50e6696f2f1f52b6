#include <doctest/doctest.h>

#include <vector>

#include "workloads/generators/tree.h"
#include "tests/support/synthetic_job.h"

namespace tree_test {

using namespace ecmpsim::workloads;
namespace hashing = ecmpsim::hashing;

TEST_CASE("ncclGetDtree: the n = 16 check from the reference") {
  CHECK(dtree(16, 0)[0] == TreeLinks{-1, -1, 8});
  CHECK(dtree(16, 8)[0] == TreeLinks{0, 4, 12});
  CHECK(dtree(16, 15)[0] == TreeLinks{14, -1, -1});
}

// Small trees worked by hand from the ncclGetBtree rules (bit = lowest set bit
// of r, or the first power of two >= n for r = 0; up = (r^bit)|(bit<<1), or
// r^bit when that is >= n; children r -/+ bit/2, d1 shrinking until < n).
// Tree 1: n even mirrors (btree at n-1-r, x -> n-1-x), n odd shifts
// (btree at (r-1+n)%n, x -> (x+1)%n).
TEST_CASE("ncclGetDtree on n = 2, 3, 4, 5 worked by hand") {
  SUBCASE("n = 2: tree 0 is 0 -> 1, tree 1 (mirror) is 1 -> 0") {
    CHECK(dtree(2, 0)[0] == TreeLinks{-1, -1, 1});  // bit = 2, d1 = 1
    CHECK(dtree(2, 1)[0] == TreeLinks{0, -1, -1});  // up = 0|2 = 2 >= 2 -> 1^1 = 0
    CHECK(dtree(2, 0)[1] == TreeLinks{1, -1, -1});  // btree(2,1) = (0,-,-) mirrored
    CHECK(dtree(2, 1)[1] == TreeLinks{-1, -1, 0});
  }
  SUBCASE("n = 3: tree 0 is the chain 0 -> 2 -> 1, tree 1 (shift) 1 -> 0 -> 2") {
    CHECK(dtree(3, 0)[0] == TreeLinks{-1, -1, 2});  // bit = 4, d1 = 2
    CHECK(dtree(3, 1)[0] == TreeLinks{2, -1, -1});  // up = 0|2 = 2
    CHECK(dtree(3, 2)[0] == TreeLinks{0, 1, -1});   // up = 4 >= 3 -> 0; d0 = 1; d1 = 3 -> 3 -> -1
    CHECK(dtree(3, 0)[1] == TreeLinks{1, 2, -1});   // btree(3,2) = (0,1,-) shifted
    CHECK(dtree(3, 1)[1] == TreeLinks{-1, -1, 0});  // btree(3,0) = (-,-,2) shifted
    CHECK(dtree(3, 2)[1] == TreeLinks{0, -1, -1});  // btree(3,1) = (2,-,-) shifted
  }
  SUBCASE("n = 4") {
    CHECK(dtree(4, 0)[0] == TreeLinks{-1, -1, 2});
    CHECK(dtree(4, 1)[0] == TreeLinks{2, -1, -1});
    CHECK(dtree(4, 2)[0] == TreeLinks{0, 1, 3});
    CHECK(dtree(4, 3)[0] == TreeLinks{2, -1, -1});
    CHECK(dtree(4, 0)[1] == TreeLinks{1, -1, -1});  // btree(4,3) = (2,-,-) mirrored
    CHECK(dtree(4, 1)[1] == TreeLinks{3, 2, 0});    // btree(4,2) = (0,1,3) mirrored
    CHECK(dtree(4, 2)[1] == TreeLinks{1, -1, -1});
    CHECK(dtree(4, 3)[1] == TreeLinks{-1, -1, 1});
  }
  SUBCASE("n = 5") {
    CHECK(dtree(5, 0)[0] == TreeLinks{-1, -1, 4});  // bit = 8, d1 = 4
    CHECK(dtree(5, 2)[0] == TreeLinks{4, 1, 3});    // up = 0|4 = 4 < 5
    CHECK(dtree(5, 4)[0] == TreeLinks{0, 2, -1});   // d1: 6 -> 6 -> 5 -> -1
    CHECK(dtree(5, 0)[1] == TreeLinks{1, 3, -1});   // btree(5,4) = (0,2,-) shifted
    CHECK(dtree(5, 1)[1] == TreeLinks{-1, -1, 0});
    CHECK(dtree(5, 3)[1] == TreeLinks{0, 2, 4});    // btree(5,2) = (4,1,3) shifted
  }
}

TEST_CASE("both trees are trees: every node but the root is a child of its parent") {
  for (int n = 1; n <= 70; ++n)
    for (int t = 0; t < 2; ++t) {
      int roots = 0;
      for (int r = 0; r < n; ++r) {
        const TreeLinks l = dtree(n, r)[t];
        if (l.up == -1) {
          ++roots;
          continue;
        }
        const TreeLinks parent = dtree(n, l.up)[t];
        CHECK((parent.down0 == r || parent.down1 == r));
      }
      CHECK(roots == 1);
    }
}

namespace {

// A tree all-reduce of `bytes` over nodes of `nics` NICs each (node n's NIC k
// is endpoint n*nics + k).
Flows tree_allreduce(std::uint32_t nodes, std::uint32_t nics, std::uint64_t bytes, std::uint32_t channels,
                     std::uint32_t search_channels = 0) {
  CollectiveParams p;
  p.collective = Collective::TreeAllReduce;
  p.message_bytes = bytes;
  p.channels = channels;
  p.search_channels = search_channels;
  return ecmpsim::test_support::synthetic_flows(p, nodes, 8, nics);
}

}  // namespace

TEST_CASE("tree all-reduce flows on 2 nodes x 8 NICs, worked by hand") {
  // 4 channels = 2 search channels: channels 0, 1 run tree 0 (node 1's parent
  // is node 0), channels 2, 3 tree 1 (node 0's parent is node 1). Channel c
  // uses NIC (c mod 2) on both nodes; each edge carries S/4 each way.
  const Flows flows = tree_allreduce(2, 8, 4000, 4);
  REQUIRE(flows.size() == 8);
  const std::vector<std::uint32_t> src{8, 0, 9, 1, 0, 8, 1, 9}, dst{0, 8, 1, 9, 8, 0, 9, 1};
  CHECK(flows.src == src);
  CHECK(flows.dst == dst);
  for (auto b : flows.bytes) CHECK(b == 1000);
}

namespace {

// NCCL's channel bookkeeping for trees, replayed on arrays as its source does it:
// ncclTopoPreset copies channels 0..P-1 to P..2P-1 and connectTrees gives the
// first half tree 0 and the copies tree 1; ncclTopoPostset then has 2P channels,
// which NCCL_MAX_NCHANNELS cuts to C, or copyChannels(comm, 2P, C) extends
// (channel c copies channel c - 2P, for the H100 doubling or NCCL_MIN_NCHANNELS).
std::vector<int> nccl_trees(std::uint32_t p, std::uint32_t c) {
  std::vector<int> tree(2 * p);
  for (std::uint32_t i = 0; i < p; ++i) {
    tree[i] = 0;
    tree[i + p] = 1;
  }
  if (c <= 2 * p) {
    tree.resize(c);
  } else {
    const std::uint32_t start = 2 * p;
    tree.resize(c);
    for (std::uint32_t i = start; i < c; ++i) tree[i] = tree[i - start];
  }
  return tree;
}

// The tree each channel of a 2-node tree all-reduce runs: on tree 0 node 1's
// parent is node 0, on tree 1 node 0's parent is node 1; the first flow of a
// channel goes child -> parent.
std::vector<int> generated_trees(std::uint32_t channels, std::uint32_t search_channels) {
  const Flows flows = tree_allreduce(2, 1, 1 << 20, channels, search_channels);
  std::vector<int> tree;
  for (std::size_t f = 0; f < flows.size(); f += 2) tree.push_back(flows.src[f] == 1 ? 0 : 1);
  return tree;
}

}  // namespace

TEST_CASE("tree per channel follows NCCL's channel doubling, for every channel count") {
  // Odd counts worked by hand: C = 3 is 2P = 4 cut by one, P = 2 (trees 0, 0, 1);
  // C = 5: P = 3 (0, 0, 0, 1, 1); C = 1: P = 1, tree 0 only.
  CHECK(generated_trees(3, 0) == std::vector<int>{0, 0, 1});
  CHECK(generated_trees(5, 0) == std::vector<int>{0, 0, 0, 1, 1});
  CHECK(generated_trees(1, 0) == std::vector<int>{0});
  for (std::uint32_t c = 1; c <= 24; ++c) {
    CAPTURE(c);
    // The default P = ceil(C/2): both trees get channels whenever C > 1.
    CHECK(generated_trees(c, 0) == nccl_trees((c + 1) / 2, c));
    // Every explicit P <= C, including P = C (NCCL_MAX_NCHANNELS cut the doubled
    // channels back to the search's: NCCL itself then runs tree 0 only) and
    // P = C/4 (H100 doubling after the usual one).
    for (std::uint32_t p = 1; p <= c; ++p) {
      CAPTURE(p);
      CHECK(generated_trees(c, p) == nccl_trees(p, c));
    }
  }
  // Negative control: the reference tells the trees apart.
  CHECK(nccl_trees(2, 4) != nccl_trees(4, 4));
}
}  // namespace tree_test
