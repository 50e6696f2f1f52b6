// The collectives a job can run, one row each: the name in configs and
// outputs, the NCCL operation it is (what nccl-tests times and how busbw is
// counted) and the shape its flows take (which NIC rules apply). The model,
// the size table, the assumptions text, run's notes and emulate's timing read
// these columns instead of listing collectives by hand.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/base/named.h"

namespace ecmpsim::workloads {

enum class Collective : std::uint8_t {
  RingAllReduce,
  TreeAllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  SendRecv,
  Broadcast,
  Reduce,
};

// The NCCL operation (ncclAllReduce, ...; SendRecv: ncclSend/ncclRecv pairs).
enum class CollectiveOp : std::uint8_t { AllReduce, AllGather, ReduceScatter, AllToAll, SendRecv, Broadcast, Reduce };
// How the flows connect ranks: a ring per channel (each rank sends to the
// next), NCCL's double binary tree, or point to point (every pair, PXN).
enum class CollectiveShape : std::uint8_t { Ring, Tree, PointToPoint };

struct CollectiveInfo {
  Collective value;
  std::string_view name;
  CollectiveOp op;
  CollectiveShape shape;
  std::string_view doc = {};
};

inline constexpr std::array<CollectiveInfo, 8> kCollectives{{
    {Collective::RingAllReduce, "ring-allreduce", CollectiveOp::AllReduce, CollectiveShape::Ring},
    {Collective::TreeAllReduce, "tree-allreduce", CollectiveOp::AllReduce, CollectiveShape::Tree},
    {Collective::AllGather, "allgather", CollectiveOp::AllGather, CollectiveShape::Ring},
    {Collective::ReduceScatter, "reduce-scatter", CollectiveOp::ReduceScatter, CollectiveShape::Ring},
    {Collective::AllToAll, "alltoall", CollectiveOp::AllToAll, CollectiveShape::PointToPoint},
    {Collective::SendRecv, "sendrecv", CollectiveOp::SendRecv, CollectiveShape::PointToPoint},
    {Collective::Broadcast, "broadcast", CollectiveOp::Broadcast, CollectiveShape::Ring},
    {Collective::Reduce, "reduce", CollectiveOp::Reduce, CollectiveShape::Ring},
}};

// A collective's row: the table is in enum order.
constexpr const CollectiveInfo& collective_info(Collective c) noexcept {
  return kCollectives[static_cast<std::size_t>(c)];
}
static_assert([] {
  for (std::size_t i = 0; i < kCollectives.size(); ++i)
    if (static_cast<std::size_t>(kCollectives[i].value) != i) return false;
  return true;
}());

constexpr std::optional<Collective> parse_collective(std::string_view name) noexcept {
  return parse_name(kCollectives, name);
}
constexpr std::string_view collective_name(Collective c) noexcept { return name_of(kCollectives, c); }

}  // namespace ecmpsim::workloads
