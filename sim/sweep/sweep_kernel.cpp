#include "sim/sweep/sweep_kernel.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <tuple>

#include "hashing/seed_as.h"
#include "hashing/select.h"
#include "hashing/toeplitz.h"
#include "sim/config/overrides.h"
#include "sim/model/metrics.h"
#include "sim/model/prediction.h"
#include "sim/model/size_table.h"
#include "sim/routing/next_link.h"
#include "sim/routing/seeds.h"

namespace ecmpsim {


SweepPlan::SweepPlan(const Simulation& base, const ScenarioSpec& scenario, bool seed_axis, SeedMode mode,
                     bool slowdown, Bytes busbw_at)
    : base_(&base), scenario_(scenario), sets_(base.sets_for(scenario_)),
      fwd_(base.fabric(), *sets_, scenario_, base.spec().source, &base.flows()),
      seed_axis_(seed_axis),
      general_(!routing_mode(scenario_.routing).per_hop || plans_ports(scenario_)),
      slowdown_(slowdown),
      mode_(mode) {
  const Fabric& fabric = base.fabric();
  const auto nsw = static_cast<std::uint32_t>(fabric.switches().size());
  sw_class_.assign(nsw, 0);
  sw_tier_.resize(nsw);
  struct ClassKey {
    std::uint32_t key_config;
    const hashing::Algorithm* algo;
    hashing::SeedAs seed_as;
    std::uint32_t offset;
    std::uint64_t seed_slot;
    std::optional<hashing::RssKey> rss_key;
    bool operator==(const ClassKey&) const = default;
  };
  std::vector<ClassKey> class_keys;
  // Flows' seed-0 hashes are shared by classes of one key, algorithm and seed convention.
  std::vector<std::tuple<std::uint32_t, const hashing::Algorithm*, hashing::SeedAs>> base_keys;
  for (std::uint32_t s = 0; s < nsw; ++s) {
    const NodeId node = fabric.switches()[s];
    sw_tier_[s] = static_cast<std::uint32_t>(fabric.node(node).tier);
    const SwitchHash& h = fwd_.hash_of(s);
    KeyConfig kc{h.algo->layout, h.fields, false};
    kc.per_hop = h.per_hop;
    auto kit = std::find_if(key_configs_.begin(), key_configs_.end(),
                            [&](const KeyConfig& k) { return k.layout == kc.layout && k.fields == kc.fields; });
    if (kit == key_configs_.end()) kit = key_configs_.insert(key_configs_.end(), kc);
    const auto key_config = static_cast<std::uint32_t>(kit - key_configs_.begin());
    std::uint64_t slot = h.seed;
    if (seed_axis) slot = mode == SeedMode::Same ? 0 : mode == SeedMode::PerTier ? sw_tier_[s] : s;
    const ClassKey ck{key_config, h.algo, h.seed_as, h.offset, slot, h.rss_key};
    auto cit = std::find(class_keys.begin(), class_keys.end(), ck);
    if (cit == class_keys.end()) {
      cit = class_keys.insert(class_keys.end(), ck);
      HashClass c;
      c.key_config = key_config;
      c.algo = h.algo;
      c.seed_as = h.seed_as;
      c.offset = h.offset;
      c.rep_switch = s;
      c.fixed_seed = h.seed;
      c.affine = h.algo->seed_affine && hashing::key_layout(h.algo->layout).fixed.empty() && !kc.per_hop;
      c.rss_key = h.rss_key;
      const std::tuple<std::uint32_t, const hashing::Algorithm*, hashing::SeedAs> bk{key_config, h.algo, h.seed_as};
      auto bit = std::find(base_keys.begin(), base_keys.end(), bk);
      if (bit == base_keys.end()) bit = base_keys.insert(base_keys.end(), bk);
      c.base = static_cast<std::uint32_t>(bit - base_keys.begin());
      classes_.push_back(c);
    }
    sw_class_[s] = static_cast<std::uint32_t>(cit - class_keys.begin());
  }
  bases_ = base_keys.size();
  const auto down = sets_->down();
  for (LinkId l : base.metric_links())
    if (down.empty() || !down[l]) metric_links_.push_back(l);
  capacity_ = base.capacity();
  for (LinkId l = 0; l < down.size(); ++l)
    if (down[l]) capacity_[l] = Gbps{0};
  if (!slowdown) return;
  for (std::uint32_t j = 0; j < base.spec().jobs.size() && j < base.jobs().size(); ++j) {
    const auto comm = size_comm(base, j);
    if (!comm) continue;
    const workloads::NcclSizes& how = base.spec().jobs[j].nccl;
    SizedJob sj{j, *comm, how, {}, busbw_at, host_goodput(base.spec())};
    for (const std::uint64_t b : workloads::sweep_sizes(how.sweep)) sj.sizes.push_back(Bytes{b});
    if (sj.at.value == 0 && !sj.sizes.empty()) sj.at = sj.sizes.back();
    lockstep_ = lockstep_ || how.coupling == workloads::ChannelCoupling::Lockstep;
    sized_.push_back(std::move(sj));
  }
}

void SweepWorker::load(const SweepPlan& plan, workloads::Flows flows) {
  plan_ = &plan;
  flows_ = std::move(flows);
  const Fabric& fabric = plan.base().fabric();
  const std::size_t n = flows_.size();
  ends_.resize(n);
  for (std::size_t f = 0; f < n; ++f) ends_[f] = ends_of(fabric, flows_, f);
  const auto kcs = plan.key_configs();
  keys_.resize(kcs.size());
  key_len_.resize(kcs.size());
  uniform_len_.assign(kcs.size(), 1);
  for (std::size_t k = 0; k < kcs.size(); ++k) {
    keys_[k].resize(n * hashing::kMaxKeyBytes);
    key_len_[k].resize(n);
    for (std::size_t f = 0; f < n; ++f) {
      hashing::KeyBuffer buf{};
      const hashing::Tuple t = flows_.tuple(f);
      key_len_[k][f] = static_cast<std::uint8_t>(hashing::build_key(kcs[k].layout, kcs[k].fields, t, buf));
      std::copy(buf.begin(), buf.end(), keys_[k].begin() + static_cast<std::ptrdiff_t>(f * hashing::kMaxKeyBytes));
      if (key_len_[k][f] != key_len_[k][0]) uniform_len_[k] = 0;
    }
  }
  const auto classes = plan.classes();
  const std::size_t nc = classes.size();
  class_affine_.assign(nc, 0);
  class_z0_.assign(nc, 0);
  class_d_.assign(nc, 0);
  class_seed_.assign(nc, 0);
  cache_stamp_.assign(nc, 0);
  cache_val_.assign(nc, 0);
  stamp_ = 0;
  base0_.resize(plan.bases());
  std::vector<std::uint8_t> base_done(plan.bases(), 0);
  const hashing::KeyBuffer zeros{};
  for (std::size_t c = 0; c < nc; ++c) {
    const auto& hc = classes[c];
    class_seed_[c] = hc.fixed_seed;
    if (!hc.affine || !uniform_len_[hc.key_config] || n == 0) continue;
    class_affine_[c] = 1;
    class_z0_[c] = hashing::seeded(*hc.algo, hc.seed_as, {zeros.data(), key_len_[hc.key_config][0]}, 0);
    if (base_done[hc.base]) continue;
    base_done[hc.base] = 1;
    auto& b = base0_[hc.base];
    b.resize(n);
    const std::uint8_t* keys = keys_[hc.key_config].data();
    for (std::size_t f = 0; f < n; ++f)
      b[f] = hashing::seeded(*hc.algo, hc.seed_as, {keys + f * hashing::kMaxKeyBytes, key_len_[hc.key_config][f]}, 0);
  }
  counts_.assign(fabric.links().size(), 0);
  load_.assign(plan.metric_links_.size(), 0);
  path_begin_.assign(n + 1, 0);
  path_links_.clear();
  if (plan.slowdown_) ideal_ = plan.base().cuts().ideal(flows_);
  memo_.assign(plan.sized_.size(), {});
  if (plan.lockstep_) lockstep_ = LockstepSolver(flows_.job, flows_.channel, plan.base().jobs().size());
}

std::uint64_t SweepWorker::hash(std::uint32_t c, std::uint32_t f, const Hop& hop) const {
  const SweepPlan::HashClass& hc = plan_->classes_[c];
  const unsigned bits = hc.algo->bits;
  if (class_affine_[c]) return hashing::window(base0_[hc.base][f] ^ class_d_[c], bits, hc.offset);
  auto raw = [&](hashing::Key key) {
    return hashing::switch_raw_hash(*hc.algo, hc.rss_key, hc.seed_as, key, class_seed_[c]);
  };
  const SweepPlan::KeyConfig& kc = plan_->key_configs_[hc.key_config];
  if (kc.per_hop) {
    hashing::Tuple t = flows_.tuple(f);
    hop.apply(t);
    hashing::KeyBuffer key;
    const std::size_t len = hashing::build_key(kc.layout, kc.fields, t, key);
    return hashing::window(raw({key.data(), len}), bits, hc.offset);
  }
  const std::uint8_t* key = keys_[hc.key_config].data() + std::size_t{f} * hashing::kMaxKeyBytes;
  return hashing::window(raw({key, key_len_[hc.key_config][f]}), bits, hc.offset);
}

std::uint64_t SweepWorker::route_general(std::uint32_t seed) {
  const SweepPlan& plan = *plan_;
  const Fabric& fabric = plan.base().fabric();
  if (!plans_ports(plan.scenario_)) {  // no hash to vary: one route serves every variant
    route_and_count(fabric, plan.fwd_, flows_, trace_);
  } else {
    // Ports are planned for the hashes this variant's switches run.
    Spec variant;
    variant.scenarios = {plan.scenario_};
    if (plan.seed_axis_) {
      Overrides o;
      o.seed = seed;
      o.seed_mode = plan.mode_;
      apply_overrides(variant, o);
    }
    const ScenarioSpec& s = variant.scenarios.front();
    const Forwarding fwd(fabric, *plan.sets_, s, plan.base().spec().source, &flows_);
    route_and_count(fabric, fwd, with_ports(flows_, plan_ports(fabric, fwd, flows_, s)), trace_);
  }
  std::copy(trace_.link_flows.begin(), trace_.link_flows.end(), counts_.begin());
  return trace_.path_links.size() - flows_.size();
}

std::uint64_t SweepWorker::member_hash(std::uint32_t sw, std::uint32_t f, const Hop& hop, HashRole role) const {
  const SweepPlan& plan = *plan_;
  const SwitchHash& h = plan.fwd_.hash_for(sw, role);
  std::uint32_t seed = h.seed;
  if (role == HashRole::Lag && variant_seed_ && !(plan.scenario_.lag_hash.keys & kHashSeed))
    seed = derive_seed(*variant_seed_, plan.mode_, plan.sw_tier_[sw], sw);
  hashing::Tuple t = flows_.tuple(f);
  hop.apply(t);
  hashing::KeyBuffer key;
  const std::size_t n = hashing::build_key(h.algo->layout, h.fields, t, key);
  return hashing::window(h.raw({key.data(), n}, seed), h.algo->bits, h.offset);
}

void SweepWorker::evaluate(std::uint32_t seed, std::span<double> row) {
  const SweepPlan& plan = *plan_;
  const auto classes = plan.classes();
  if (plan.seed_axis_) variant_seed_ = seed;
  if (plan.seed_axis_ && !plan.general_) {
    const hashing::KeyBuffer zeros{};
    for (std::size_t c = 0; c < classes.size(); ++c) {
      const auto s = classes[c].rep_switch;
      class_seed_[c] = derive_seed(seed, plan.mode_, plan.sw_tier_[s], s);
      if (class_affine_[c])
        class_d_[c] = hashing::seeded(*classes[c].algo, classes[c].seed_as,
                                      {zeros.data(), key_len_[classes[c].key_config][0]}, class_seed_[c]) ^
                      class_z0_[c];
    }
  }
  std::fill(counts_.begin(), counts_.end(), 0u);
  if (plan.general_)
    decisions_ += route_general(seed);
  else
    decisions_ += plan.slowdown_ ? route<true>() : route<false>();
  const auto& metric_links = plan.metric_links_;
  for (std::size_t i = 0; i < metric_links.size(); ++i)
    load_[i] = plan.general_ ? trace_.flows_on(metric_links[i]) : counts_[metric_links[i]];
  const Imbalance m = imbalance(load_);
  row[static_cast<std::size_t>(SweepMetric::Fim)] = m.fim;
  row[static_cast<std::size_t>(SweepMetric::MaxMean)] = m.max_mean;
  row[static_cast<std::size_t>(SweepMetric::Cov)] = m.cov;
  row[static_cast<std::size_t>(SweepMetric::Jain)] = m.jain;
  row[static_cast<std::size_t>(SweepMetric::MaxFlows)] = m.max;
  const std::span<double> busbw = row.subspan(kSweepMetrics);
  row[static_cast<std::size_t>(SweepMetric::BusbwAt)] = 0;
  row[static_cast<std::size_t>(SweepMetric::BusbwAvg)] = 0;
  if (plan.slowdown_) {
    row[static_cast<std::size_t>(SweepMetric::Slowdown)] = predict(busbw);
    if (!plan.sized_.empty()) price_sizes(row);
  } else {
    row[static_cast<std::size_t>(SweepMetric::Slowdown)] = 0;
    std::fill(busbw.begin(), busbw.end(), 0.0);
  }
}

template <bool Record>
std::uint64_t SweepWorker::route() {
  const SweepPlan& plan = *plan_;
  const Fabric& fabric = plan.base().fabric();
  const auto classes = plan.classes();
  const auto n = static_cast<std::uint32_t>(flows_.size());
  if constexpr (Record) path_links_.clear();
  std::uint64_t decisions = 0;
  for (std::uint32_t f = 0; f < n; ++f) {
    ++stamp_;
    // A flow is hashed once per hash class; a per-hop key changes per hop.
    auto hash = [&](std::uint32_t sw, const Hop& hop, HashRole role) {
      if (role != HashRole::Ecmp) return member_hash(sw, f, hop, role);
      const std::uint32_t c = plan.sw_class_[sw];
      if (cache_stamp_[c] == stamp_) return cache_val_[c];
      const std::uint64_t h = this->hash(c, f, hop);
      if (!plan.key_configs_[classes[c].key_config].per_hop) {
        cache_stamp_[c] = stamp_;
        cache_val_[c] = h;
      }
      return h;
    };
    decisions += walk(fabric, plan.fwd_, ends_[f], hash, [&](LinkId l) {
      ++counts_[l];
      if constexpr (Record) path_links_.push_back(l);
    });
    if constexpr (Record) path_begin_[f + 1] = static_cast<std::uint32_t>(path_links_.size());
  }
  return decisions;
}

double SweepWorker::predict(std::span<double> busbw) {
  // A general plan's paths (and a sprayed flow's fractions) are in its trace.
  if (plan_->general_)
    model_.run({plan_->capacity_, flows_.bytes, trace_.path_begin, trace_.path_links, trace_.split_fraction}, times_);
  else
    model_.run({plan_->capacity_, flows_.bytes, path_begin_, path_links_}, times_);
  // As run's prediction (sim/model/prediction.cpp): a job completes when its last flow does.
  const auto& jobs = plan_->base().jobs();
  job_completion_.assign(jobs.size(), Seconds{0});
  Seconds completion{0};
  for (std::size_t f = 0; f < times_.finish.size(); ++f) {
    const Seconds t = times_.finish[f];
    completion = std::max(completion, t);
    if (flows_.job[f] < jobs.size()) job_completion_[flows_.job[f]] = std::max(job_completion_[flows_.job[f]], t);
  }
  for (std::size_t j = 0; j < busbw.size() && j < jobs.size(); ++j)
    busbw[j] = busbw_of(jobs[j], job_completion_[j]).value;
  return slowdown_of(completion, ideal_);
}

void SweepWorker::price_sizes(std::span<double> row) {
  const SweepPlan& plan = *plan_;
  const auto& jobs = plan.base().jobs();
  std::span<const Seconds> lockstep;
  if (plan.lockstep_) {
    const FlowNetwork net = plan.general_ ? FlowNetwork{plan.capacity_, flows_.bytes, trace_.path_begin,
                                                        trace_.path_links, trace_.split_fraction}
                                          : FlowNetwork{plan.capacity_, flows_.bytes, path_begin_, path_links_};
    lockstep = lockstep_.solve(net);
  }
  double at = std::numeric_limits<double>::infinity(), avg = at;
  for (std::size_t k = 0; k < plan.sized_.size(); ++k) {
    const SweepPlan::SizedJob& s = plan.sized_[k];
    const bool lock = s.how.coupling == workloads::ChannelCoupling::Lockstep;
    const Priced& p =
        priced(k, s.goodput * job_net_busbw(jobs[s.job], lock ? lockstep[s.job] : job_completion_[s.job]));
    at = std::min(at, p.at);
    avg = std::min(avg, p.avg);
  }
  row[static_cast<std::size_t>(SweepMetric::BusbwAt)] = at;
  row[static_cast<std::size_t>(SweepMetric::BusbwAvg)] = avg;
}

const SweepWorker::Priced& SweepWorker::priced(std::size_t k, double net_busbw) {
  std::uint64_t bits;
  std::memcpy(&bits, &net_busbw, sizeof bits);
  Priced& slot = memo_[k][(bits ^ bits >> 29 ^ bits >> 43) & 63];
  if (slot.net_busbw == net_busbw) return slot;
  const SweepPlan::SizedJob& s = plan_->sized_[k];
  const BusPattern pattern = plan_->base().jobs()[s.job].pattern;
  NcclComm comm = s.comm;
  comm.net_busbw = net_busbw;
  // A sweep routes each variant's own flows only: a GPU's trees (Tree,
  // NVLSTree) take the variant's ring rate (docs/sweeps.md).
  if (comm.hw) comm.hw->tree_net = net_busbw;
  slot = {net_busbw, size_busbw(comm, pattern, s.at, s.how).value_or(0), 0};
  double sum = 0;
  std::size_t n = 0;
  for (const Bytes b : s.sizes)
    if (const auto bw = size_busbw(comm, pattern, b, s.how)) sum += *bw, ++n;
  slot.avg = n > 0 ? sum / static_cast<double>(n) : 0;
  return slot;
}

}  // namespace ecmpsim
