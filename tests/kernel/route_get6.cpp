// The kernel's IPv6 forwarding decision with a flow label: what
// `ip -6 route get DST from SRC iif IF ipproto P sport S dport D flowlabel L`
// asks (iproute2 before 6.3 has no `flowlabel` keyword, so this sends the
// RTM_GETROUTE itself, with RTA_FLOWLABEL, as inet6_rtm_getroute reads it).
// Run inside the router's namespace; reads lines "SRC DST PROTO SPORT DPORT
// FLOWLABEL" on stdin and prints, per line, the name of the output device.
//
// Usage: route_get6 IIF_NAME
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

namespace {

[[noreturn]] void die(const std::string& what) {
  std::cerr << "route_get6: " << what << '\n';
  std::exit(2);
}

// enum rtattr_type_t in include/uapi/linux/rtnetlink.h: RTA_NH_ID = 30,
// RTA_FLOWLABEL = 31 (Linux 6.5); older userspace headers lack the name.
constexpr unsigned short kRtaFlowLabel = 31;

struct Request {
  nlmsghdr nh;
  rtmsg rt;
  char attrs[256];
};

void add_attr(Request& r, unsigned short type, const void* data, std::size_t len) {
  auto* a = reinterpret_cast<rtattr*>(reinterpret_cast<char*>(&r) + NLMSG_ALIGN(r.nh.nlmsg_len));
  a->rta_type = type;
  a->rta_len = static_cast<unsigned short>(RTA_LENGTH(len));
  std::memcpy(RTA_DATA(a), data, len);
  r.nh.nlmsg_len = static_cast<std::uint32_t>(NLMSG_ALIGN(r.nh.nlmsg_len) + RTA_ALIGN(a->rta_len));
}

// The output interface index of the kernel's answer, or a negative errno.
int route_get(int fd, std::uint32_t seq, const in6_addr& src, const in6_addr& dst, std::uint32_t iif,
              std::uint8_t proto, std::uint16_t sport, std::uint16_t dport, std::uint32_t label) {
  Request r{};
  r.nh.nlmsg_len = NLMSG_LENGTH(sizeof(rtmsg));
  r.nh.nlmsg_type = RTM_GETROUTE;
  r.nh.nlmsg_flags = NLM_F_REQUEST;
  r.nh.nlmsg_seq = seq;
  r.rt.rtm_family = AF_INET6;
  r.rt.rtm_dst_len = 128;
  r.rt.rtm_src_len = 128;
  add_attr(r, RTA_DST, &dst, sizeof dst);
  add_attr(r, RTA_SRC, &src, sizeof src);
  add_attr(r, RTA_IIF, &iif, sizeof iif);
  add_attr(r, RTA_IP_PROTO, &proto, sizeof proto);
  const std::uint16_t sp = htons(sport), dp = htons(dport);
  add_attr(r, RTA_SPORT, &sp, sizeof sp);
  add_attr(r, RTA_DPORT, &dp, sizeof dp);
  const std::uint32_t fl = htonl(label);
  add_attr(r, kRtaFlowLabel, &fl, sizeof fl);
  if (send(fd, &r, r.nh.nlmsg_len, 0) < 0) die(std::string("send: ") + std::strerror(errno));
  char buf[8192];
  const ssize_t got = recv(fd, buf, sizeof buf, 0);
  if (got < 0) die(std::string("recv: ") + std::strerror(errno));
  auto left = static_cast<unsigned>(got);
  for (auto* h = reinterpret_cast<nlmsghdr*>(buf); NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
    if (h->nlmsg_type == NLMSG_ERROR) return reinterpret_cast<nlmsgerr*>(NLMSG_DATA(h))->error;
    if (h->nlmsg_type != RTM_NEWROUTE) continue;
    auto* rt = static_cast<rtmsg*>(NLMSG_DATA(h));
    int len = static_cast<int>(RTM_PAYLOAD(h));
    for (auto* a = RTM_RTA(rt); RTA_OK(a, len); a = RTA_NEXT(a, len))
      if (a->rta_type == RTA_OIF) return *static_cast<int*>(RTA_DATA(a));
  }
  return -ENOENT;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) die("usage: route_get6 IIF_NAME");
  const std::uint32_t iif = if_nametoindex(argv[1]);
  if (iif == 0) die(std::string("no interface ") + argv[1]);
  const int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
  if (fd < 0) die(std::string("netlink socket: ") + std::strerror(errno));
  std::string line;
  std::uint32_t seq = 0;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string s, d;
    unsigned proto = 0, sport = 0, dport = 0, label = 0;
    if (!(in >> s >> d >> proto >> sport >> dport >> label)) continue;
    in6_addr src{}, dst{};
    if (inet_pton(AF_INET6, s.c_str(), &src) != 1 || inet_pton(AF_INET6, d.c_str(), &dst) != 1)
      die("bad address in '" + line + "'");
    const int oif = route_get(fd, ++seq, src, dst, iif, static_cast<std::uint8_t>(proto),
                              static_cast<std::uint16_t>(sport), static_cast<std::uint16_t>(dport), label);
    if (oif < 0) die("route get for '" + line + "': " + std::strerror(-oif));
    char name[IF_NAMESIZE] = {};
    std::cout << (if_indextoname(static_cast<unsigned>(oif), name) ? name : "?") << '\n';
  }
  close(fd);
  return 0;
}
