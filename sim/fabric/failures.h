// Naming cables and switches in a fabric: "leaf0-spine1" (every parallel
// cable between the two), "leaf0-spine1#2" (the third, counting from 0),
// "spine2" (every cable of the switch). "->" may stand for "-", so the id
// every output gives a link (Fabric::link_name: "leaf0->spine1", with "#k"
// when the pair has parallel cables) names exactly that link's cable. Used
// by `down` and `weights`.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sim/fabric/fabric.h"
#include "sim/config/fabric_spec.h"

namespace ecmpsim {

// Both directed links of every cable the reference names, in link order.
// Throws InputError at ref.where for a name that matches nothing, an
// ambiguous one, an endpoint named alone, or a parallel index out of range.
std::vector<LinkId> resolve_cables(const Fabric& fabric, const LinkRef& ref);

// 1 for every directed link the references take down, indexed by LinkId;
// empty when `refs` is empty.
std::vector<std::uint8_t> down_mask(const Fabric& fabric, std::span<const LinkRef> refs);

// The WCMP weight of every directed link, indexed by LinkId: the fabric's,
// then `overrides` in order (a later one wins).
std::vector<std::uint32_t> link_weights(const Fabric& fabric, std::span<const LinkWeight> overrides);

}  // namespace ecmpsim
