// The `ecmpsim hash --tuples` CSV parser and the hash of every parsed tuple.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/base/error.h"
#include "sim/routing/hash_query.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ecmpsim::HashQuery q;
  q.algo = &ecmpsim::hashing::catalogue().front();
  q.members = 7;
  const ecmpsim::HashCalculator calc(q);
  std::uint64_t sink = 0;
  try {
    ecmpsim::for_each_tuple_csv(text, "fuzz.csv", [&](const ecmpsim::hashing::Tuple& t) { sink += calc(t).member; });
  } catch (const ecmpsim::InputError&) {
  }
  return sink == ~0ULL;
}
