// Real TCP transfers between network namespaces, for `emulate
// --measure-time`: every flow becomes one connection from its source
// address and port (bound before connecting, so the five-tuple is the
// flow's own but for the protocol; over IPv6 every segment also carries the
// flow's flow label) to its destination's port, IPv4 or IPv6, all connected
// first and then started at one instant, each carrying its bytes (held back,
// if asked, by a ring's step structure); the receiver's clock stamps each
// flow's last byte. One thread and one poll
// loop drive every socket: the kernel does the forwarding, shaping and
// congestion control, the loop only keeps the send buffers full and drains
// the receive buffers.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "hashing/address.h"
#include "sim/emulate/netns.h"

namespace ecmpsim {

struct TransferFlow {
  hashing::IpAddr src_ip, dst_ip;  // one family
  std::uint16_t sport = 0, dport = 0;
  std::uint32_t flow_label = 0;  // IPv6: the label of the connection's segments (0: none)
  std::uint64_t bytes = 0;
  const netns::Handle* src_ns = nullptr;
  const netns::Handle* dst_ns = nullptr;
  // A ring's data dependency (empty: none): the flow may have sent at most
  // (received share of `upstream` together + `step`) of its bytes, as a ring
  // rank forwards what it received plus one chunk of its own.
  std::vector<std::size_t> upstream;  // indices into the flows run together
  double step = 1;
};

struct TransferOptions {
  std::string congestion = "cubic";  // TCP_CONGESTION of every sending socket
  double timeout_s = 60;             // from the first connect to the last byte
  std::function<void()> check_stop;  // called between steps; throws to stop
};

struct TransferResult {
  // Per flow: seconds from the common start to the receipt of its last
  // byte; NaN when it did not finish (timeout, or the connection failed).
  std::vector<double> finish;
  double connect_seconds = 0;  // all connections established
  double seconds = 0;          // the common start to the last finish (or the timeout)
  bool timed_out = false;
  std::size_t failed = 0;      // connections that ended before their last byte
  // Share of the machine's CPU time spent in the kernel (system, irq,
  // softirq) during the transfer: forwarding and shaping are kernel work,
  // so near 1 the machine, not the links, set the pace.
  double cpu_kernel = 0;
};

// Runs the transfers; throws std::runtime_error when a socket cannot be made,
// bound or connected.
TransferResult run_transfers(std::span<const TransferFlow> flows, const TransferOptions& opt);

// Whether this kernel offers congestion control `name` (tcp_available_congestion_control).
bool congestion_available(const std::string& name);

}  // namespace ecmpsim
