// ncclTopoCompute as a greedy spending of link bandwidth. NCCL's search is a
// recursive one with time-outs; on a node whose GPUs are alike, the
// channel-by-channel order below reaches what it reaches: a channel starts
// on NET nets[(c+i) mod n] (ncclTopoSearchRecNet), enters the first GPU of
// that NET's PCIe switch in rotation, visits the GPUs in NVSwitch neighbour
// order (previous first: ncclTopoSearchNextGpuSort), and leaves by the NET
// its crossNic rules allow, over the PCIe switch or through the NET's GPU
// (PXN). Every link keeps what is left of its bandwidth; a channel that does
// not fit is undone.
#include "workloads/generators/nccl_search.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

#include "workloads/generators/nccl_topo.h"
#include "workloads/generators/ring.h"

namespace ecmpsim::workloads {

namespace {

// The bandwidth left on every link of the node (GB/s), one entry per direction.
struct Links {
  std::vector<double> net_node, net_in, net_out, nic_down, nic_up, gpu_down, gpu_up, nvl_in, nvl_out;
};

Links full_links(const NcclNode& n) {
  return {std::vector<double>(n.nics, n.net_bw),      std::vector<double>(n.nics, n.net_bw),
          std::vector<double>(n.nics, n.net_bw),      std::vector<double>(n.nics, n.nic_pcie_bw),
          std::vector<double>(n.nics, n.nic_pcie_bw), std::vector<double>(n.gpus, n.gpu_pcie_bw),
          std::vector<double>(n.gpus, n.gpu_pcie_bw), std::vector<double>(n.gpus, n.nvlink_bw),
          std::vector<double>(n.gpus, n.nvlink_bw)};
}

// Taking bandwidth off links, with the undo log a failed channel rewinds.
class Ledger {
 public:
  // followPath: every link must still carry `bw`, then loses it (SUB_ROUND:
  // NCCL rounds what is left to 1e-3 GB/s).
  bool take(std::initializer_list<double*> path, double bw) {
    for (double* l : path)
      if (*l < bw) return false;
    for (double* l : path) {
      log_.push_back({l, *l});
      *l = std::round((*l - bw) * 1000) / 1000;
    }
    return true;
  }
  std::size_t mark() const noexcept { return log_.size(); }
  void undo(std::size_t to) {
    while (log_.size() > to) {
      *log_.back().first = log_.back().second;
      log_.pop_back();
    }
  }
  void commit() { log_.clear(); }

 private:
  std::vector<std::pair<double*, double>> log_;
};

struct Search {
  const NcclNode& node;
  NcclVersion version;
  std::vector<std::uint32_t> nets;                 // ncclTopoSelectNets' order
  std::vector<std::vector<std::uint32_t>> local;   // per NIC, the GPUs on its PCIe switch
  std::vector<std::vector<std::uint32_t>> near;    // per GPU, its NICs
  bool pxn = false;                                // typeInter reached PXN
  std::uint8_t cross = 0;                          // the graph's crossNic
};

Search make_search(const NcclNode& node, NcclVersion v) {
  Search s{node, v, search_nic_order(node.gpu_nics, node.gpus, node.nics), {}, {}};
  s.local.resize(node.nics);
  for (std::uint32_t g = 0; g < node.gpus; ++g) {
    s.near.push_back(nics_near_gpu(node.gpu_nics, g, node.gpus, node.nics));
    for (const std::uint32_t n : s.near.back())
      if (n < node.nics) s.local[n].push_back(g);
  }
  return s;
}

bool is_local(const Search& s, std::uint32_t gpu, std::uint32_t nic) {
  const auto& l = s.local[nic];
  return std::find(l.begin(), l.end(), gpu) != l.end();
}

// GPU a to GPU b: over the NVSwitch, or through both GPUs' PCIe links.
bool hop(const Search& s, Links& L, Ledger& led, std::uint32_t a, std::uint32_t b, double bw) {
  if (s.node.nvlink_bw > 0) return led.take({&L.nvl_out[a], &L.nvl_in[b]}, bw);
  return led.take({&L.gpu_up[a], &L.gpu_down[b]}, bw);
}

bool path_in(Links& L, Ledger& led, std::uint32_t nic, std::uint32_t gpu, double bw) {
  return led.take({&L.net_in[nic], &L.nic_down[nic], &L.gpu_down[gpu]}, bw);
}

// GPU x to NET m: over its PCIe switch, or (PXN) through m's first GPU.
bool path_out(const Search& s, Links& L, Ledger& led, std::uint32_t x, std::uint32_t m, double bw) {
  if (is_local(s, x, m)) return led.take({&L.gpu_up[x], &L.nic_up[m], &L.net_out[m]}, bw);
  if (!s.pxn || s.node.nvlink_bw <= 0 || s.local[m].empty()) return false;
  const std::uint32_t y = s.local[m].front();
  return led.take({&L.nvl_out[x], &L.nvl_in[y], &L.gpu_up[y], &L.nic_up[m], &L.net_out[m]}, bw);
}

// The NETs a ring's last GPU may leave by: its entry NET (crossNic 0, or the
// odd channel of a pair), else its own NETs first, then any other.
std::vector<std::uint32_t> exits(const Search& s, std::uint32_t entry, std::uint32_t last, bool paired,
                                 std::uint32_t partner_entry, std::uint32_t c) {
  if (s.cross == 0) return {entry};
  if (paired) return {partner_entry};
  std::vector<std::uint32_t> out;
  const std::uint32_t first = gpu_nic(s.node.gpu_nics, last, s.node.gpus, s.node.nics, c);
  out.push_back(first);
  for (const std::uint32_t n : s.near[last])
    if (n != first) out.push_back(n);
  for (const std::uint32_t n : s.nets)
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  return out;
}

// Whether odd channels pair with the channel before them (search.cc: from
// 2.20 for any crossing graph, from 2.23 for crossNic 2 only).
bool pairs_channels(const Search& s) {
  if (s.version < NcclVersion{2, 20, 0}) return false;
  return s.version < NcclVersion{2, 23, 0} ? s.cross != 0 : s.cross == 2;
}

struct Ends {
  std::uint32_t in = 0, out = 0;
};

// One ring channel entering at GPU g of NET n: the GPUs in one direction,
// then out by an allowed NET.
std::optional<Ends> ring_from(const Search& s, Links& L, Ledger& led, std::uint32_t n, std::uint32_t g, double bw,
                              std::uint32_t c, const std::vector<Ends>& done) {
  const std::uint32_t G = s.node.gpus;
  for (const int dir : {-1, 1}) {
    if (dir == 1 && G <= 2) break;
    const std::size_t m = led.mark();
    bool ok = path_in(L, led, n, g, bw);
    std::uint32_t a = g;
    for (std::uint32_t k = 0; ok && k + 1 < G; ++k) {
      const std::uint32_t b = dir < 0 ? (a + G - 1) % G : (a + 1) % G;
      ok = hop(s, L, led, a, b, bw);
      a = b;
    }
    const bool paired = pairs_channels(s) && c % 2 == 1 && !done.empty();
    if (ok)
      for (const std::uint32_t x : exits(s, n, a, paired, paired ? done.back().in : 0, c))
        if (path_out(s, L, led, a, x, bw)) return Ends{n, x};
    led.undo(m);
  }
  return std::nullopt;
}

// ncclTopoSearchRec for a ring at `bw`: channels until one does not fit.
std::vector<Ends> ring_channels(const Search& s, double bw, std::uint32_t max_channels) {
  Links L = full_links(s.node);
  Ledger led;
  std::vector<Ends> done;
  const auto count = static_cast<std::uint32_t>(s.nets.size());
  while (done.size() < max_channels && count > 0) {
    const auto c = static_cast<std::uint32_t>(done.size());
    const bool paired = pairs_channels(s) && c % 2 == 1;
    std::optional<Ends> got;
    for (std::uint32_t i = 0; i < count && !got; ++i) {
      // From 2.19 a channel starts on nets[(nChannels + i) mod n]; before, on nets[i].
      const std::uint32_t n = s.nets[(s.version >= NcclVersion{2, 19, 0} ? c + i : i) % count];
      if ((paired && n != done.back().out) || L.net_node[n] < bw) continue;
      L.net_node[n] -= bw;
      for (std::uint32_t j = 0; j < s.node.gpus && !got; ++j) {
        const std::uint32_t g = (c + j) % s.node.gpus;
        if (is_local(s, g, n)) got = ring_from(s, L, led, n, g, bw, c, done);
      }
      if (!got) L.net_node[n] += bw;
    }
    if (!got) break;
    led.commit();
    done.push_back(*got);
  }
  return done;
}

// The highest bandwidth of any path from a GPU to a NET (system->maxBw).
double max_path_bw(const NcclNode& n, bool any_local) {
  const double local = std::min({n.gpu_pcie_bw, n.nic_pcie_bw, n.net_bw});
  if (any_local) return local;
  return n.pxn && n.nvlink_bw > 0 ? std::min(local, n.nvlink_bw) : 0;
}

// ncclTopoCompute's first pass for a ring across nodes: from the highest
// speed the node's paths allow, same-NIC channels over the PCIe switch, then
// through PXN, then (NCCL_CROSS_NIC=2) the version's crossing retry, keeping
// the graph with the most bandwidth; then lower speeds while they can still
// beat half of it.
NcclGraph ring_pass1(Search& s, std::span<const double> speeds, std::size_t& idx, std::uint8_t cross_nic) {
  const NcclNode& node = s.node;
  const std::uint32_t max_ch = nccl_max_channels(s.version) / 2;
  const double total_bw = std::max(node.gpu_pcie_bw, node.nvlink_bw);
  const std::uint8_t fallback = ring_rules(s.version).fallback;
  std::vector<std::uint8_t> crossings{static_cast<std::uint8_t>(cross_nic == 1 ? 1 : 0)};
  if (cross_nic == 2 && fallback != 0) crossings.push_back(fallback);
  NcclGraph best;
  for (;;) {
    const double bw = speeds[idx];
    bool perfect = false;
    for (const std::uint8_t cross : crossings)
      for (const bool pxn : {false, true}) {
        if (perfect || (pxn && !node.pxn)) continue;
        s.pxn = pxn;
        s.cross = cross;
        const auto got = static_cast<std::uint32_t>(ring_channels(s, bw, max_ch).size());
        if (got * bw > best.channels * best.bw_intra) best = {got, bw, bw, cross, pxn};
        perfect = got == max_ch;  // NCCL's "time == -1": nothing better to look for
      }
    if (perfect || (best.channels > 0 && best.channels * best.bw_inter >= total_bw)) break;
    if (idx + 1 >= speeds.size() || (best.channels > 0 && speeds[idx + 1] / best.bw_inter <= .49)) break;
    ++idx;
  }
  return best;
}

// ncclTopoDupChannels: from 25 GB/s per channel (50 on Hopper and later with
// more than 4 channels) the channels are doubled at half the bandwidth.
NcclGraph dup_channels(NcclGraph g, std::uint16_t sm, std::uint32_t max_ch) {
  if (g.channels == 0 || g.bw_intra < 25.0) return g;
  if (sm > 80 && g.bw_intra < 50.0 && g.channels > 4) return g;
  const std::uint32_t dup = std::min(2 * g.channels, max_ch);
  const std::uint32_t div = (dup + g.channels - 1) / g.channels;
  return {dup, g.bw_intra / div, g.bw_inter / div, g.cross_nic, g.pxn};
}

// Pass 2 for a ring: higher speeds with at least the channels found.
NcclGraph ring_pass2(Search& s, std::span<const double> speeds, NcclGraph g) {
  std::size_t idx = 0;
  while (idx + 1 < speeds.size() && speeds[idx] > g.bw_inter) ++idx;
  s.pxn = g.pxn;
  s.cross = g.cross_nic;
  const std::uint32_t max_ch = nccl_max_channels(s.version) / 2;
  while (idx > 0) {
    const double bw = speeds[--idx];
    const auto got = static_cast<std::uint32_t>(ring_channels(s, bw, max_ch).size());
    if (got < g.channels || got * bw <= g.channels * g.bw_intra) break;
    g = {got, bw, bw, g.cross_nic, g.pxn};
  }
  return g;
}

// Within one node NCCL trims the NETs: rings of G NVLink (or PCIe) hops at
// the intra-node speeds.
NcclGraph ring_one_node(const Search& s, std::span<const double> speeds) {
  const NcclNode& node = s.node;
  const std::uint32_t max_ch = nccl_max_channels(s.version) / 2;
  const double total_bw = std::max(node.gpu_pcie_bw, node.nvlink_bw);
  const auto fits = [&](double bw) {
    Links L = full_links(node);
    Ledger led;
    std::uint32_t c = 0;
    for (; c < max_ch; ++c) {
      bool ok = true;
      for (std::uint32_t a = 0; ok && a < node.gpus && node.gpus > 1; ++a) ok = hop(s, L, led, a, (a + 1) % node.gpus, bw);
      if (!ok) break;
      led.commit();
    }
    return c;
  };
  NcclGraph best;
  std::size_t idx = 0;
  while (idx + 1 < speeds.size() && speeds[idx] > total_bw) ++idx;
  for (;; ++idx) {
    const std::uint32_t got = fits(speeds[idx]);
    if (got * speeds[idx] > best.channels * best.bw_intra) best = {got, speeds[idx], speeds[idx], 0, false};
    if (got == max_ch || (best.channels && best.channels * best.bw_intra >= total_bw)) break;
    if (idx + 1 >= speeds.size() || (best.channels > 0 && speeds[idx + 1] / best.bw_inter <= .49)) break;
  }
  best = dup_channels(best, node.sm, max_ch);
  std::size_t up = 0;
  while (up + 1 < speeds.size() && speeds[up] > best.bw_intra) ++up;
  while (up > 0 && fits(speeds[up - 1]) >= best.channels) best.bw_intra = best.bw_inter = speeds[--up];
  return best;
}

// A tree channel on one node: in and out by its NET at GPU a (a balanced
// tree puts half of it on the next GPU), and a chain of G-1 hops at bw_intra.
bool tree_fits(const Search& s, std::uint32_t channels, double bw_intra, double bw_inter) {
  Links L = full_links(s.node);
  Ledger led;
  const auto count = static_cast<std::uint32_t>(s.nets.size());
  for (std::uint32_t c = 0; c < channels; ++c) {
    const std::uint32_t n = count ? s.nets[c % count] : 0;
    const std::uint32_t a = count && !s.local[n].empty() ? s.local[n][c % s.local[n].size()] : c % s.node.gpus;
    bool ok = count == 0 || (path_in(L, led, n, a, bw_inter) && path_out(s, L, led, a, n, bw_inter));
    for (std::uint32_t k = 0; ok && k + 1 < s.node.gpus; ++k)
      ok = hop(s, L, led, (a + s.node.gpus - k) % s.node.gpus, (a + s.node.gpus - k - 1) % s.node.gpus, bw_intra);
    if (!ok) return false;
    led.commit();
  }
  return true;
}

// The tree graph: the ring's channels, and in pass 2 a bw_intra raised
// speed by speed while it stays below twice bw_inter and the chain fits.
NcclGraph tree_graph(Search& s, std::span<const double> speeds, const NcclGraph& ring) {
  NcclGraph tree = ring;
  std::size_t idx = 0;
  while (idx + 1 < speeds.size() && speeds[idx] > tree.bw_inter) ++idx;
  while (idx > 0 && tree.bw_intra < 2 * tree.bw_inter) {
    const double bw = speeds[--idx];
    if (!tree_fits(s, tree.channels, bw, tree.bw_inter)) break;
    tree.bw_intra = bw;
  }
  return tree;
}

// The NVLS graph (ncclTopoSearchTryNvls): one channel per head GPU (every
// GPU within a node; across nodes the GPU of each NET), each putting its
// bw_intra on every GPU's NVSwitch links and twice on its head's; across
// nodes pass 2 raises bw_inter while it is below twice bw_intra.
NcclGraph nvls_graph(const Search& s, std::uint32_t nodes) {
  const NcclNode& node = s.node;
  if (node.nvlink_bw <= 0 || node.sm < 90 || node.gpus < 2) return {};
  std::vector<std::uint32_t> heads;
  for (std::uint32_t g = 0; g < node.gpus && nodes == 1; ++g) heads.push_back(g);
  for (const std::uint32_t n : s.nets)
    if (nodes > 1 && !s.local[n].empty() &&
        std::find(heads.begin(), heads.end(), s.local[n].front()) == heads.end())
      heads.push_back(s.local[n].front());
  const auto ch = static_cast<std::uint32_t>(heads.size());
  const std::span<const double> speeds = nccl_speeds(node.sm, s.version, nodes > 1);
  const double net_path = nodes > 1 ? std::min({node.net_bw, node.nic_pcie_bw, node.gpu_pcie_bw}) : 1e30;
  for (std::size_t idx = 0; idx < speeds.size() && ch > 0; ++idx) {
    const double bw = speeds[idx];
    if ((ch + 1) * bw > node.nvlink_bw + 1e-9 || bw > net_path) continue;
    NcclGraph g{ch, bw, bw, 0, false};
    while (nodes > 1 && idx > 0 && g.bw_inter < 2 * g.bw_intra && speeds[idx - 1] <= net_path) g.bw_inter = speeds[--idx];
    return g;
  }
  return {};
}

std::string gbs(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string channels_reason(const NcclChannels& c, const NcclNode& node, std::uint32_t nodes, double nic_gbps,
                            const PostsetChannels& post, const NcclSearchEnv& env, std::uint32_t before_env) {
  std::string r = std::to_string(c.channels) + " channels: " + std::to_string(c.ring.channels) + " search channels";
  if (nodes > 1) r += " of " + gbs(nic_gbps) + " Gb/s NICs (" + std::to_string(node.nics) + " per node)";
  r += " at " + gbs(c.ring.bw_inter) + " GB/s";
  if (c.ring.pxn) r += " (PXN)";
  if (c.ring.cross_nic != 0) r += ", crossNic " + std::to_string(c.ring.cross_nic);
  if (c.search != c.ring.channels) r += ", duplicated to " + std::to_string(c.search) + " at " + gbs(c.search_bw) + " GB/s";
  if (post.doubled) r += ", doubled";
  if (post.hopper_doubled) r += ", doubled again (Hopper, over 45 GB/s per channel across nodes)";
  if (env.max_channels && before_env > c.channels) r += ", NCCL_MAX_NCHANNELS=" + std::to_string(env.max_channels);
  if (env.min_channels && c.channels > before_env) r += ", NCCL_MIN_NCHANNELS=" + std::to_string(env.min_channels);
  return r;
}

}  // namespace

NcclChannels nccl_channels(const NcclNode& node, std::uint32_t nodes, NcclVersion v, const NcclSearchEnv& env,
                           double nic_gbps) {
  Search s = make_search(node, v);
  const std::uint32_t max_ch = nccl_max_channels(v);
  const std::span<const double> speeds = nccl_speeds(node.sm, v, nodes > 1);
  NcclChannels out;
  NcclGraph final_ring;
  if (nodes > 1 && !s.nets.empty()) {
    std::size_t idx = 0;
    while (idx + 1 < speeds.size() && speeds[idx] > max_path_bw(node, true)) ++idx;
    out.ring = ring_pass1(s, speeds, idx, env.cross_nic);
    final_ring = ring_pass2(s, speeds, dup_channels(out.ring, node.sm, max_ch / 2));
  } else {
    final_ring = ring_one_node(s, speeds);
    out.ring = final_ring;
  }
  out.search = std::max(1u, final_ring.channels);
  out.search_bw = final_ring.bw_inter;
  out.tree = nodes > 1 ? tree_graph(s, speeds, final_ring) : final_ring;
  out.nvls = nvls_graph(s, nodes);
  const PostsetChannels post = nccl_postset_channels(out.search, final_ring.bw_intra, node.sm, nodes, v);
  std::uint32_t ch = post.channels;
  if (env.max_channels) ch = std::min(ch, env.max_channels);
  if (env.min_channels) ch = std::max(ch, std::min(env.min_channels, max_ch));
  out.channels = std::max(1u, ch);
  out.nic_gbps = nic_gbps;
  out.reason = channels_reason(out, node, nodes, nic_gbps, post, env, post.channels);
  return out;
}

}  // namespace ecmpsim::workloads
