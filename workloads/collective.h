// The collectives a job can run, and their names in configs and outputs.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ecmpsim::workloads {

enum class Collective : std::uint8_t {
  RingAllReduce,
  TreeAllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  SendRecv,
};

inline constexpr std::string_view kCollectiveChoices =
    "\"ring-allreduce\" | \"tree-allreduce\" | \"allgather\" | \"reduce-scatter\" | \"alltoall\" | \"sendrecv\"";

std::optional<Collective> parse_collective(std::string_view name) noexcept;
std::string_view collective_name(Collective c) noexcept;

}  // namespace ecmpsim::workloads
