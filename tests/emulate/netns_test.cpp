#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

#include "sim/emulate/emulate.h"
#include "sim/emulate/emulate_plan.h"
#include "sim/base/error.h"
#include "sim/fabric/fabric.h"
#include "sim/emulate/netns.h"
#include "tests/support/fabrics.h"

namespace netns_test {

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

TEST_CASE("HTB class counters from tc -s class show") {
  // tc 6.1's text (it prints no JSON for HTB classes): a line per class, then "Sent B bytes P pkt (dropped D, ...".
  const std::string text =
      "class htb 1:11 parent 1:1 prio 0 rate 2091Kbit ceil 2091Kbit burst 1599b cburst 1599b \n"
      " Sent 261624 bytes 172 pkt (dropped 3, overlimits 57 requeues 0) \n"
      " backlog 0b 0p requeues 0\n"
      " lended: 172 borrowed: 0 giants: 0\n"
      " tokens: 91022 ctokens: 91022\n"
      "\n"
      "class htb 1:1 root rate 2091Kbit ceil 2091Kbit burst 1599b cburst 1599b \n"
      " Sent 1347264 bytes 890 pkt (dropped 0, overlimits 0 requeues 0) \n"
      " backlog 0b 0p requeues 0\n";
  const auto s = netns::parse_class_stats(text);
  REQUIRE(s.size() == 2);
  CHECK(s.at("1:11").bytes == 261624);
  CHECK(s.at("1:11").packets == 172);
  CHECK(s.at("1:11").dropped == 3);
  CHECK(s.at("1:1").bytes == 1347264);
  CHECK(s.at("1:1").dropped == 0);
  CHECK(netns::parse_class_stats("").empty());
}

TEST_CASE("a child that stops reading its input is an exit status, not a SIGPIPE") {
  // 4 MiB is far more than a pipe or socket buffer holds: `true` exits
  // without reading, and the writer must see EPIPE and carry on.
  const std::string big(4u << 20, 'x');
  const auto r = netns::run_process({"true"}, big);
  CHECK(r.status == 0);
  const auto f = netns::run_process({"sh", "-c", "head -c 10; exit 3"}, big);
  CHECK(f.status == 3);
  CHECK(f.out == std::string(10, 'x'));
}

TEST_CASE("run_process passes input through and collects both outputs") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "line " + std::to_string(i) + "\n";
  const auto r = netns::run_process({"sh", "-c", "cat; echo done >&2"}, text);
  CHECK(r.status == 0);
  CHECK(r.out == text);
  CHECK(r.err == "done\n");
  CHECK(netns::run_process({"/nonexistent/ecmpsim-no-such-tool"}, "").status == 127);
}

TEST_CASE("a namespace left behind under this process's prefix is an input error naming the fix") {
  // Needs root to create a namespace; where kernel tests are required (CI) it must run.
  const bool required = std::getenv("ECMPSIM_REQUIRE_KERNEL_TESTS") != nullptr &&
                        std::string(std::getenv("ECMPSIM_REQUIRE_KERNEL_TESTS")) == "1";
  const std::string prefix = namespace_prefix(::getpid());
  const std::string name = prefix + "stale";
  if (::geteuid() != 0 || netns::run_process({"ip", "netns", "add", name}, "").status != 0) {
    CHECK_FALSE_MESSAGE(required, "needs root and `ip netns add`");
    return;
  }
  const Fabric fabric = test_support::leaf_spine(2, 2, 2);
  NetnsPlan plan;
  plan.prefix = prefix;
  CHECK_THROWS_WITH_AS(EmulatedFabric(fabric, plan, nullptr),
                       ("namespace " + name +
                        " already exists (left by an earlier process with this pid?); run `ecmpsim emulate --cleanup`")
                           .c_str(),
                       InputError);
  CHECK(netns::run_process({"ip", "netns", "del", name}, "").status == 0);
}

TEST_CASE("route_get6 asks the kernel which device an IPv6 packet leaves on") {
  const bool required = std::getenv("ECMPSIM_REQUIRE_KERNEL_TESTS") != nullptr &&
                        std::string(std::getenv("ECMPSIM_REQUIRE_KERNEL_TESTS")) == "1";
  const std::string name = namespace_prefix(::getpid()) + "rg6";
  if (::geteuid() != 0 || netns::run_process({"ip", "netns", "add", name}, "").status != 0) {
    CHECK_FALSE_MESSAGE(required, "needs root and `ip netns add`");
    return;
  }
  // A router with an ingress d1 and egresses d2, d3: fd09::/64 leaves on d2, fd0a::/64 on d3.
  const auto setup = netns::run_process({"ip", "-n", name, "-batch", "-"},
                                        "link add d1 type veth peer name e1\nlink add d2 type veth peer name e2\n"
                                        "link add d3 type veth peer name e3\nlink set d1 up\nlink set d2 up\n"
                                        "link set d3 up\nlink set e1 up\nlink set e2 up\nlink set e3 up\n"
                                        "addr add fd01::1/64 dev d1 nodad\naddr add fd02::1/64 dev d2 nodad\n"
                                        "addr add fd03::1/64 dev d3 nodad\n"
                                        "route add fd09::/64 via fd02::2 dev d2\nroute add fd0a::/64 via fd03::2 dev d3\n");
  const auto fwd = netns::run_process({"ip", "netns", "exec", name, "sysctl", "-qw", "net.ipv6.conf.all.forwarding=1"}, "");
  CHECK(setup.status == 0);
  CHECK(fwd.status == 0);
  const auto addr = [](const char* text) { return hashing::parse_ip(text)->bytes(); };
  const std::vector<netns::RouteQuery6> queries{
      {addr("fd01::5"), addr("fd09::7"), "d1", 17, 49152, 4791, 0},
      {addr("fd01::5"), addr("fd0a::7"), "d1", 17, 49152, 4791, 0xABCDE},  // a flow label is accepted
      {addr("fd01::5"), addr("fd0b::7"), "d1", 17, 49152, 4791, 0},        // no route
      {addr("fd01::5"), addr("fd09::7"), "nosuch", 17, 49152, 4791, 0},    // no such ingress device
  };
  std::vector<std::string> answers;
  {
    const netns::Handle ns(name);
    const netns::Enter in(ns);
    answers = netns::route_get6(queries);
  }
  CHECK(answers == std::vector<std::string>{"d2", "d3", "", ""});
  CHECK(netns::run_process({"ip", "netns", "del", name}, "").status == 0);
}
}  // namespace netns_test
