// The rows of NCCL's tuner constants, each read at the tag it names with
// `git show <tag>:src/graph/tuning.cc`; the values between two rows' tags
// were checked unchanged (docs/prediction.md, "NCCL's tuner by release").
#include "sim/model/nccl_tuning.h"

namespace ecmpsim {

namespace {

using V = workloads::NcclVersion;

// baseLat: 2.18.3 gives CollNet and NVLS their own; 2.19 zeroes them; 2.23
// gives Tree Simple 8.4 and PAT its base of 8 (in the formula until 2.27, in
// the table from 2.28).
constexpr NcclLatencies kBase218{{{6.8, 14.0, 0}, {6.6, 14.0, 8.4}, {6.8, 14.0, 0}, {6.8, 14.0, 0}, {0, 0, 23.0}, {0, 0, 23.0}, {0, 0, 0}}};
constexpr NcclLatencies kBase219{{{6.8, 14.0, 0}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
constexpr NcclLatencies kBase223{{{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {8.0, 8.0, 8.0}}};

// hwLat[NVLINK], [PCI], [NET].
constexpr NcclLatencies kNvl218{{{.6, 1.25, 4}, {.6, 1.9, 3.4}, {0, 0, 8.0}, {0, 0, 4.75}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
constexpr NcclLatencies kPci218{{{1.0, 1.9, 6}, {1.0, 2.5, 5.7}, {0, 0, 8.0}, {0, 0, 8.0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
constexpr NcclLatencies kNet218{{{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 10.7}, {0, 0, 14}, {0, 0, 18}, {0, 0, 19}, {0, 0, 0}}};
// 2.18.1: Tree Simple 28 on every hop (2.18.3 lowers it, 2.19 restores it).
constexpr NcclLatencies kNvl2181{{{.6, 1.25, 28}, {.6, 1.9, 3.4}, {0, 0, 8.0}, {0, 0, 4.75}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
constexpr NcclLatencies kPci2181{{{1.0, 1.9, 28}, {1.0, 2.5, 5.7}, {0, 0, 8.0}, {0, 0, 8.0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
constexpr NcclLatencies kNet2181{{{5.0, 8.5, 28}, {2.7, 4.0, 14.0}, {0, 0, 10.7}, {0, 0, 14}, {0, 0, 18}, {0, 0, 19}, {0, 0, 0}}};
constexpr NcclLatencies kNvl219{{{.6, 1.25, 28}, {.6, 1.9, 3.4}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 23}, {0, 0, 23}, {0, 0, 0}}};
constexpr NcclLatencies kNvl221{{{.6, 1.25, 28}, {.6, 1.9, 3.4}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 25}, {0, 0, 25}, {0, 0, 0}}};
constexpr NcclLatencies kPci219{{{1.0, 1.9, 28}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
constexpr NcclLatencies kNet219{{{5.0, 8.5, 28}, {2.7, 4.0, 14.0}, {0, 0, 31}, {0, 0, 30}, {0, 0, 18}, {0, 0, 14}, {0, 0, 0}}};
// PAT's rows are zero until 2.27 (the table has six algorithms) and 4.0 /
// 4.0 / 14 from 2.28; PAT runs with one GPU per node, where it takes the
// Tree NET row, so they never enter its latency.
constexpr NcclLatencies kNvl223{{{.6, 1.25, 4.0}, {.6, 1.9, 3.4}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 25}, {0, 0, 25}, {0, 0, 0}}};
constexpr NcclLatencies kPci223{{{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
constexpr NcclLatencies kNet223{{{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 31}, {0, 0, 30}, {0, 0, 18}, {0, 0, 14}, {0, 0, 0}}};
constexpr NcclLatencies kNvl228{{{.6, 1.25, 4.0}, {.6, 1.9, 3.4}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 25}, {0, 0, 25}, {0, 0, 4.0}}};
constexpr NcclLatencies kPci228{{{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}, {0, 0, 3.7}, {0, 0, 2.8}, {0, 0, 0}, {0, 0, 0}, {0, 0, 4.0}}};
constexpr NcclLatencies kNet228{{{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 31}, {0, 0, 30}, {0, 0, 18}, {0, 0, 14}, {0, 0, 14}}};
constexpr NcclLatencies kNet2289{{{5.0, 8.5, 14}, {2.7, 4.0, 14.0}, {0, 0, 31}, {0, 0, 30}, {0, 0, 18}, {0, 0, 20.9}, {0, 0, 14}}};

// Caps. Before 2.25 NCCL has no Blackwell row and indexes sm100 as Hopper, so
// the fourth row repeats Hopper's; llMaxBws' Hopper row was Ampere's until 2.20.
constexpr NcclCaps kLlMax218{{{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {87.7, 22.5, 19.0}, {87.7, 22.5, 19.0}}};
constexpr NcclCaps kLlMax221{{{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {141.0, 45.0, 35.0}}};
constexpr NcclCaps kLlMax225{{{39.0, 39.0, 20.4}, {87.7, 22.5, 19.0}, {141.0, 45.0, 35.0}, {2 * 141.0, 2 * 45.0, 2 * 35.0}}};
constexpr NcclCaps kRingLl128{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {36.7, 36.7, 36.7}}};
constexpr NcclCaps kRingLl128225{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {2 * 36.7, 2 * 36.7, 2 * 36.7}}};
constexpr NcclCaps kRingLl1282287{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {2 * 36.7, 34.6, 2 * 36.7}}};
constexpr NcclCaps kRingLl128229{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {34.5, 34.6, 34.5}}};
constexpr NcclCaps kRingLl1282297{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {40.0, 40.0, 40.0}}};
// 2.18.1 has one LL128 cap per architecture (ll128MaxBwPerCh 20, 20, 36.7)
// for rings and trees alike, and Hopper's tree cap 33 beyond two nodes.
constexpr NcclCaps kTreeLl1282181{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}, {36.7, 36.7, 36.7}}};
constexpr NcclCaps kTreeLl128{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {36.7, 36.7, 29.0}}};
constexpr NcclCaps kTreeLl128225{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {2 * 36.7, 2 * 36.7, 2 * 29.0}}};
constexpr NcclCaps kTreeLl128228{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}}};
constexpr NcclCaps kTree{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {38.7, 41.4, 36.0}}};
constexpr NcclCaps kTree2181{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 33.0}, {38.7, 41.4, 33.0}}};
constexpr NcclCaps kTree225{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {2 * 38.7, 2 * 41.4, 2 * 36.0}}};
constexpr NcclCaps kTree228{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}, {70.0, 42.8, 24.0}}};
constexpr NcclCaps kNoCaps{};
constexpr NcclCaps kNvlsTree228{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 43.1}}};
constexpr NcclCaps kNvlsTree2289{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 43.8}}};
constexpr NcclCaps kNvlsTree230{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}}};
constexpr std::array<double, 4> kNoEff{};
constexpr std::array<double, 4> kNvlsEff{0.0, 0.0, 0.85, 0.74};

using enum NvlsModel;

}  // namespace

// from, tag, base, nvlink, pci, net, llMax, ringLL128, treeLL128, tree, nvlsTree, nvlsEff,
// ring_ll_half, ll128_ppn, inter_steps_2n, ppn1_tree_net, pat, nvls, collnet_agrs, ll128_sm100, ll128_any, nvlstree_corr
const std::array<NcclTuningRow, 15> kNcclTuning{{
    {V{2, 18, 1}, "v2.18.1-1", kBase218, kNvl2181, kPci2181, kNet2181, kLlMax218, kRingLl128, kTreeLl1282181, kTree2181,
     kNoCaps, kNoEff, false, true, true, false, 0, Graph2181, false, false, false, false},
    {V{2, 18, 3}, "v2.18.3-1", kBase218, kNvl218, kPci218, kNet218, kLlMax218, kRingLl128, kTreeLl128, kTree, kNoCaps,
     kNoEff, false, true, true, false, 0, Graph218, false, false, false, false},
    {V{2, 19, 0}, "v2.19.3-1", kBase219, kNvl219, kPci219, kNet219, kLlMax218, kRingLl128, kTreeLl128, kTree, kNoCaps,
     kNoEff, false, true, true, false, 0, Min219, false, false, false, false},
    {V{2, 20, 0}, "v2.20.3-1", kBase219, kNvl219, kPci219, kNet219, kLlMax218, kRingLl128, kTreeLl128, kTree, kNoCaps,
     kNoEff, false, true, true, false, 0, Min219, true, false, false, false},
    {V{2, 21, 0}, "v2.21.5-1", kBase219, kNvl221, kPci219, kNet219, kLlMax221, kRingLl128, kTreeLl128, kTree, kNoCaps,
     kNoEff, true, true, true, false, 0, Min219, true, false, false, false},
    {V{2, 23, 0}, "v2.23.4-1", kBase223, kNvl223, kPci223, kNet223, kLlMax221, kRingLl128, kTreeLl128, kTree, kNoCaps,
     kNoEff, true, false, false, true, .85, Min219, true, false, false, false},
    {V{2, 24, 0}, "v2.24.3-1", kBase223, kNvl223, kPci223, kNet223, kLlMax221, kRingLl128, kTreeLl128, kTree, kNoCaps,
     kNoEff, true, false, false, true, .75, Min219, true, false, false, false},
    {V{2, 25, 0}, "v2.25.1-1", kBase223, kNvl223, kPci223, kNet223, kLlMax225, kRingLl128225, kTreeLl128225, kTree225,
     kNoCaps, kNoEff, true, false, false, true, .75, Min219, true, true, false, false},
    {V{2, 27, 0}, "v2.27.3-1", kBase223, kNvl223, kPci223, kNet223, kLlMax225, kRingLl128225, kTreeLl128225, kTree225,
     kNoCaps, kNoEff, true, false, false, true, .75, AgRs227, true, true, true, false},
    {V{2, 28, 0}, "v2.28.3-1", kBase223, kNvl228, kPci228, kNet228, kLlMax225, kRingLl128225, kTreeLl128228, kTree228,
     kNvlsTree228, kNvlsEff, true, false, false, true, .75, Efficiency, true, true, true, false},
    {V{2, 28, 7}, "v2.28.7-1", kBase223, kNvl228, kPci228, kNet228, kLlMax225, kRingLl1282287, kTreeLl128228, kTree228,
     kNvlsTree228, kNvlsEff, true, false, false, true, .75, Efficiency, true, true, true, false},
    {V{2, 28, 9}, "v2.28.9-1", kBase223, kNvl228, kPci228, kNet2289, kLlMax225, kRingLl1282287, kTreeLl128228, kTree228,
     kNvlsTree2289, kNvlsEff, true, false, false, true, .75, Efficiency, true, true, true, false},
    {V{2, 29, 0}, "v2.29.2-1", kBase223, kNvl228, kPci228, kNet2289, kLlMax225, kRingLl128229, kTreeLl128228, kTree228,
     kNvlsTree2289, kNvlsEff, true, false, false, true, .75, Efficiency, true, true, true, true},
    {V{2, 29, 7}, "v2.29.7-1", kBase223, kNvl228, kPci228, kNet2289, kLlMax225, kRingLl1282297, kTreeLl128228, kTree228,
     kNvlsTree2289, kNvlsEff, true, false, false, true, .75, Efficiency, true, true, true, true},
    {V{2, 30, 0}, "v2.30.3-1", kBase223, kNvl228, kPci228, kNet2289, kLlMax225, kRingLl1282297, kTreeLl128228, kTree228,
     kNvlsTree230, kNvlsEff, true, false, false, true, .75, Efficiency, true, true, true, true},
}};

const NcclTuningRow* nccl_tuning(workloads::NcclVersion v) noexcept {
  const NcclTuningRow* r = nullptr;
  for (const NcclTuningRow& row : kNcclTuning)
    if (row.from <= v) r = &row;
  return r;
}

// Unchanged from 2.18.3 to 2.30.7 but for the 24th entry 2.29 appends.
const std::array<std::array<double, 24>, 3> kNcclTreeCorrection{{
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9},
}};

}  // namespace ecmpsim
