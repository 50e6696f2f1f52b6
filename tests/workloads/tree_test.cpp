#include <doctest/doctest.h>

#include <vector>

#include "workloads/tree.h"

using namespace ecmpsim::workloads;

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

TEST_CASE("tree all-reduce flows on 2 nodes x 8 NICs, worked by hand") {
  // 4 channels = 2 search channels: channels 0, 1 run tree 0 (node 1's parent
  // is node 0), channels 2, 3 tree 1 (node 0's parent is node 1). Channel c
  // uses NIC (c mod 2) on both nodes; each edge carries S/4 each way.
  JobLayout layout{8, 8, {}};
  std::vector<std::uint32_t> ips(16);
  for (std::uint32_t e = 0; e < 16; ++e) layout.nics.push_back(e);
  RoceParams roce;
  QpnAllocator qpns(16, roce);
  FlowMaker maker(roce, qpns, ips, 0, Collective::TreeAllReduce);
  Flows flows;
  CollectiveParams p;
  p.collective = Collective::TreeAllReduce;
  p.message_bytes = 4000;
  p.channels = 4;
  generate(p, layout, maker, flows);
  REQUIRE(flows.size() == 8);
  const std::vector<std::uint32_t> src{8, 0, 9, 1, 0, 8, 1, 9}, dst{0, 8, 1, 9, 8, 0, 9, 1};
  CHECK(flows.src == src);
  CHECK(flows.dst == dst);
  for (auto b : flows.bytes) CHECK(b == 1000);
}
