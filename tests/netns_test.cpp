#include <doctest/doctest.h>

#include "sim/netns.h"

using namespace ecmpsim;

TEST_CASE("/proc/net/dev transmit packet counts") {
  // The layout of /proc/net/dev (net/core/net-procfs.c dev_seq_printf_stats):
  // 8 receive columns, then tx bytes, tx packets.
  const std::string text =
      "Inter-|   Receive                                                |  Transmit\n"
      " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls "
      "carrier compressed\n"
      "    lo:       0       0    0    0    0     0          0         0        0       0    0    0    0     0  "
      "     0          0\n"
      "    p1:    1380      23    0    0    0     0          0         0      840      14    0    0    0     0  "
      "     0          0\n";
  const auto tx = netns::parse_tx_packets(text);
  REQUIRE(tx.size() == 2);
  CHECK(tx.at("lo") == 0);
  CHECK(tx.at("p1") == 14);
}
