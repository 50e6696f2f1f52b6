#include "sim/routes.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/reverse_graph.hpp>
#include <boost/graph/visitors.hpp>
#include <map>

namespace ecmpsim {

EqualCostSets compute_equal_cost_sets(const Fabric& fabric) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
  const auto switches = fabric.switches();
  const auto nsw = static_cast<std::uint32_t>(switches.size());
  Graph g(nsw);
  for (const Link& l : fabric.links())
    if (l.up && fabric.is_switch(l.from) && fabric.is_switch(l.to))
      boost::add_edge(fabric.switch_index(l.from), fabric.switch_index(l.to), g);
  const auto reversed = boost::make_reverse_graph(g);

  EqualCostSets ecs;
  ecs.tors_ = static_cast<std::uint32_t>(fabric.tors().size());
  ecs.group_of_.assign(std::size_t{nsw} * ecs.tors_, EqualCostSets::kNoGroup);
  ecs.distance_.assign(std::size_t{nsw} * ecs.tors_, kNone);
  std::map<std::vector<LinkId>, std::uint32_t> seen;
  std::vector<std::uint32_t> dist(nsw);
  std::vector<boost::default_color_type> color(nsw);
  std::vector<LinkId> set;
  for (std::uint32_t t = 0; t < ecs.tors_; ++t) {
    const std::uint32_t root = fabric.switch_index(fabric.tors()[t]);
    std::fill(dist.begin(), dist.end(), kNone);
    dist[root] = 0;
    boost::breadth_first_search(
        reversed, root,
        boost::visitor(boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge())))
            .color_map(boost::make_iterator_property_map(color.begin(), boost::get(boost::vertex_index, reversed))));
    for (std::uint32_t s = 0; s < nsw; ++s) {
      ecs.distance_[std::size_t{s} * ecs.tors_ + t] = dist[s];
      if (s == root || dist[s] == kNone) continue;
      set.clear();
      for (LinkId l : fabric.out_links(switches[s])) {
        const Link& link = fabric.link(l);
        if (!link.up || !fabric.is_switch(link.to)) continue;
        if (dist[fabric.switch_index(link.to)] + 1 == dist[s]) set.push_back(l);
      }
      auto [it, fresh] = seen.try_emplace(set, static_cast<std::uint32_t>(ecs.begin_.size() - 1));
      if (fresh) {
        ecs.members_.insert(ecs.members_.end(), set.begin(), set.end());
        ecs.begin_.push_back(static_cast<std::uint32_t>(ecs.members_.size()));
      }
      ecs.group_of_[std::size_t{s} * ecs.tors_ + t] = it->second;
    }
  }
  return ecs;
}

}  // namespace ecmpsim
