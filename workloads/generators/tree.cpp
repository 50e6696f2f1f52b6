#include "workloads/generators/tree.h"

namespace ecmpsim::workloads {

TreeLinks btree(int n, int r) noexcept {
  int bit = 1;
  while (bit < n && (bit & r) == 0) bit <<= 1;
  if (r == 0) return {-1, -1, n > 1 ? bit >> 1 : -1};
  int up = (r ^ bit) | (bit << 1);
  if (up >= n) up = r ^ bit;
  int low = bit >> 1;
  const int down0 = low == 0 ? -1 : r - low;
  int down1 = low == 0 ? -1 : r + low;
  while (down1 >= n) {
    down1 = low == 0 ? -1 : r + low;
    low >>= 1;
  }
  return {up, down0, down1};
}

std::array<TreeLinks, 2> dtree(int n, int r) noexcept {
  const TreeLinks t0 = btree(n, r);
  TreeLinks t1;
  if (n % 2 == 1) {
    const TreeLinks s = btree(n, (r - 1 + n) % n);
    auto shift = [n](int x) { return x == -1 ? -1 : (x + 1) % n; };
    t1 = {shift(s.up), shift(s.down0), shift(s.down1)};
  } else {
    const TreeLinks m = btree(n, n - 1 - r);
    auto mirror = [n](int x) { return x == -1 ? -1 : n - 1 - x; };
    t1 = {mirror(m.up), mirror(m.down0), mirror(m.down1)};
  }
  return {t0, t1};
}

void tree_flows(const CollectiveParams& p, const JobLayout& layout, FlowMaker& maker, Flows& out) {
  const std::uint32_t n = layout.nodes();
  if (n < 2) return;
  const std::uint32_t search = p.search_channels ? p.search_channels : default_search_channels(p.channels);
  const std::vector<std::uint32_t> order =
      search_nic_order(layout.gpu_nics, layout.gpus_per_node, layout.nics_per_node);
  out.reserve(out.size() + 2 * std::size_t{n - 1} * p.channels * p.qps_per_connection);
  for (std::uint32_t c = 0; c < p.channels; ++c) {
    const std::uint32_t tree = (c / search) % 2;
    const std::uint32_t k = order[(c % search) % order.size()];
    const std::uint64_t channel_bytes = share(p.message_bytes, p.channels, c);
    for (std::uint32_t q = 0; q < p.qps_per_connection; ++q) {
      const std::uint64_t bytes = share(channel_bytes, p.qps_per_connection, q);
      for (std::uint32_t node = 0; node < n; ++node) {
        const int up = dtree(static_cast<int>(n), static_cast<int>(node))[tree].up;
        if (up < 0) continue;
        const std::uint32_t child = layout.nic(node, k);
        const std::uint32_t parent = layout.nic(static_cast<std::uint32_t>(up), k);
        maker.add(out, child, parent, c, bytes);  // reduce, up the tree
        maker.add(out, parent, child, c, bytes);  // broadcast, down the tree
      }
    }
  }
}

}  // namespace ecmpsim::workloads
