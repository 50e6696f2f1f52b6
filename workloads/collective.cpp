#include "workloads/collective.h"

#include <array>
#include <utility>

namespace ecmpsim::workloads {
namespace {
constexpr std::array<std::pair<std::string_view, Collective>, 6> kNames{{
    {"ring-allreduce", Collective::RingAllReduce},
    {"tree-allreduce", Collective::TreeAllReduce},
    {"allgather", Collective::AllGather},
    {"reduce-scatter", Collective::ReduceScatter},
    {"alltoall", Collective::AllToAll},
    {"sendrecv", Collective::SendRecv},
}};
}  // namespace

std::optional<Collective> parse_collective(std::string_view name) noexcept {
  for (const auto& [n, c] : kNames)
    if (n == name) return c;
  return std::nullopt;
}

std::string_view collective_name(Collective c) noexcept {
  for (const auto& [n, v] : kNames)
    if (v == c) return n;
  return "?";
}

}  // namespace ecmpsim::workloads
