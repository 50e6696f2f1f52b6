// The emulated fabric: building and removing its namespaces, the two
// measurements (real UDP packets counted per veth, and the kernel's route
// lookup hop by hop) for IPv4 and IPv6 flows, and their comparison with the
// prediction.
#include "sim/emulate/emulated_fabric.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include "sim/base/error.h"
#include "sim/base/text.h"
#include "sim/emulate/sockaddr.h"
#include "sim/base/clock.h"

namespace ecmpsim {
namespace {

// Datagrams of a flow in flight at most: far fewer than a default receive buffer holds.
constexpr unsigned kBurst = 32;

// What `ip netns del` does, in-process so that a second Ctrl-C cannot kill it.
void delete_namespace(const std::string& name) noexcept {
  const std::string path = "/run/netns/" + name;
  ::umount2(path.c_str(), MNT_DETACH);
  ::unlink(path.c_str());
}

// A UDP socket of the fabric's family.
class Socket {
 public:
  explicit Socket(hashing::Family family)
      : fd_(::socket(family == hashing::Family::V4 ? AF_INET : AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {
    if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  }
  Socket(Socket&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  int fd() const noexcept { return fd_; }

 private:
  int fd_;
};

// The sender of a received datagram is the flow's source.
bool same_endpoint(const sockaddr_storage& from, const hashing::IpAddr& ip, std::uint16_t port) {
  if (from.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&from);
    return ip.is_v4() && ntohl(in->sin_addr.s_addr) == ip.v4() && ntohs(in->sin_port) == port;
  }
  if (from.ss_family != AF_INET6) return false;
  const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&from);
  return !ip.is_v4() && std::memcmp(&in6->sin6_addr, ip.bytes().data(), 16) == 0 && ntohs(in6->sin6_port) == port;
}

void bind_to(const Socket& s, const hashing::IpAddr& ip, std::uint16_t port) {
  const int one = 1;
  ::setsockopt(s.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  const SockAddr a = sock_address(ip, port);
  if (::bind(s.fd(), a.get(), a.len) != 0)
    throw std::runtime_error("bind " + hashing::format_ip(ip) + ":" + std::to_string(port) + ": " + std::strerror(errno));
}

}  // namespace

std::string_view method_name(EmulateMethod m) noexcept { return m == EmulateMethod::Packets ? "packets" : "route-get"; }

EmulatedFabric::EmulatedFabric(const Fabric& fabric, NetnsPlan plan, const volatile std::sig_atomic_t* stop)
    : fabric_(&fabric), plan_(std::move(plan)), stop_(stop) {
  for (const std::string& name : netns::list_namespaces())
    if (name.compare(0, plan_.prefix.size(), plan_.prefix) == 0)
      throw InputError({{}, 0, 0, "emulate"}, "namespace " + name +
                                                  " already exists (left by an earlier process with this pid?); "
                                                  "run `ecmpsim emulate --cleanup`");
  try {
    std::string add;
    for (const std::string& ns : plan_.ns) add += "netns add " + ns + "\n";
    // Record what exists afterwards even when the batch fails part way.
    std::string failure;
    try {
      netns::ip_batch("", add);
    } catch (const std::runtime_error& e) {
      failure = e.what();
    }
    for (const std::string& name : netns::list_namespaces())
      if (name.compare(0, plan_.prefix.size(), plan_.prefix) == 0) created_.push_back(name);
    if (!failure.empty()) throw std::runtime_error(failure);
    check_stop();
    for (NodeId n = 0; n < plan_.ns.size(); ++n) {
      handles_.emplace_back(plan_.ns[n]);
      const netns::Enter in(handles_.back());
      for (const auto& [key, value] : plan_.sysctls[n]) {
        // A kernel built without IPv6 has nothing to silence (an IPv6 fabric fails here).
        if (key.starts_with("net.ipv6.") && fabric.family() == hashing::Family::V4 &&
            ::access("/proc/sys/net/ipv6", F_OK) != 0)
          continue;
        netns::write_sysctl(key, value);
      }
      if (fabric.is_switch(n)) {
        const auto seed = plan_.sysctls[n].back().second;
        if (netns::read_sysctl("net.ipv4.fib_multipath_hash_seed") != seed)
          throw std::runtime_error("the kernel did not take net.ipv4.fib_multipath_hash_seed=" + seed);
      }
    }
    check_stop();
    netns::ip_batch("", plan_.links_batch);
    for (NodeId n = 0; n < plan_.ns.size(); ++n) {
      check_stop();
      netns::ip_batch(plan_.ns[n], plan_.node_batch[n]);
    }
    if (fabric.family() == hashing::Family::V6) settle();
  } catch (...) {
    remove();
    throw;
  }
}

EmulatedFabric::~EmulatedFabric() { remove(); }

// Every IPv6 interface reports its multicast groups (MLD) once it has an
// address, even with multicast off; measuring starts when no link has sent
// anything for kQuiet polls in a row, so the counters see test packets only.
void EmulatedFabric::settle() {
  constexpr int kQuiet = 3;
  constexpr auto kPoll = std::chrono::milliseconds(50);
  std::vector<std::uint64_t> last = snapshot();
  for (int quiet = 0, polls = 0; quiet < kQuiet && polls < 200; ++polls) {
    check_stop();
    std::this_thread::sleep_for(kPoll);
    std::vector<std::uint64_t> now = snapshot();
    quiet = now == last ? quiet + 1 : 0;
    last = std::move(now);
  }
}

void EmulatedFabric::remove() noexcept {
  handles_.clear();
  for (const std::string& name : created_) delete_namespace(name);
  created_.clear();
}

void EmulatedFabric::check_stop() const {
  if (stop_ != nullptr && *stop_ != 0) throw Interrupted();
}

std::vector<std::uint64_t> EmulatedFabric::snapshot() {
  std::vector<std::uint64_t> tx(fabric_->links().size(), 0);
  for (NodeId n = 0; n < plan_.ns.size(); ++n) {
    const netns::Enter in(handles_[n]);
    const auto counters = netns::tx_packets();
    for (LinkId l : fabric_->out_links(n)) {
      const auto it = counters.find(plan_.ifname[l]);
      if (it != counters.end()) tx[l] = it->second;
    }
  }
  return tx;
}

EmulatedFabric::Measurement EmulatedFabric::measure_packets(const workloads::Flows& flows, unsigned packets) {
  const auto start = Clock::now();
  const Fabric& f = *fabric_;
  Measurement m;
  m.method = EmulateMethod::Packets;
  m.trace.link_flows.assign(f.links().size(), 0);
  m.trace.link_bytes.assign(f.links().size(), 0);
  m.trace.path_begin.assign(1, 0);
  m.delivered.assign(flows.size(), 0);

  std::map<std::pair<std::uint32_t, std::uint16_t>, Socket> receivers;  // (endpoint, port)
  std::vector<std::uint64_t> before = snapshot();
  std::vector<std::uint8_t> on_path(f.links().size(), 0);
  for (std::size_t i = 0; i < flows.size(); ++i) {
    check_stop();
    const std::uint32_t dst = flows.dst[i];
    auto rx = receivers.find({dst, flows.dport[i]});
    if (rx == receivers.end()) {
      const netns::Enter in(handles_[f.endpoint_node(dst)]);
      Socket s(f.family());
      bind_to(s, flows.dst_ip[i], flows.dport[i]);
      rx = receivers.emplace(std::make_pair(dst, flows.dport[i]), std::move(s)).first;
    }
    // Unconnected: sendto() leaves skb->hash unset, so each router computes
    // fib_multipath_hash from the five-tuple (a connected socket's sk_txhash
    // would travel with the packet and be used instead). A socket stays in
    // the namespace it was made in.
    const Socket tx = [&] {
      const netns::Enter in(handles_[f.endpoint_node(flows.src[i])]);
      Socket s(f.family());
      bind_to(s, flows.src_ip[i], flows.sport[i]);
      if (f.family() == hashing::Family::V6 && flows.flow_label[i] != 0)
        hold_flow_label(s.fd(), flows.dst_ip[i], flows.flow_label[i], [this] { check_stop(); });
      return s;
    }();
    const SockAddr to = sock_address(flows.dst_ip[i], flows.dport[i], flows.flow_label[i]);
    // In bursts the receive buffer always holds, each received before the next is sent.
    unsigned sent = 0, got = 0;
    bool timed_out = false;
    while (sent < packets && !timed_out) {
      for (const unsigned end = std::min(packets, sent + kBurst); sent < end; ++sent) {
        const std::uint32_t payload[2] = {htonl(static_cast<std::uint32_t>(i)), htonl(sent)};
        if (::sendto(tx.fd(), payload, sizeof payload, 0, to.get(), to.len) < 0)
          throw std::runtime_error(std::string("sendto: ") + std::strerror(errno));
      }
      while (got < sent) {
        pollfd p{rx->second.fd(), POLLIN, 0};
        const int r = ::poll(&p, 1, 1000);
        if (r < 0 && errno == EINTR) {
          check_stop();
          continue;
        }
        if (r <= 0) {
          timed_out = true;
          break;
        }
        std::uint32_t payload[2];
        sockaddr_storage from{};
        socklen_t len = sizeof from;
        const ssize_t n =
            ::recvfrom(rx->second.fd(), payload, sizeof payload, 0, reinterpret_cast<sockaddr*>(&from), &len);
        if (n == sizeof payload && same_endpoint(from, flows.src_ip[i], flows.sport[i]) && ntohl(payload[0]) == i)
          ++got;
        else
          ++m.stray_packets;
      }
    }
    const std::vector<std::uint64_t> after = snapshot();
    // Follow the links whose counter rose by exactly `packets` from the source host.
    std::fill(on_path.begin(), on_path.end(), 0);
    LinkId l = f.uplink(flows.src[i]);
    const std::size_t max_hops = f.switches().size() + 2;
    for (std::size_t hop = 0; hop <= max_hops; ++hop) {
      if (after[l] - before[l] != packets) break;
      on_path[l] = 1;
      m.trace.path_links.push_back(l);
      const NodeId at = f.link(l).to;
      if (!f.is_switch(at)) {
        m.delivered[i] = at == f.endpoint_node(dst) && got == packets;
        break;
      }
      LinkId next = kNone;
      for (LinkId o : f.out_links(at))
        if (after[o] - before[o] == packets && !on_path[o]) next = next == kNone ? o : kNone - 1;
      if (next == kNone || next == kNone - 1) break;
      l = next;
    }
    for (LinkId k = 0; k < f.links().size(); ++k)
      m.stray_packets += on_path[k] ? 0 : after[k] - before[k];
    m.trace.path_begin.push_back(static_cast<std::uint32_t>(m.trace.path_links.size()));
    for (LinkId k : m.trace.path(i)) {
      ++m.trace.link_flows[k];
      m.trace.link_bytes[k] += flows.bytes[i];
    }
    before = after;
  }
  m.seconds = seconds_since(start);
  return m;
}

std::vector<std::string> EmulatedFabric::route_get_batch(NodeId node, std::span<const std::size_t> members,
                                                         const workloads::Flows& flows,
                                                         const std::vector<std::vector<LinkId>>& paths) {
  std::string batch;
  for (std::size_t i : members)
    batch += "route get " + hashing::format_ip(flows.dst_ip[i]) + " from " + hashing::format_ip(flows.src_ip[i]) +
             " iif " + plan_.ifname[paths[i].back() ^ 1u] + " ipproto " + std::to_string(flows.proto[i]) + " sport " +
             std::to_string(flows.sport[i]) + " dport " + std::to_string(flows.dport[i]) + "\n";
  const std::string out = netns::ip_batch(plan_.ns[node], batch, true, true);
  // One JSON array per answered query; a failed query prints nothing, so
  // answers are matched to queries by destination and source.
  std::vector<std::string> devs(members.size());
  std::size_t pos = 0, k = 0;
  while (pos < out.size() && k < members.size()) {
    const std::size_t end = out.find('\n', pos);
    const std::string line = out.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    pos = end == std::string::npos ? out.size() : end + 1;
    const auto doc = nlohmann::json::parse(line, nullptr, false);
    if (!doc.is_array() || doc.empty() || !doc[0].contains("dev")) continue;
    const auto& r = doc[0];
    while (k < members.size() && (r.value("dst", "") != hashing::format_ip(flows.dst_ip[members[k]]) ||
                                  r.value("from", "") != hashing::format_ip(flows.src_ip[members[k]])))
      ++k;  // no answer for this query
    if (k == members.size()) break;
    devs[k++] = r["dev"].get<std::string>();
  }
  return devs;
}

// iproute2 before 6.3 cannot put a flow label in `ip route get`, and IPv6
// policy 0 hashes it: the query goes to the kernel directly (RTA_FLOWLABEL).
std::vector<std::string> EmulatedFabric::route_get_netlink(NodeId node, std::span<const std::size_t> members,
                                                           const workloads::Flows& flows,
                                                           const std::vector<std::vector<LinkId>>& paths) {
  std::vector<netns::RouteQuery6> queries;
  for (std::size_t i : members)
    queries.push_back({flows.src_ip[i].bytes(), flows.dst_ip[i].bytes(), plan_.ifname[paths[i].back() ^ 1u],
                       flows.proto[i], flows.sport[i], flows.dport[i], flows.flow_label[i]});
  const netns::Enter in(handles_[node]);
  return netns::route_get6(queries);
}

EmulatedFabric::Measurement EmulatedFabric::measure_route_get(const workloads::Flows& flows) {
  const auto start = Clock::now();
  const Fabric& f = *fabric_;
  Measurement m;
  m.method = EmulateMethod::RouteGet;
  m.delivered.assign(flows.size(), 0);
  std::vector<std::vector<LinkId>> paths(flows.size());
  std::vector<std::uint8_t> active(flows.size(), 1);
  for (std::size_t i = 0; i < flows.size(); ++i) paths[i].push_back(f.uplink(flows.src[i]));
  const std::size_t max_hops = f.switches().size() + 2;
  for (std::size_t round = 0; round < max_hops; ++round) {
    check_stop();
    // One batch per switch holding packets this round.
    std::map<NodeId, std::vector<std::size_t>> at;
    for (std::size_t i = 0; i < flows.size(); ++i)
      if (active[i]) at[f.link(paths[i].back()).to].push_back(i);
    if (at.empty()) break;
    for (const auto& [node, members] : at) {
      check_stop();
      const std::vector<std::string> devs = f.family() == hashing::Family::V4
                                                ? route_get_batch(node, members, flows, paths)
                                                : route_get_netlink(node, members, flows, paths);
      for (std::size_t k = 0; k < members.size(); ++k) {
        const std::size_t i = members[k];
        LinkId next = kNone;
        for (LinkId o : f.out_links(node))
          if (!devs[k].empty() && plan_.ifname[o] == devs[k]) next = o;
        if (next == kNone) {
          active[i] = 0;  // no answer, or an interface that is not a link
          continue;
        }
        paths[i].push_back(next);
        const NodeId to = f.link(next).to;
        if (!f.is_switch(to)) {
          active[i] = 0;
          m.delivered[i] = to == f.endpoint_node(flows.dst[i]);
        }
      }
    }
  }
  m.trace.link_flows.assign(f.links().size(), 0);
  m.trace.link_bytes.assign(f.links().size(), 0);
  m.trace.path_begin.assign(1, 0);
  for (std::size_t i = 0; i < flows.size(); ++i) {
    for (LinkId l : paths[i]) {
      m.trace.path_links.push_back(l);
      ++m.trace.link_flows[l];
      m.trace.link_bytes[l] += flows.bytes[i];
    }
    m.trace.path_begin.push_back(static_cast<std::uint32_t>(m.trace.path_links.size()));
  }
  m.seconds = seconds_since(start);
  return m;
}

Comparison compare(const Trace& predicted, const EmulatedFabric::Measurement& m, std::span<const LinkId> metric_links) {
  Comparison c;
  const std::size_t nflows = predicted.path_begin.size() - 1;
  c.flows = nflows;
  for (std::size_t i = 0; i < nflows; ++i) {
    const auto a = predicted.path(i);
    const auto b = m.trace.path(i);
    c.paths_agree += m.delivered[i] && std::equal(a.begin(), a.end(), b.begin(), b.end());
    c.undelivered += !m.delivered[i];
  }
  c.links = predicted.link_flows.size();
  for (std::size_t l = 0; l < c.links; ++l) c.links_agree += predicted.link_flows[l] == m.trace.link_flows[l];
  c.stray_packets = m.stray_packets;
  std::vector<double> a, b;
  for (LinkId l : metric_links) {
    a.push_back(m.trace.link_flows[l]);
    b.push_back(predicted.link_flows[l]);
  }
  c.measured = imbalance(a);
  c.predicted = imbalance(b);
  return c;
}

std::vector<std::string> cleanup_leftovers() {
  std::vector<std::string> removed;
  for (const std::string& name : netns::list_namespaces()) {
    const long pid = namespace_owner(name);
    if (pid < 0 || netns::process_alive(pid)) continue;
    delete_namespace(name);
    removed.push_back(name);
  }
  return removed;
}

}  // namespace ecmpsim
