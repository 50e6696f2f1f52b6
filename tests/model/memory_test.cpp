// The memory estimate (sim/model/memory.h) on fabrics counted by hand, and
// its refusal naming --max-memory (issue 47, D6).
#include <doctest/doctest.h>

#include <string>

#include "sim/base/error.h"
#include "sim/model/memory.h"

namespace memory_test {

using namespace ecmpsim;

// The fabric: one spine, 20,000 leaves of one host.
Spec one_spine(std::uint32_t leaves) {
  Spec spec;
  spec.source = "one-spine.toml";
  spec.fabric.kind = FabricKind::LeafSpine;
  spec.fabric.leaf_spine.leaves = leaves;
  spec.fabric.leaf_spine.spines = 1;
  spec.fabric.leaf_spine.hosts_per_leaf = 1;
  spec.scenarios.emplace_back();
  spec.jobs.emplace_back();
  return spec;
}

TEST_CASE("the routing tables of one spine and 20,000 leaves: 20,001 x 20,000 (switch, ToR) pairs at 8 bytes") {
  const MemoryEstimate m = routing_memory(one_spine(20000));
  // 20,001 switches x 20,000 ToRs x 8 B = 3,200,160,000; plus 120 B per directed switch link
  // (2 x 20,000 leaf-spine cables = 40,000 links): 4,800,000.
  CHECK(m.largest_bytes == 3'200'160'000ULL + 4'800'000ULL);
  CHECK(m.largest == "1 x 20001 switches x 20000 destination ToRs x 8 B of equal-cost sets");
  // The rest: the process (8 MiB); the fabric's 40,001 nodes (72 B), 20,000 endpoints (92 B) and 80,000
  // directed links (32 B); one scenario's ECMP selection, 20,001 switches x 144 B.
  CHECK(m.bytes == 3'204'960'000ULL + 8'388'608ULL + 2'880'072ULL + 1'840'000ULL + 2'560'000ULL + 2'880'144ULL);
  // A scenario with links down is a second set of equal-cost sets; the same list again is not a third.
  Spec down = one_spine(20000);
  down.scenarios.push_back(down.scenarios.front());
  down.scenarios.back().down.push_back({"leaf0-spine0", {}});
  down.scenarios.push_back(down.scenarios.back());
  CHECK(routing_memory(down).largest_bytes == 2 * m.largest_bytes);
}

TEST_CASE("check_memory refuses above --max-memory, in one line naming the limit and the largest part") {
  Spec spec = one_spine(20000);
  const MemoryEstimate m = routing_memory(spec);
  spec.limits.max_memory = m.bytes;  // at the estimate: accepted (the negative control)
  CHECK_NOTHROW(check_memory(m, spec, "the fabric"));
  spec.limits.max_memory = 2ULL << 30;
  try {
    check_memory(m, spec, "the fabric");
    FAIL("no error");
  } catch (const InputError& e) {
    const std::string text = e.describe();
    CHECK(text == "one-spine.toml: --max-memory: the fabric needs an estimated 3.00 GiB (3223508824 bytes), more than "
                  "the limit of 2.00 GiB; the largest part is 1 x 20001 switches x 20000 destination ToRs x 8 B of "
                  "equal-cost sets (2.98 GiB)");
  }
}

TEST_CASE("the default --max-memory is half of the machine's memory, and a saturated estimate is still refused") {
  CHECK(Limits{}.max_memory > 0);
  CHECK(Limits{}.max_memory == half_physical_memory());
  MemoryEstimate m;
  m.add(~0ULL - 5, "a");
  m.add(100, "b");
  CHECK(m.bytes == ~0ULL);
  CHECK(m.largest == "a");
}

}  // namespace memory_test
