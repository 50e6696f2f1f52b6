// What `ecmpsim emulate` builds, as data: one network namespace per node, one
// veth pair per cable, addresses, static neighbours, routes and sysctls —
// computed from the fabric, its equal-cost sets and the per-switch kernel hash
// settings, before anything touches the kernel. The fabric's address family
// decides the family of everything: IPv4 fabrics get IPv4 links and routes
// (IPv6 off), IPv6 fabrics IPv6 ones (docs/emulation.md, "IPv6 fabrics").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/routing/forwarding.h"
#include "sim/routing/routes.h"

namespace ecmpsim {

// The kernel multipath settings of one switch namespace.
// On an IPv6 fabric the policy is net.ipv6.fib_multipath_hash_policy; the
// seed is still net.ipv4.fib_multipath_hash_seed: Linux has no IPv6 seed,
// rt6_multipath_hash and fib_multipath_hash share the one per-namespace key.
struct KernelHash {
  std::uint8_t policy = 1;  // net.ipv{4,6}.fib_multipath_hash_policy: 0 = L3, 1 = L4
  std::uint32_t seed = 0;   // net.ipv4.fib_multipath_hash_seed, non-zero
};

// Per switch, the kernel settings that make Linux forward as `fwd` predicts.
// Throws InputError unless every switch hashes with linux-l3 or linux-l4,
// hash-threshold selection, offset 0 and a non-zero seed.
std::vector<KernelHash> kernel_hashes(const Fabric& fabric, const Forwarding& fwd, const std::string& source);

// A static scenario as kernel routes: per switch (dense index) and destination
// endpoint, row-major, the one link the table sends it on; kNone where the
// switch is the endpoint's own ToR (its connected route delivers). Throws
// InputError when a switch's choice depends on the packet's source (a
// source-qualified route), which a destination route cannot express.
std::vector<LinkId> static_next_hops(const Fabric& fabric, const Forwarding& fwd);

// Transit links are numbered from 100.64.0.0/10 (RFC 6598 shared space): the
// from-end of directed link l gets pool + l, so each cable is a /31. On an
// IPv6 fabric from the ULA prefix fdff:e5::/32 the same way, each cable a
// /127 (RFC 6164).
inline constexpr std::uint32_t kLinkPool = 0x64400000;  // 100.64.0.0
inline constexpr std::uint8_t kLinkPoolLen = 10;
inline constexpr std::uint8_t kLinkPool6Len = 32;
hashing::IpAddr link_pool(hashing::Family family);
std::uint8_t link_pool_len(hashing::Family family);

// The prefixes a ToR's hosts are routed by: the shortest common prefix of
// their addresses when it holds no other endpoint and no link address, else
// one host route (/32, /128) per host.
std::vector<std::pair<hashing::IpAddr, std::uint8_t>> tor_prefixes(const Fabric& fabric, std::uint32_t tor);

struct NetnsPlan {
  std::string prefix;                   // every namespace name starts with it
  std::vector<std::string> ns;          // per node
  std::vector<std::string> ifname;      // per directed link: the interface at its from-end
  std::vector<hashing::IpAddr> addr;    // per directed link: the from-end's address
  std::string links_batch;              // `ip -batch` in the root namespace: one veth pair per cable
  std::vector<std::string> node_batch;  // per node, `ip -n NS -batch`: addresses, neighbours, routes
  // Per node, written after the namespace exists and before its interfaces do,
  // so that `default` values apply to them.
  std::vector<std::vector<std::pair<std::string, std::string>>> sysctls;
};

// The largest next-hop weight a legacy multipath route carries (`weight W`
// is stored as rtnh_hops = W - 1, one byte).
inline constexpr std::uint32_t kMaxKernelWeight = 256;

// `kernel` holds one entry per switch (dense switch index); `weight` one WCMP
// weight per directed link (sim/fabric/failures.h link_weights). Cables the sets were
// computed without (sets.down()) are not built. Throws InputError for a
// multipath member weighted above kMaxKernelWeight. With `static_next`
// (static_next_hops) the switches get one /32 route per destination endpoint
// instead of the multipath routes of the equal-cost sets (/128 on IPv6).
NetnsPlan plan_netns(const Fabric& fabric, const EqualCostSets& sets, std::span<const std::uint32_t> weight,
                     std::span<const KernelHash> kernel, const std::string& prefix,
                     std::span<const LinkId> static_next = {});

// "es<pid>-": short, so names stay readable; the pid says which process owns them.
std::string namespace_prefix(long pid);
// The pid in a name made by namespace_prefix, or -1 when the name is not ours.
long namespace_owner(const std::string& name);

}  // namespace ecmpsim
