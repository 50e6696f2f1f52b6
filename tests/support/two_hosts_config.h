// The two-host fabric the sweep writers' tests work by hand
// (tests/output/sweep_output_test.cpp, tests/output/rank_output_test.cpp),
// written once so the config and the numbers worked from it cannot drift
// apart between the two.
//
// Two hosts on two leaves, two spines; 800G NICs, 400G fabric links. A
// two-rank ring all-reduce of S = 1 GiB over 2 channels: per direction two
// flows of S/2 from the same NIC. Whether they share an uplink is fixed for
// every seed of a CRC over two members (a seed XORs both hashes with one
// constant, which keeps or swaps their low bits together): crc16-ccitt puts
// them on one spine, crc16-arc on both.
//   apart:    each flow 400 Gb/s, t = (S/2)*8 / 400e9; algbw = S/t = 800 Gb/s;
//             busbw = algbw * 2(n-1)/n = 800 Gb/s = 100 GB/s; slowdown 1; max 1 flow per link.
//   together: 200 Gb/s each, twice the time: busbw 400 Gb/s = 50 GB/s; slowdown 2; max 2.
#pragma once

#include <string_view>

// The fabric, the workload and one scenario, "ecmp" on crc16-ccitt; a test
// appends further [[scenario]] tables when it needs them.
inline constexpr std::string_view kTwoHostsToml = R"(
[fabric]
leaves = 2
spines = 2
hosts_per_leaf = 1
host_speed_gbps = 800
fabric_speed_gbps = 400
[workload]
nodes = 2
channels = 2
message_bytes = "1GiB"
sport_model = "range"
[[scenario]]
name = "ecmp"
[scenario.hash]
algo = "crc16-ccitt"
)";
