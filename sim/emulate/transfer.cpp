// The transfers of transfer.h: sockets made inside the namespaces (a socket
// stays in the namespace it was created in), a connect phase, then one poll
// loop until every receiver has its bytes, the deadline passes or a stop is
// asked for.
#include "sim/emulate/transfer.h"

#include "hashing/address.h"

#include <arpa/inet.h>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sstream>
#include <stdexcept>
#include <sys/socket.h>
#include <tuple>
#include <unistd.h>

#include "sim/base/text.h"
#include "sim/emulate/sockaddr.h"
#include "sim/base/clock.h"

namespace ecmpsim {
namespace {

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what + ": " + std::strerror(errno)); }

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const noexcept { return fd_; }
  void reset() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// The address and port of a socket address of either family.
std::pair<hashing::IpAddr, std::uint16_t> endpoint_of(const sockaddr_storage& a) {
  if (a.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&a);
    return {hashing::IpAddr(ntohl(in->sin_addr.s_addr)), ntohs(in->sin_port)};
  }
  const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&a);
  std::array<std::uint8_t, 16> b{};
  std::memcpy(b.data(), &in6->sin6_addr, 16);
  return {hashing::IpAddr::v6(b), ntohs(in6->sin6_port)};
}

std::string endpoint(const hashing::IpAddr& ip, std::uint16_t port) {
  return ip.is_v4() ? hashing::format_ip(ip) + ":" + std::to_string(port)
                    : "[" + hashing::format_ip(ip) + "]:" + std::to_string(port);
}

// A non-blocking TCP socket in the namespace `ns`, bound to ip:port.
Fd bound_socket(const netns::Handle& ns, const hashing::IpAddr& ip, std::uint16_t port) {
  const netns::Enter in(ns);
  Fd s(::socket(ip.is_v4() ? AF_INET : AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (s.get() < 0) fail("socket");
  const int one = 1;
  ::setsockopt(s.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  const SockAddr a = sock_address(ip, port);
  if (::bind(s.get(), a.get(), a.len) != 0) fail("bind " + endpoint(ip, port));
  return s;
}

// Total and kernel (system, irq, softirq) jiffies of all CPUs: /proc/stat's
// first line is user nice system idle iowait irq softirq steal.
std::pair<double, double> cpu_times() {
  std::ifstream in("/proc/stat");
  std::string cpu;
  in >> cpu;
  double total = 0, kernel = 0, v = 0;
  for (int i = 0; i < 8 && in >> v; ++i) {
    total += v;
    if (i == 2 || i == 5 || i == 6) kernel += v;
  }
  return {total, kernel};
}

using FlowKey = std::tuple<hashing::IpAddr, std::uint16_t, hashing::IpAddr, std::uint16_t>;

struct Conn {
  Fd tx, rx;
  bool connected = false;
  std::uint64_t sent = 0, received = 0;
};

// One listening socket per destination address and port.
std::map<std::tuple<const netns::Handle*, hashing::IpAddr, std::uint16_t>, Fd> listen_all(
    std::span<const TransferFlow> flows) {
  std::map<std::tuple<const netns::Handle*, hashing::IpAddr, std::uint16_t>, Fd> out;
  for (const TransferFlow& f : flows) {
    const auto key = std::make_tuple(f.dst_ns, f.dst_ip, f.dport);
    if (out.count(key)) continue;
    Fd s = bound_socket(*f.dst_ns, f.dst_ip, f.dport);
    if (::listen(s.get(), 4096) != 0) fail("listen " + endpoint(f.dst_ip, f.dport));
    out.emplace(key, std::move(s));
  }
  return out;
}

// Connects every flow and accepts every connection; returns when all are
// established. Each accepted socket is matched to its flow by the peer's
// address and port.
void establish(std::span<const TransferFlow> flows, std::vector<Conn>& conns, const TransferOptions& opt,
               Clock::time_point deadline) {
  auto listeners = listen_all(flows);
  std::map<FlowKey, std::size_t> by_key;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const TransferFlow& f = flows[i];
    by_key[{f.src_ip, f.sport, f.dst_ip, f.dport}] = i;
    conns[i].tx = bound_socket(*f.src_ns, f.src_ip, f.sport);
    const char* cc = opt.congestion.c_str();
    if (::setsockopt(conns[i].tx.get(), IPPROTO_TCP, TCP_CONGESTION, cc, static_cast<socklen_t>(opt.congestion.size())) != 0)
      fail("TCP_CONGESTION " + opt.congestion);
    const bool label = !f.dst_ip.is_v4() && f.flow_label != 0;
    if (label) hold_flow_label(conns[i].tx.get(), f.dst_ip, f.flow_label, [&opt] { opt.check_stop(); });
    const SockAddr to = sock_address(f.dst_ip, f.dport, label ? f.flow_label : 0);
    if (::connect(conns[i].tx.get(), to.get(), to.len) != 0 && errno != EINPROGRESS)
      fail("connect " + endpoint(f.src_ip, f.sport) + " -> " + endpoint(f.dst_ip, f.dport));
  }
  std::size_t pending = 2 * flows.size();
  while (pending > 0) {
    opt.check_stop();
    if (Clock::now() > deadline) throw std::runtime_error("connections not established before --timeout");
    std::vector<pollfd> p;
    std::vector<std::size_t> who;  // flow index, or kNone - listener position
    for (const auto& [key, fd] : listeners) p.push_back({fd.get(), POLLIN, 0});
    for (std::size_t i = 0; i < conns.size(); ++i)
      if (!conns[i].connected) {
        p.push_back({conns[i].tx.get(), POLLOUT, 0});
        who.push_back(i);
      }
    if (::poll(p.data(), p.size(), 50) < 0 && errno != EINTR) fail("poll");
    const std::size_t nl = listeners.size();
    for (std::size_t k = 0; k < nl; ++k) {
      if (!(p[k].revents & POLLIN)) continue;
      for (;;) {
        sockaddr_storage peer{}, self{};
        socklen_t len = sizeof peer, slen = sizeof self;
        Fd c(::accept4(p[k].fd, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_NONBLOCK | SOCK_CLOEXEC));
        if (c.get() < 0) break;
        ::getsockname(c.get(), reinterpret_cast<sockaddr*>(&self), &slen);
        const auto [from, from_port] = endpoint_of(peer);
        const auto [to, to_port] = endpoint_of(self);
        const auto it = by_key.find({from, from_port, to, to_port});
        if (it == by_key.end() || conns[it->second].rx.get() >= 0) continue;
        conns[it->second].rx = std::move(c);
        --pending;
      }
    }
    for (std::size_t k = nl; k < p.size(); ++k) {
      if (p[k].revents == 0) continue;
      const std::size_t i = who[k - nl];
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(p[k].fd, SOL_SOCKET, SO_ERROR, &err, &len);
      errno = err;
      if (err != 0)
        fail("connect " + endpoint(flows[i].src_ip, flows[i].sport) + " -> " + endpoint(flows[i].dst_ip, flows[i].dport));
      conns[i].connected = true;
      --pending;
    }
  }
}

// What flow i may have sent by now: all of it, or with a ring dependency
// its upstream's received share plus one step.
std::uint64_t allowed(std::span<const TransferFlow> flows, const std::vector<Conn>& conns, std::size_t i) {
  const TransferFlow& f = flows[i];
  if (f.upstream.empty() || f.step >= 1) return f.bytes;
  double got = 0, of = 0;
  for (std::size_t u : f.upstream) {
    got += static_cast<double>(conns[u].received);
    of += static_cast<double>(flows[u].bytes);
  }
  const double share = std::min(1.0, (of > 0 ? got / of : 1.0) + f.step);
  return std::min(f.bytes, static_cast<std::uint64_t>(share * static_cast<double>(f.bytes)));
}

// Sends what the socket takes now (from `zeros`), up to `limit`; closes the
// sending side once all `bytes` are out.
void push(Conn& c, std::uint64_t limit, std::uint64_t bytes, const std::vector<char>& zeros) {
  while (c.sent < limit) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(zeros.size(), limit - c.sent));
    const ssize_t w = ::send(c.tx.get(), zeros.data(), n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w <= 0) return;
    c.sent += static_cast<std::uint64_t>(w);
  }
  if (c.sent == bytes) ::shutdown(c.tx.get(), SHUT_WR);
}

// Reads what has arrived; true when the flow is over (all bytes, or the peer gone).
bool drain(Conn& c, std::uint64_t bytes, bool* broken) {
  char buf[1 << 16];
  for (;;) {
    const ssize_t r = ::recv(c.rx.get(), buf, sizeof buf, MSG_DONTWAIT);
    if (r > 0) {
      c.received += static_cast<std::uint64_t>(r);
      if (c.received >= bytes) return true;
      continue;
    }
    if (r < 0 && (errno == EAGAIN || errno == EINTR)) return false;
    *broken = true;
    return true;
  }
}

}  // namespace

bool congestion_available(const std::string& name) {
  std::ifstream in("/proc/sys/net/ipv4/tcp_available_congestion_control");
  std::string algo;
  while (in >> algo)
    if (algo == name) return true;
  return false;
}

TransferResult run_transfers(std::span<const TransferFlow> flows, const TransferOptions& opt) {
  TransferResult r;
  r.finish.assign(flows.size(), std::numeric_limits<double>::quiet_NaN());
  const auto begin = Clock::now();
  const auto deadline = begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(opt.timeout_s));
  std::vector<Conn> conns(flows.size());
  establish(flows, conns, opt, deadline);
  r.connect_seconds = seconds_since(begin);

  std::vector<std::uint8_t> done(flows.size(), 0);
  std::size_t left = flows.size();
  const auto [total0, kernel0] = cpu_times();
  const auto start = Clock::now();
  const std::vector<char> zeros(1 << 16, 0);
  for (std::size_t i = 0; i < flows.size(); ++i) push(conns[i], allowed(flows, conns, i), flows[i].bytes, zeros);
  std::vector<pollfd> p;
  std::vector<std::size_t> who;
  while (left > 0) {
    opt.check_stop();
    if (Clock::now() > deadline) {
      r.timed_out = true;
      break;
    }
    p.clear();
    who.clear();
    for (std::size_t i = 0; i < flows.size(); ++i) {
      if (done[i]) continue;
      const bool sending = conns[i].sent < allowed(flows, conns, i);
      p.push_back({conns[i].rx.get(), POLLIN, 0});
      who.push_back(i);
      if (sending) {
        p.push_back({conns[i].tx.get(), POLLOUT, 0});
        who.push_back(i);
      }
    }
    if (::poll(p.data(), p.size(), 20) < 0 && errno != EINTR) fail("poll");
    for (std::size_t k = 0; k < p.size(); ++k) {
      const std::size_t i = who[k];
      if (p[k].revents == 0 || done[i]) continue;
      if (p[k].events == POLLOUT) {
        push(conns[i], allowed(flows, conns, i), flows[i].bytes, zeros);
        continue;
      }
      bool broken = false;
      if (!drain(conns[i], flows[i].bytes, &broken)) continue;
      done[i] = 1;
      --left;
      if (broken) ++r.failed;
      else r.finish[i] = seconds_since(start);
      conns[i].rx.reset();
      conns[i].tx.reset();
    }
  }
  r.seconds = seconds_since(start);
  const auto [total1, kernel1] = cpu_times();
  if (total1 > total0) r.cpu_kernel = (kernel1 - kernel0) / (total1 - total0);
  return r;
}

}  // namespace ecmpsim
