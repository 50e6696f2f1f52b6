// Socket addresses and flow labels for the emulated fabric's sockets (sockaddr.h).
#include "sim/emulate/sockaddr.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

namespace ecmpsim {
namespace {

// include/uapi/linux/in6.h, which cannot be included beside <netinet/in.h>.
struct FlowLabelRequest {
  in6_addr dst;
  std::uint32_t label;  // network order
  std::uint8_t action, share;
  std::uint16_t flags, expires, linger;
  std::uint32_t pad;
};
constexpr int kFlowLabelMgr = 32;       // IPV6_FLOWLABEL_MGR
constexpr int kFlowInfoSend = 33;       // IPV6_FLOWINFO_SEND
constexpr std::uint8_t kFlGet = 0;      // IPV6_FL_A_GET
constexpr std::uint8_t kFlAny = 255;    // IPV6_FL_S_ANY
constexpr std::uint16_t kFlCreate = 1;  // IPV6_FL_F_CREATE

}  // namespace

SockAddr sock_address(const hashing::IpAddr& ip, std::uint16_t port, std::uint32_t flow_label) {
  SockAddr a;
  if (ip.is_v4()) {
    auto* in = reinterpret_cast<sockaddr_in*>(&a.ss);
    in->sin_family = AF_INET;
    in->sin_addr.s_addr = htonl(ip.v4());
    in->sin_port = htons(port);
    a.len = sizeof(sockaddr_in);
  } else {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&a.ss);
    in6->sin6_family = AF_INET6;
    std::memcpy(&in6->sin6_addr, ip.bytes().data(), 16);
    in6->sin6_port = htons(port);
    in6->sin6_flowinfo = htonl(flow_label);
    a.len = sizeof(sockaddr_in6);
  }
  return a;
}

void hold_flow_label(int fd, const hashing::IpAddr& dst, std::uint32_t label,
                     const std::function<void()>& between_tries) {
  FlowLabelRequest req{};
  std::memcpy(&req.dst, dst.bytes().data(), 16);
  req.label = htonl(label);
  req.action = kFlGet;
  req.share = kFlAny;
  req.flags = kFlCreate;
  for (int tries = 0; ::setsockopt(fd, IPPROTO_IPV6, kFlowLabelMgr, &req, sizeof req) != 0; ++tries) {
    if (errno != ENOBUFS || tries == 100)
      throw std::runtime_error("IPV6_FLOWLABEL_MGR for flow label " + std::to_string(label) + ": " +
                               std::strerror(errno));
    between_tries();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const int one = 1;
  if (::setsockopt(fd, IPPROTO_IPV6, kFlowInfoSend, &one, sizeof one) != 0)
    throw std::runtime_error(std::string("IPV6_FLOWINFO_SEND: ") + std::strerror(errno));
}

}  // namespace ecmpsim
