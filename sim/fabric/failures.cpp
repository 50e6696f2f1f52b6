#include "sim/fabric/failures.h"

#include <algorithm>

#include "sim/base/parse.h"

namespace ecmpsim {
namespace {

// The cables between a and b, one link id each (the a->b direction), in creation order.
std::vector<LinkId> cables_between(const Fabric& f, NodeId a, NodeId b) {
  std::vector<LinkId> out;
  for (LinkId l : f.out_links(a))
    if (f.link(l).to == b) out.push_back(l);
  return out;
}

}  // namespace

std::vector<LinkId> resolve_cables(const Fabric& fabric, const LinkRef& ref) {
  std::string_view text = ref.text;
  std::optional<std::uint64_t> nth;
  if (const auto hash = text.rfind('#'); hash != std::string_view::npos) {
    nth = parse_uint(text.substr(hash + 1), 1u << 20);
    if (!nth) throw InputError(ref.where, "'" + ref.text + "': expected a cable index after '#'");
    text = text.substr(0, hash);
  }
  std::vector<LinkId> out;
  auto both = [&](LinkId l) {
    out.push_back(l);
    out.push_back(fabric.link(l).reverse);
  };
  if (const NodeId n = fabric.find(text); n != kNone && !nth) {
    if (!fabric.is_switch(n))
      throw InputError(ref.where, "'" + ref.text + "' is an endpoint; name its cable, e.g. '" + ref.text + "-" +
                                      fabric.node(fabric.link(fabric.out_links(n)[0]).to).name + "'");
    for (LinkId l : fabric.out_links(n)) both(l);
  } else {
    std::vector<std::vector<LinkId>> matches;
    for (std::size_t dash = text.find('-'); dash != std::string_view::npos; dash = text.find('-', dash + 1)) {
      // "a-b", or "a->b" as every output names a link (Fabric::link_name).
      const std::size_t b_at = dash + 1 < text.size() && text[dash + 1] == '>' ? dash + 2 : dash + 1;
      const NodeId a = fabric.find(text.substr(0, dash)), b = fabric.find(text.substr(b_at));
      if (a == kNone || b == kNone) continue;
      auto c = cables_between(fabric, a, b);
      if (!c.empty()) matches.push_back(std::move(c));
    }
    if (matches.empty())
      throw InputError(ref.where, "'" + ref.text + "' names no switch and no cable between two linked nodes");
    if (matches.size() > 1) throw InputError(ref.where, "'" + ref.text + "' is ambiguous: it splits into two cables");
    const auto& c = matches.front();
    if (nth) {
      if (*nth >= c.size())
        throw InputError(ref.where, "'" + ref.text + "': only " + std::to_string(c.size()) +
                                        " parallel cable(s), numbered from 0");
      both(c[*nth]);
    } else {
      for (LinkId l : c) both(l);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint8_t> down_mask(const Fabric& fabric, std::span<const LinkRef> refs) {
  if (refs.empty()) return {};
  std::vector<std::uint8_t> mask(fabric.links().size(), 0);
  for (const LinkRef& r : refs)
    for (LinkId l : resolve_cables(fabric, r)) mask[l] = 1;
  return mask;
}

std::vector<std::uint32_t> link_weights(const Fabric& fabric, std::span<const LinkWeight> overrides) {
  std::vector<std::uint32_t> weight(fabric.links().size());
  for (LinkId l = 0; l < weight.size(); ++l) weight[l] = fabric.link(l).weight;
  for (const LinkWeight& w : overrides)
    for (LinkId l : resolve_cables(fabric, w.cable)) weight[l] = w.weight;
  return weight;
}

}  // namespace ecmpsim
