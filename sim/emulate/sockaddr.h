// Socket addresses of either family and the IPv6 flow label manager, for the
// two places that open sockets in the emulated fabric: the packet sender
// (emulate.cpp) and the timed TCP transfers (transfer.cpp). Internal to
// sim/emulate.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <functional>

#include "hashing/address.h"

namespace ecmpsim {

// A socket address of either family; an IPv6 one carries `flow_label`.
struct SockAddr {
  sockaddr_storage ss{};
  socklen_t len = 0;
  const sockaddr* get() const noexcept { return reinterpret_cast<const sockaddr*>(&ss); }
};

SockAddr sock_address(const hashing::IpAddr& ip, std::uint16_t port, std::uint32_t flow_label = 0);

// Makes IPv6 socket `fd` send (UDP) or connect (TCP) with `label` in
// sin6_flowinfo: udpv6_sendmsg and tcp_v6_connect take the label only with
// IPV6_FLOWINFO_SEND on and only one the socket holds from the flow label
// manager (fl6_sock_lookup), so it asks for it first, shared with any
// socket. The namespaces' auto_flowlabels is 0, so without this every packet
// would carry label 0 and policy 0 would hash another key than the flow's. A
// label outlives its socket by 6 s (FL_MIN_LINGER) and the kernel holds at
// most 4096 (FL_MAX_SIZE, machine-wide): when all are taken (ENOBUFS) it
// waits for some to expire, 100 ms at a time up to 10 s, calling
// `between_tries` (which may throw to stop). Throws std::runtime_error.
void hold_flow_label(int fd, const hashing::IpAddr& dst, std::uint32_t label,
                     const std::function<void()>& between_tries);

}  // namespace ecmpsim
