// The kernel's IPv6 forwarding decision with a flow label: what
// `ip -6 route get DST from SRC iif IF ipproto P sport S dport D flowlabel L`
// asks (iproute2 before 6.3 has no `flowlabel` keyword). A command-line face
// of netns::route_get6 (sim/emulate/netns.h), the one RTM_GETROUTE client
// with RTA_FLOWLABEL, so the hash test and emulate ask the kernel alike.
// Run inside the router's namespace; reads lines "SRC DST PROTO SPORT DPORT
// FLOWLABEL" on stdin and prints, per line, the name of the output device.
//
// Usage: route_get6 IIF_NAME
#include <arpa/inet.h>

#include <cstdlib>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/emulate/netns.h"

namespace {

[[noreturn]] void die(const std::string& what) {
  std::cerr << "route_get6: " << what << '\n';
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) die("usage: route_get6 IIF_NAME");
  std::vector<ecmpsim::netns::RouteQuery6> queries;
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string s, d;
    unsigned proto = 0, sport = 0, dport = 0, label = 0;
    if (!(in >> s >> d >> proto >> sport >> dport >> label)) continue;
    ecmpsim::netns::RouteQuery6 q;
    if (inet_pton(AF_INET6, s.c_str(), q.src.data()) != 1 || inet_pton(AF_INET6, d.c_str(), q.dst.data()) != 1)
      die("bad address in '" + line + "'");
    q.iif = argv[1];
    q.proto = static_cast<std::uint8_t>(proto);
    q.sport = static_cast<std::uint16_t>(sport);
    q.dport = static_cast<std::uint16_t>(dport);
    q.flow_label = label;
    queries.push_back(q);
    lines.push_back(line);
  }
  try {
    const std::vector<std::string> devices = ecmpsim::netns::route_get6(queries);
    for (std::size_t i = 0; i < devices.size(); ++i) {
      if (devices[i].empty()) die("no route for '" + lines[i] + "' arriving on " + argv[1]);
      std::cout << devices[i] << '\n';
    }
  } catch (const std::exception& e) {
    die(e.what());
  }
  return 0;
}
