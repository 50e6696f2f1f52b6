#include "workloads/generators/training.h"

#include <algorithm>

namespace ecmpsim::workloads {

namespace {

struct Builder {
  const TrainingShape& s;
  TrainingStep step;
  std::vector<std::uint32_t> tp_group, pp_group, dp_group, ep_group, edp_group;  // per rank: its group

  std::uint32_t rank(std::uint32_t t, std::uint32_t d, std::uint32_t p) const { return t + s.tp * (d + s.dp * p); }

  std::uint32_t add_group(std::string name, std::vector<std::uint32_t> ranks) {
    step.groups.push_back({std::move(name), std::move(ranks)});
    return static_cast<std::uint32_t>(step.groups.size() - 1);
  }

  void make_groups() {
    const std::uint32_t n = s.ranks();
    tp_group.assign(n, 0);
    pp_group.assign(n, 0);
    dp_group.assign(n, 0);
    ep_group.assign(n, 0);
    edp_group.assign(n, 0);
    std::uint32_t count = 0;
    for (std::uint32_t p = 0; p < s.pp; ++p)
      for (std::uint32_t d = 0; d < s.dp; ++d) {
        std::vector<std::uint32_t> r;
        for (std::uint32_t t = 0; t < s.tp; ++t) r.push_back(rank(t, d, p));
        const std::uint32_t g = add_group("tp" + std::to_string(count++), r);
        for (std::uint32_t x : r) tp_group[x] = g;
      }
    count = 0;
    for (std::uint32_t p = 0; p < s.pp; ++p)
      for (std::uint32_t t = 0; t < s.tp; ++t) {
        std::vector<std::uint32_t> r;
        for (std::uint32_t d = 0; d < s.dp; ++d) r.push_back(rank(t, d, p));
        const std::uint32_t g = add_group("dp" + std::to_string(count++), r);
        for (std::uint32_t x : r) dp_group[x] = g;
      }
    if (s.experts > 0 && s.ep > 1) {
      count = 0;
      for (std::uint32_t p = 0; p < s.pp; ++p)
        for (std::uint32_t t = 0; t < s.tp; ++t)
          for (std::uint32_t e0 = 0; e0 < s.dp; e0 += s.ep) {
            std::vector<std::uint32_t> r;
            for (std::uint32_t d = e0; d < e0 + s.ep; ++d) r.push_back(rank(t, d, p));
            const std::uint32_t g = add_group("ep" + std::to_string(count++), r);
            for (std::uint32_t x : r) ep_group[x] = g;
          }
      count = 0;
      for (std::uint32_t p = 0; p < s.pp; ++p)
        for (std::uint32_t t = 0; t < s.tp; ++t)
          for (std::uint32_t e = 0; e < s.ep; ++e) {
            std::vector<std::uint32_t> r;
            for (std::uint32_t d = e; d < s.dp; d += s.ep) r.push_back(rank(t, d, p));
            const std::uint32_t g = add_group("edp" + std::to_string(count++), r);
            for (std::uint32_t x : r) edp_group[x] = g;
          }
    }
  }

  void add(std::uint32_t group, Collective c, std::uint64_t bytes, std::uint32_t src = 0, std::uint32_t dst = 0) {
    if (step.groups[group].ranks.size() < 2 || bytes == 0) return;
    step.collectives.push_back({group, c, bytes, src, dst});
  }

  // Every group of one kind on a stage, each issuing the same collective.
  template <typename GroupOf>
  void on_stage(std::uint32_t p, GroupOf group_of, Collective c, std::uint64_t bytes) {
    std::vector<std::uint32_t> seen;
    for (std::uint32_t d = 0; d < s.dp; ++d)
      for (std::uint32_t t = 0; t < s.tp; ++t) {
        const std::uint32_t g = group_of(rank(t, d, p));
        if (std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
        seen.push_back(g);
        add(g, c, bytes);
      }
  }

  // One layer's collectives on stage p, forward or backward alike: the two
  // tensor-parallel all-reduces of b*s*h (attention, MLP; in backward the
  // conjugate operators') and, for MoE, the dispatch and combine
  // all-to-alls of b*s*h around the experts.
  void layer(std::uint32_t p, std::uint64_t activation) {
    const auto tp = [&](std::uint32_t r) { return tp_group[r]; };
    const auto ep = [&](std::uint32_t r) { return ep_group[r]; };
    const bool moe = s.experts > 0 && s.ep > 1;
    on_stage(p, tp, Collective::RingAllReduce, activation);
    if (moe) on_stage(p, ep, Collective::AllToAll, activation);
    if (moe) on_stage(p, ep, Collective::AllToAll, activation);
    on_stage(p, tp, Collective::RingAllReduce, activation);
  }

  // The stage boundary: each rank of stage `from` sends its 1/tp slice of
  // the activations (or gradients) to the same tensor rank of stage `to`.
  void boundary(std::uint32_t from, std::uint32_t to, std::uint64_t activation) {
    for (std::uint32_t d = 0; d < s.dp; ++d)
      for (std::uint32_t t = 0; t < s.tp; ++t) {
        const std::uint32_t src = rank(t, d, from), dst = rank(t, d, to);
        const std::uint32_t g = pp_group[src];
        add(g, Collective::SendRecv, activation / s.tp, src, dst);
      }
  }
};

}  // namespace

std::uint64_t gradient_bucket_elements(std::uint32_t dp) noexcept {
  return std::max<std::uint64_t>(40'000'000, 1'000'000ULL * dp);
}

TrainingStep training_step(const TrainingShape& s) {
  Builder b{s, {}, {}, {}, {}, {}, {}};
  b.make_groups();
  std::uint32_t count = 0;
  for (std::uint32_t d = 0; d < s.dp; ++d)
    for (std::uint32_t t = 0; t < s.tp; ++t) {
      std::vector<std::uint32_t> r;
      for (std::uint32_t p = 0; p < s.pp; ++p) r.push_back(b.rank(t, d, p));
      const std::uint32_t g = b.add_group("pp" + std::to_string(count++), r);
      for (std::uint32_t x : r) b.pp_group[x] = g;
    }
  const std::uint64_t elem = kTrainingDtypes[static_cast<std::size_t>(s.dtype)].bytes;
  const std::uint64_t activation = std::uint64_t{s.seq_len} * s.hidden * elem;  // b = 1 sequence
  const std::uint32_t per_stage = s.layers / s.pp;
  for (std::uint32_t m = 0; m < s.microbatches; ++m)
    for (std::uint32_t p = 0; p < s.pp; ++p) {
      for (std::uint32_t l = 0; l < per_stage; ++l) b.layer(p, activation);
      if (p + 1 < s.pp) b.boundary(p, p + 1, activation);
    }
  for (std::uint32_t m = 0; m < s.microbatches; ++m)
    for (std::uint32_t p = s.pp; p-- > 0;) {
      for (std::uint32_t l = 0; l < per_stage; ++l) b.layer(p, activation);
      if (p > 0) b.boundary(p, p - 1, activation);
    }
  // Gradients: per rank 12 h^2 / tp parameters a layer (attention 4h^2, MLP
  // 8h^2), of per_stage layers; with experts the MLP's 8h^2 per expert go
  // to the expert-data groups, E/ep experts a rank, the rest to dp.
  const std::uint64_t h2 = std::uint64_t{s.hidden} * s.hidden;
  const bool moe = s.experts > 0 && s.ep > 1;
  const std::uint64_t dense = (s.experts > 0 ? 4 : 12) * h2 / s.tp * per_stage;
  const std::uint64_t expert = s.experts > 0 ? 8 * h2 / s.tp * per_stage * (s.experts / s.ep) : 0;
  const auto buckets = [&](std::uint32_t p, auto group_of, std::uint64_t elements, std::uint32_t group_ranks) {
    const std::uint64_t bucket = gradient_bucket_elements(group_ranks);
    for (std::uint64_t done = 0; done < elements; done += bucket)
      b.on_stage(p, group_of, Collective::RingAllReduce, std::min(bucket, elements - done) * elem);
  };
  for (std::uint32_t p = s.pp; p-- > 0;) {
    buckets(p, [&](std::uint32_t r) { return b.dp_group[r]; }, dense, s.dp);
    if (moe) buckets(p, [&](std::uint32_t r) { return b.edp_group[r]; }, expert, s.dp / s.ep);
    if (s.experts > 0 && !moe) buckets(p, [&](std::uint32_t r) { return b.dp_group[r]; }, expert, s.dp);
  }
  return std::move(b.step);
}

}  // namespace ecmpsim::workloads
