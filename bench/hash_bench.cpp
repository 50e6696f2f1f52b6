// ns per hash for every catalogue algorithm on a RoCEv2 five-tuple, and the
// cost of building each key layout.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "hashing/hasher.h"
#include "hashing/key.h"

namespace {

namespace h = ecmpsim::hashing;

h::Tuple rocev2_tuple(std::uint32_t i) {
  h::Tuple t;
  t.src_ip = 0x0A000000u | (i & 0xFFFF);
  t.dst_ip = 0x0A010000u | ((i >> 4) & 0xFFFF);
  t.proto = 17;
  t.sport = static_cast<std::uint16_t>(0xC000u | (i & 0x3FFF));
  t.dport = 4791;
  return t;
}

// Hash only: the key is built once (13 bytes for Fields layouts).
void BM_Hash(benchmark::State& state, const h::Algorithm* algo) {
  h::KeyBuffer buf;
  const std::size_t n = h::build_key(algo->layout, h::default_fields(), rocev2_tuple(12345), buf);
  std::uint32_t seed = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(buf);
    benchmark::DoNotOptimize(algo->fn(h::Key(buf.data(), n), seed));
  }
  state.SetLabel(std::to_string(n) + "-byte key");
}

// Key building plus hashing, a new tuple each iteration.
void BM_KeyAndHash(benchmark::State& state, const h::Algorithm* algo) {
  h::KeyBuffer buf;
  std::uint32_t i = 0;
  for (auto _ : state) {
    const std::size_t n = h::build_key(algo->layout, h::default_fields(), rocev2_tuple(i++), buf);
    benchmark::DoNotOptimize(algo->fn(h::Key(buf.data(), n), 0));
  }
}

void BM_BuildKey(benchmark::State& state, h::KeyLayout layout) {
  h::KeyBuffer buf;
  std::uint32_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(h::build_key(layout, h::default_fields(), rocev2_tuple(i++), buf));
    benchmark::ClobberMemory();
  }
}

void register_all() {
  for (const h::Algorithm& a : h::catalogue()) {
    benchmark::RegisterBenchmark(("hash/" + std::string(a.name)).c_str(), BM_Hash, &a);
    benchmark::RegisterBenchmark(("key+hash/" + std::string(a.name)).c_str(), BM_KeyAndHash, &a);
  }
  benchmark::RegisterBenchmark("build_key/fields-5tuple", BM_BuildKey, h::KeyLayout::Fields);
  benchmark::RegisterBenchmark("build_key/linux-l4", BM_BuildKey, h::KeyLayout::LinuxL4);
  benchmark::RegisterBenchmark("build_key/bond-l34", BM_BuildKey, h::KeyLayout::BondL34);
}

}  // namespace

// The catalogue is only known at run time, so benchmarks are registered here
// rather than with BENCHMARK() macros.
int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
