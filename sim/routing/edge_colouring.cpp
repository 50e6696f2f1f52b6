#include "sim/routing/edge_colouring.h"

#include <stdexcept>

namespace ecmpsim {
namespace {

constexpr std::uint32_t kFree = ~0u;

// A proper k-edge-colouring of a bipartite multigraph of maximum degree <= k
// by alternating paths (König).
class KonigColouring {
 public:
  KonigColouring(std::uint32_t vertices, std::size_t edges, std::uint32_t k)
      : k_(k), at_(std::size_t{vertices} * k, kFree), ends_(edges), colour_(edges, kFree) {}

  void add(std::uint32_t e, std::uint32_t u, std::uint32_t v) {
    ends_[e] = {u, v};
    const std::uint32_t a = free_at(u), b = free_at(v);
    if (slot(v, a) != kFree) swap_path(v, a, b);
    set(e, a);
  }
  std::vector<std::uint32_t> take() { return std::move(colour_); }

 private:
  std::uint32_t& slot(std::uint32_t vertex, std::uint32_t c) { return at_[std::size_t{vertex} * k_ + c]; }
  std::uint32_t free_at(std::uint32_t vertex) {
    for (std::uint32_t c = 0; c < k_; ++c)
      if (slot(vertex, c) == kFree) return c;
    throw std::logic_error("edge colouring: a vertex has more than k edges");
  }
  std::uint32_t other(std::uint32_t e, std::uint32_t vertex) const {
    return ends_[e].first == vertex ? ends_[e].second : ends_[e].first;
  }
  void set(std::uint32_t e, std::uint32_t c) {
    colour_[e] = c;
    slot(ends_[e].first, c) = e;
    slot(ends_[e].second, c) = e;
  }
  // Swaps colours a and b on the a, b, a, ... path that starts at `from`.
  void swap_path(std::uint32_t from, std::uint32_t a, std::uint32_t b) {
    path_.clear();
    for (std::uint32_t x = from, c = a; slot(x, c) != kFree; c = c == a ? b : a) {
      const std::uint32_t e = slot(x, c);
      path_.push_back(e);
      x = other(e, x);
    }
    for (std::uint32_t e : path_) {
      slot(ends_[e].first, colour_[e]) = kFree;
      slot(ends_[e].second, colour_[e]) = kFree;
    }
    for (std::uint32_t e : path_) set(e, colour_[e] == a ? b : a);
  }

  std::uint32_t k_;
  std::vector<std::uint32_t> at_;  // per (vertex, colour): the edge of that colour, or kFree
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ends_;
  std::vector<std::uint32_t> colour_;
  std::vector<std::uint32_t> path_;
};

}  // namespace

std::vector<std::uint32_t> equitable_edge_colouring(std::uint32_t left, std::uint32_t right,
                                                    std::span<const std::pair<std::uint32_t, std::uint32_t>> edges,
                                                    std::uint32_t k) {
  if (k == 0) throw std::invalid_argument("edge colouring needs at least one colour");
  // Split every vertex into copies of k edges each: copy ids are dense, left first.
  std::vector<std::uint32_t> degree(std::size_t{left} + right, 0);
  for (const auto& [u, v] : edges) {
    ++degree[u];
    ++degree[left + v];
  }
  std::vector<std::uint32_t> first_copy(degree.size() + 1, 0);
  for (std::size_t x = 0; x < degree.size(); ++x) first_copy[x + 1] = first_copy[x] + (degree[x] + k - 1) / k;
  std::vector<std::uint32_t> seen(degree.size(), 0);
  auto copy_of = [&](std::size_t x) { return first_copy[x] + seen[x]++ / k; };
  KonigColouring colouring(first_copy.back(), edges.size(), k);
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const std::uint32_t u = copy_of(edges[e].first), v = copy_of(left + std::size_t{edges[e].second});
    colouring.add(static_cast<std::uint32_t>(e), u, v);
  }
  return colouring.take();
}

}  // namespace ecmpsim
