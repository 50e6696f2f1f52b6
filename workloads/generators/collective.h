// The collectives a job can run, and their names in configs and outputs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "hashing/named.h"

namespace ecmpsim::workloads {

enum class Collective : std::uint8_t {
  RingAllReduce,
  TreeAllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  SendRecv,
};

inline constexpr std::array<Named<Collective>, 6> kCollectives{{{Collective::RingAllReduce, "ring-allreduce"},
                                                                {Collective::TreeAllReduce, "tree-allreduce"},
                                                                {Collective::AllGather, "allgather"},
                                                                {Collective::ReduceScatter, "reduce-scatter"},
                                                                {Collective::AllToAll, "alltoall"},
                                                                {Collective::SendRecv, "sendrecv"}}};
constexpr std::optional<Collective> parse_collective(std::string_view name) noexcept {
  return parse_name(kCollectives, name);
}
constexpr std::string_view collective_name(Collective c) noexcept { return name_of(kCollectives, c); }

}  // namespace ecmpsim::workloads
