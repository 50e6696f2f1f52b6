// `ecmpsim topology --against CONFIG`: the cables found against the cables
// the config's fabric intends, by the names of their two devices. Counts per
// pair of devices are matched first; a surplus found cable sharing a device
// with a cable still missing is taken as miswired (plugged into the wrong
// device), in name order; what remains is extra or missing.
#include <algorithm>
#include <map>

#include "sim/fabric/discover.h"
#include "sim/fabric/fabric.h"

namespace ecmpsim {
namespace {

using Pair = std::pair<std::string, std::string>;

Pair key_of(const Cable& c) { return std::minmax(c.a.device, c.b.device); }

bool shares_device(const Cable& x, const Cable& y) {
  return x.a.device == y.a.device || x.a.device == y.b.device || x.b.device == y.a.device ||
         x.b.device == y.b.device;
}

}  // namespace

CablingDiff compare_cabling(std::span<const Cable> found, const Fabric& intended) {
  CablingDiff d;
  std::map<Pair, std::vector<Cable>> want, have;
  for (LinkId l = 0; l < intended.links().size(); ++l) {
    const Link& link = intended.link(l);
    if (link.reverse < l) continue;  // one direction per cable
    Cable c;
    c.a.device = intended.node(link.from).name;
    c.b.device = intended.node(link.to).name;
    c.speed_gbps = link.speed.value;
    want[key_of(c)].push_back(std::move(c));
    ++d.intended;
  }
  for (const Cable& c : found) {
    have[key_of(c)].push_back(c);
    ++d.found;
  }
  std::vector<Cable> extra, missing;
  for (auto& [k, cs] : have) {
    const std::size_t wanted = want.count(k) ? want[k].size() : 0;
    const std::size_t matched = std::min(wanted, cs.size());
    d.matched += matched;
    extra.insert(extra.end(), cs.begin() + static_cast<std::ptrdiff_t>(matched), cs.end());
  }
  for (auto& [k, cs] : want) {
    const std::size_t got = have.count(k) ? have[k].size() : 0;
    if (got < cs.size()) missing.insert(missing.end(), cs.begin() + static_cast<std::ptrdiff_t>(got), cs.end());
  }
  std::vector<bool> used(missing.size(), false);
  for (Cable& e : extra) {
    std::size_t m = 0;
    while (m < missing.size() && (used[m] || !shares_device(e, missing[m]))) ++m;
    if (m < missing.size()) {
      used[m] = true;
      d.miswired.emplace_back(std::move(e), missing[m]);
    } else {
      d.extra.push_back(std::move(e));
    }
  }
  for (std::size_t m = 0; m < missing.size(); ++m)
    if (!used[m]) d.missing.push_back(missing[m]);
  return d;
}

}  // namespace ecmpsim
