#include "sim/routing/routes.h"

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/visitors.hpp>
#include <unordered_map>

namespace ecmpsim {
EqualCostSets compute_equal_cost_sets(const Fabric& fabric, std::span<const std::uint8_t> down) {
  const auto switches = fabric.switches();
  const auto nsw = static_cast<std::uint32_t>(switches.size());
  auto usable = [&](LinkId l) {
    const Link& link = fabric.link(l);
    return link.up && (down.empty() || !down[l]) && fabric.is_switch(link.from) && fabric.is_switch(link.to);
  };
  // Compact adjacency of working switch-to-switch links, in out-link order
  // (which fixes member order), and the same edges reversed (to -> from) for
  // Boost: a BFS from a ToR then gives every switch's hop count towards it.
  std::vector<std::uint32_t> adj_begin(nsw + 1, 0), adj_to;
  std::vector<LinkId> adj_link;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t s = 0; s < nsw; ++s) {
    for (LinkId l : fabric.out_links(switches[s]))
      if (usable(l)) {
        const std::uint32_t to = fabric.switch_index(fabric.link(l).to);
        adj_to.push_back(to);
        adj_link.push_back(l);
        edges.emplace_back(to, s);
      }
    adj_begin[s + 1] = static_cast<std::uint32_t>(adj_to.size());
  }
  std::sort(edges.begin(), edges.end());
  using Graph = boost::compressed_sparse_row_graph<boost::directedS>;
  const Graph g(boost::edges_are_sorted, edges.begin(), edges.end(), nsw);

  EqualCostSets ecs;
  ecs.down_.assign(down.begin(), down.end());
  ecs.tors_ = static_cast<std::uint32_t>(fabric.tors().size());
  ecs.group_of_.assign(std::size_t{nsw} * ecs.tors_, EqualCostSets::kNoGroup);
  ecs.distance_.assign(std::size_t{nsw} * ecs.tors_, kNone);
  // Deduplication by a 64-bit FNV-1a of the member list; a (never yet seen)
  // collision between different lists moves on to the next key.
  std::unordered_map<std::uint64_t, std::uint32_t> seen;
  std::vector<std::uint32_t> dist(nsw);
  std::vector<boost::default_color_type> color(nsw);
  std::vector<LinkId> set;
  for (std::uint32_t t = 0; t < ecs.tors_; ++t) {
    const std::uint32_t root = fabric.switch_index(fabric.tors()[t]);
    std::fill(dist.begin(), dist.end(), kNone);
    dist[root] = 0;
    boost::breadth_first_search(
        g, root,
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge())))
            .color_map(boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, g))));
    for (std::uint32_t s = 0; s < nsw; ++s) {
      const std::uint32_t ds = dist[s];
      ecs.distance_[std::size_t{s} * ecs.tors_ + t] = ds;
      if (s == root || ds == kNone) continue;
      set.clear();
      std::uint64_t h = 0xcbf29ce484222325ULL;
      for (std::uint32_t i = adj_begin[s]; i < adj_begin[s + 1]; ++i)
        if (dist[adj_to[i]] + 1 == ds) {
          set.push_back(adj_link[i]);
          h = (h ^ adj_link[i]) * 0x100000001b3ULL;
        }
      std::uint32_t group = EqualCostSets::kNoGroup;
      for (;; ++h) {
        const auto [it, fresh] = seen.try_emplace(h, static_cast<std::uint32_t>(ecs.begin_.size() - 1));
        if (fresh) {
          ecs.members_.insert(ecs.members_.end(), set.begin(), set.end());
          ecs.begin_.push_back(static_cast<std::uint32_t>(ecs.members_.size()));
          group = it->second;
          break;
        }
        const auto m = ecs.members(it->second);
        if (std::equal(m.begin(), m.end(), set.begin(), set.end())) {
          group = it->second;
          break;
        }
      }
      ecs.group_of_[std::size_t{s} * ecs.tors_ + t] = group;
    }
  }
  return ecs;
}

}  // namespace ecmpsim
